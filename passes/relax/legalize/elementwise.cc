// Legalizations of the element-wise operators: binary operators with numpy broadcasting
// (arithmetic, comparisons, logical and bitwise), where, astype, unary math, clip and
// the activations of R.nn.
#include <cmath>
#include <limits>

#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;

// `x` in `dtype`, cast only where it differs.
PrimExpr cast_to(DataType dtype, const PrimExpr& x) {
  return x->dtype == dtype ? x : tir::cast(dtype, x);
}

// The indices into an operand of `operand_shape` for output indices `out` (numpy
// broadcasting: aligned at the right, a dimension of 1 where the output's is not 1
// reads index 0).
std::vector<PrimExpr> broadcast_indices(const std::vector<PrimExpr>& operand_shape,
                                        const std::vector<PrimExpr>& out_shape,
                                        const std::vector<tir::Var>& out) {
  std::vector<PrimExpr> indices;
  size_t offset = out.size() - operand_shape.size();
  for (size_t d = 0; d < operand_shape.size(); ++d) {
    const PrimExpr& dim = operand_shape[d];
    bool stretched = tir::is_const_int(dim, 1) && !tir::is_const_int(out_shape[offset + d], 1);
    indices.push_back(stretched ? tir::make_const(out[offset + d]->dtype, 0)
                                : PrimExpr(out[offset + d]));
  }
  return indices;
}

// An operand in a compute body: a tensor read with broadcasting, or a scalar (a
// PrimValue).
struct Operand {
  std::optional<tir::Tensor> tensor;
  PrimExpr scalar;

  PrimExpr at(const std::vector<PrimExpr>& out_shape, const std::vector<tir::Var>& i) const {
    if (!tensor) return scalar;
    return (*tensor)(broadcast_indices(tensor->shape(), out_shape, i));
  }
};

using NaryFn = std::function<PrimExpr(const std::vector<PrimExpr>& operands)>;

// out = fn(operands) over the broadcast shape of all the call's arguments: elementwise
// if every tensor operand has the output's shape, else broadcast.
LegalizeFn broadcasting(const std::string& name, NaryFn fn) {
  return [name, fn](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    size_t count = ctx.call()->args.size();
    std::vector<Operand> operands(count);
    for (size_t k = 0; k < count; ++k) {
      if (ctx.call()->args[k]->struct_info.is<PrimStructInfoNode>()) {
        operands[k].scalar = ctx.prim_arg(compute, k);
      } else {
        operands[k].tensor = ctx.input(compute, k);
      }
    }
    std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
    tir::OpPattern pattern = tir::OpPattern::ElemWise;
    arith::Analyzer analyzer;
    for (const Operand& operand : operands) {
      if (!operand.tensor) continue;
      const std::vector<PrimExpr>& shape = operand.tensor->shape();
      bool same = shape.size() == out_shape.size();
      for (size_t d = 0; same && d < shape.size(); ++d) {
        same = analyzer.can_prove_equal(shape[d], out_shape[d]);
      }
      if (!same) pattern = tir::OpPattern::Broadcast;
    }
    tir::Tensor out = compute.compute("T_" + name, out_shape, ctx.result_dtype(),
                                      [&](const std::vector<tir::Var>& i) {
                                        std::vector<PrimExpr> values;
                                        for (const Operand& o : operands) {
                                          values.push_back(o.at(out_shape, i));
                                        }
                                        return fn(values);
                                      });
    return ctx.call_tir(name, compute, {out}, pattern);
  };
}

using BinaryFn = std::function<PrimExpr(const PrimExpr& a, const PrimExpr& b)>;

LegalizeFn binary(const std::string& name, BinaryFn fn) {
  return broadcasting(name, [fn](const std::vector<PrimExpr>& v) { return fn(v[0], v[1]); });
}

// A unary operator: the call's attributes are at hand (leakyrelu's alpha), and so are
// the scalars of its PrimValue arguments (clip's bounds), in order.
using UnaryFn = std::function<PrimExpr(const PrimExpr& x, const CallNode* call,
                                       const std::vector<PrimExpr>& scalars)>;

LegalizeFn unary(const std::string& name, UnaryFn fn) {
  return [name, fn](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    tir::Tensor x = ctx.input(compute, 0);
    const CallNode* call = ctx.call();
    std::vector<PrimExpr> scalars;
    for (size_t k = 1; k < call->args.size(); ++k) scalars.push_back(ctx.prim_arg(compute, k));
    tir::Tensor out =
        compute.compute("T_" + name, x.shape(), ctx.result_dtype(),
                        [&](const std::vector<tir::Var>& i) { return fn(x(i), call, scalars); });
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::ElemWise);
  };
}

PrimExpr intrinsic(const char* name, const PrimExpr& x) { return tir::call(x->dtype, name, {x}); }
PrimExpr intrinsic(const char* name, const PrimExpr& x, const PrimExpr& y) {
  return tir::call(x->dtype, name, {x, y});
}
PrimExpr constant(const PrimExpr& like, double value) {
  return tir::make_const(like->dtype, value);
}
bool is_float(const PrimExpr& x) { return x->dtype.is_float(); }

// A math intrinsic of float operands (the operators' inference admits floats only).
LegalizeFn math(const std::string& name) {
  std::string op = "tir." + name;
  return unary(name, [op](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
    return tir::call(x->dtype, op, {x});
  });
}

// A rounding of floats; integers are already whole.
LegalizeFn rounding(const std::string& name, const char* op) {
  return unary(name, [op](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
    return is_float(x) ? intrinsic(op, x) : x;
  });
}

// x as a truth value (bool, or nonzero).
PrimExpr truth(const PrimExpr& x) { return x->dtype.is_bool() ? x : tir::ne(x, constant(x, 0)); }

// A logical operator: bool operands directly, others as != 0 with the result in
// their dtype (0 or 1), as TVM's logical operators keep the operand dtype.
LegalizeFn logical(const std::string& name, std::function<PrimExpr(PrimExpr, PrimExpr)> fn) {
  return binary(name, [fn](const PrimExpr& a, const PrimExpr& b) {
    PrimExpr r = fn(truth(a), truth(b));
    return a->dtype.is_bool() ? r : tir::cast(a->dtype, r);
  });
}

PrimExpr floor_of_quotient(const PrimExpr& a, const PrimExpr& b) {
  return intrinsic("tir.floor", tir::truncdiv(a, b));
}

// a ** b on floats as NumPy computes it. Vulkan's pow (GLSL.std.450 Pow) is undefined
// for a negative base, which exported models meet in x ** 2 and x ** 3 (lavapipe gives
// NaN): there the power is pow(|a|, b), negated for an odd whole exponent, and NaN for a
// fractional one; and x ** 0 is 1, where pow(0, 0) is undefined too.
PrimExpr float_power(const PrimExpr& a, const PrimExpr& b) {
  PrimExpr zero = constant(a, 0);
  PrimExpr magnitude = intrinsic("tir.pow", intrinsic("tir.fabs", a), b);
  PrimExpr whole = tir::eq(intrinsic("tir.floor", b), b);
  PrimExpr half = tir::mul(b, constant(b, 0.5));
  PrimExpr odd = tir::ne(intrinsic("tir.floor", half), half);
  PrimExpr negative_base =
      tir::select(whole, tir::select(odd, tir::sub(zero, magnitude), magnitude),
                  constant(a, std::numeric_limits<double>::quiet_NaN()));
  return tir::select(tir::eq(b, constant(b, 0)), constant(a, 1),
                     tir::select(tir::lt(a, zero), negative_base, magnitude));
}

void add_binary(LegalizationTable& table) {
  table["relax.add"] = binary("add", [](auto a, auto b) { return tir::add(a, b); });
  table["relax.subtract"] = binary("subtract", [](auto a, auto b) { return tir::sub(a, b); });
  table["relax.multiply"] = binary("multiply", [](auto a, auto b) { return tir::mul(a, b); });
  // On integers divide truncates toward zero, as TVM's divide; floor_divide floors.
  table["relax.divide"] = binary("divide", [](auto a, auto b) { return tir::truncdiv(a, b); });
  table["relax.floor_divide"] = binary("floor_divide", [](auto a, auto b) {
    return is_float(a) ? floor_of_quotient(a, b) : tir::floordiv(a, b);
  });
  // An integer power is float32 pow of |a|, rounded, negated for a negative base and an
  // odd exponent (pow of a negative base is undefined on GPUs): exact while the result
  // fits in float32's 24-bit mantissa.
  table["relax.power"] = binary("power", [](auto a, auto b) {
    if (is_float(a)) return float_power(a, b);
    DataType f32 = DataType::Float(32);
    PrimExpr zero = constant(a, 0);
    PrimExpr magnitude = tir::select(tir::lt(a, zero), tir::sub(zero, a), a);
    PrimExpr p = tir::cast(
        a->dtype,
        intrinsic("tir.nearbyint", intrinsic("tir.pow", cast_to(f32, magnitude), cast_to(f32, b))));
    PrimExpr flips = tir::logical_and(tir::lt(a, zero),
                                      tir::eq(tir::floormod(b, constant(b, 2)), constant(b, 1)));
    // pow(0, 0) is undefined on GPUs too; x ** 0 is 1.
    PrimExpr signed_power = tir::select(flips, tir::sub(zero, p), p);
    return tir::select(tir::eq(b, constant(b, 0)), constant(a, 1), signed_power);
  });
  table["relax.maximum"] = binary("maximum", [](auto a, auto b) { return tir::max(a, b); });
  table["relax.minimum"] = binary("minimum", [](auto a, auto b) { return tir::min(a, b); });
  // mod has the dividend's sign (C's fmod, TVM's truncmod); floor_mod the divisor's.
  table["relax.mod"] = binary("mod", [](auto a, auto b) {
    return is_float(a) ? intrinsic("tir.fmod", a, b) : tir::truncmod(a, b);
  });
  table["relax.floor_mod"] = binary("floor_mod", [](auto a, auto b) {
    return is_float(a) ? tir::sub(a, tir::mul(floor_of_quotient(a, b), b)) : tir::floormod(a, b);
  });
  table["relax.equal"] = binary("equal", [](auto a, auto b) { return tir::eq(a, b); });
  table["relax.not_equal"] = binary("not_equal", [](auto a, auto b) { return tir::ne(a, b); });
  table["relax.less"] = binary("less", [](auto a, auto b) { return tir::lt(a, b); });
  table["relax.less_equal"] = binary("less_equal", [](auto a, auto b) { return tir::le(a, b); });
  table["relax.greater"] = binary("greater", [](auto a, auto b) { return tir::gt(a, b); });
  table["relax.greater_equal"] =
      binary("greater_equal", [](auto a, auto b) { return tir::ge(a, b); });
  table["relax.logical_and"] =
      logical("logical_and", [](auto a, auto b) { return tir::logical_and(a, b); });
  table["relax.logical_or"] =
      logical("logical_or", [](auto a, auto b) { return tir::logical_or(a, b); });
  table["relax.logical_xor"] = logical("logical_xor", [](auto a, auto b) { return tir::ne(a, b); });
  for (const char* name : {"bitwise_and", "bitwise_or", "bitwise_xor"}) {
    std::string op = std::string("tir.") + name;
    table[std::string("relax.") + name] = binary(name, [op](auto a, auto b) {
      return tir::call(a->dtype, op, {a, b});
    });
  }
  table["relax.left_shift"] =
      binary("left_shift", [](auto a, auto b) { return intrinsic("tir.shift_left", a, b); });
  table["relax.right_shift"] =
      binary("right_shift", [](auto a, auto b) { return intrinsic("tir.shift_right", a, b); });

  table["relax.where"] = broadcasting(
      "where", [](const std::vector<PrimExpr>& v) { return tir::select(v[0], v[1], v[2]); });
}

void add_unary(LegalizationTable& table) {
  for (const char* name :
       {"exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "tanh", "asin", "acos", "atan", "sinh",
        "cosh", "asinh", "acosh", "atanh", "sigmoid", "erf"}) {
    table[std::string("relax.") + name] = math(name);
  }
  table["relax.abs"] =
      unary("abs", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        if (is_float(x)) return intrinsic("tir.fabs", x);
        if (x->dtype.is_uint()) return x;
        return tir::select(tir::lt(x, constant(x, 0)), tir::sub(constant(x, 0), x), x);
      });
  table["relax.negative"] =
      unary("negative", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return tir::sub(constant(x, 0), x);
      });
  table["relax.square"] =
      unary("square", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return tir::mul(x, x);
      });
  table["relax.floor"] = rounding("floor", "tir.floor");
  table["relax.ceil"] = rounding("ceil", "tir.ceil");
  table["relax.trunc"] = rounding("trunc", "tir.trunc");
  // Halves to even, as numpy's round and ONNX's Round.
  table["relax.round"] = rounding("round", "tir.nearbyint");
  table["relax.sign"] =
      unary("sign", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        PrimExpr zero = constant(x, 0);
        PrimExpr negative = x->dtype.is_uint() ? zero : constant(x, -1);
        return tir::select(tir::gt(x, zero), constant(x, 1),
                           tir::select(tir::lt(x, zero), negative, zero));
      });
  table["relax.isnan"] =
      unary("isnan", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return is_float(x) ? tir::call(DataType::Bool(), "tir.isnan", {x}) : tir::bool_imm(false);
      });
  table["relax.isinf"] =
      unary("isinf", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return is_float(x) ? tir::call(DataType::Bool(), "tir.isinf", {x}) : tir::bool_imm(false);
      });
  table["relax.isfinite"] =
      unary("isfinite", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        if (!is_float(x)) return tir::bool_imm(true);
        return tir::logical_not(tir::logical_or(tir::call(DataType::Bool(), "tir.isnan", {x}),
                                                tir::call(DataType::Bool(), "tir.isinf", {x})));
      });
  table["relax.logical_not"] =
      unary("logical_not", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        PrimExpr r = tir::logical_not(truth(x));
        return x->dtype.is_bool() ? r : tir::cast(x->dtype, r);
      });
  table["relax.bitwise_not"] =
      unary("bitwise_not", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return intrinsic("tir.bitwise_not", x);
      });
  table["relax.astype"] =
      unary("astype", [](const PrimExpr& x, const CallNode* call, const std::vector<PrimExpr>&) {
        return cast_to(dtype_attr(call, "dtype"), x);
      });
  table["relax.clip"] =
      unary("clip", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>& bounds) {
        return tir::min(tir::max(x, cast_to(x->dtype, bounds[0])), cast_to(x->dtype, bounds[1]));
      });
}

void add_activations(LegalizationTable& table) {
  table["relax.nn.relu"] =
      unary("relu", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return tir::max(x, constant(x, 0));
      });
  table["relax.nn.leakyrelu"] =
      unary("leakyrelu", [](const PrimExpr& x, const CallNode* call, const std::vector<PrimExpr>&) {
        PrimExpr alpha = constant(x, float_attr(call, "alpha"));
        return tir::select(tir::gt(x, constant(x, 0)), x, tir::mul(x, alpha));
      });
  table["relax.nn.gelu"] =
      unary("gelu", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        PrimExpr cdf = tir::add(
            constant(x, 0.5),
            tir::mul(intrinsic("tir.erf", tir::mul(x, constant(x, M_SQRT1_2))), constant(x, 0.5)));
        return tir::mul(x, cdf);
      });
  table["relax.nn.gelu_tanh"] =
      unary("gelu_tanh", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        PrimExpr cube = tir::mul(tir::mul(x, x), x);
        PrimExpr inner = tir::mul(constant(x, std::sqrt(2.0 / M_PI)),
                                  tir::add(x, tir::mul(constant(x, 0.044715), cube)));
        PrimExpr half_x = tir::mul(constant(x, 0.5), x);
        return tir::mul(half_x, tir::add(constant(x, 1), intrinsic("tir.tanh", inner)));
      });
  table["relax.nn.silu"] =
      unary("silu", [](const PrimExpr& x, const CallNode*, const std::vector<PrimExpr>&) {
        return tir::mul(x, intrinsic("tir.sigmoid", x));
      });
  // log(1 + exp(beta x)) / beta, and x itself where beta x passes the threshold (there
  // the two agree to float precision and exp would overflow).
  table["relax.nn.softplus"] =
      unary("softplus", [](const PrimExpr& x, const CallNode* call, const std::vector<PrimExpr>&) {
        double beta = float_attr(call, "beta");
        PrimExpr scaled = tir::mul(x, constant(x, beta));
        PrimExpr smooth = tir::truncdiv(
            intrinsic("tir.log", tir::add(constant(x, 1), intrinsic("tir.exp", scaled))),
            constant(x, beta));
        return tir::select(tir::gt(scaled, constant(x, float_attr(call, "threshold"))), x, smooth);
      });
  // x where positive, else x times the slope of its channel (dimension `axis`).
  table["relax.nn.prelu"] = [](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    tir::Tensor x = ctx.input(compute, 0);
    tir::Tensor alpha = ctx.input(compute, 1);
    int axis = normalize_axis(ctx.call(), "axis", int_attr(ctx.call(), "axis"), x.ndim());
    bool single = alpha.ndim() == 0 || tir::is_const_int(alpha.shape()[0], 1);
    tir::Tensor out =
        compute.compute("T_prelu", x.shape(), x.dtype(), [&](const std::vector<tir::Var>& i) {
          std::vector<PrimExpr> slope_index;
          if (alpha.ndim() == 1) {
            slope_index.push_back(single ? tir::make_const(i[axis]->dtype, 0) : PrimExpr(i[axis]));
          }
          PrimExpr v = x(i);
          return tir::select(tir::gt(v, constant(v, 0)), v, tir::mul(v, alpha(slope_index)));
        });
    return ctx.call_tir("prelu", compute, {out}, tir::OpPattern::Broadcast);
  };
  // At inference dropout is the identity; TVM's result is (output, mask).
  table["relax.nn.dropout"] = [](LegalizeContext& ctx) {
    const Expr& x = ctx.call()->args[0];
    return ctx.builder().tuple({x, x}, ctx.call()->span);
  };
}

}  // namespace

void add_elementwise_legalizations(LegalizationTable& table) {
  add_binary(table);
  add_unary(table);
  add_activations(table);
}

}  // namespace relaxc::relax
