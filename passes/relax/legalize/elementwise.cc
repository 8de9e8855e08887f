// Legalizations of the element-wise operators: binary arithmetic with numpy
// broadcasting, and unary math.
#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;

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

using BinaryFn = PrimExpr (*)(PrimExpr, PrimExpr, Span);

// An operand of a binary operator in a compute body: a tensor read with broadcasting,
// or a scalar (a PrimValue).
struct BinaryOperand {
  std::optional<tir::Tensor> tensor;
  PrimExpr scalar;

  PrimExpr at(const std::vector<PrimExpr>& out_shape, const std::vector<tir::Var>& i) const {
    if (!tensor) return scalar;
    return (*tensor)(broadcast_indices(tensor->shape(), out_shape, i));
  }
};

LegalizeFn binary(const std::string& name, BinaryFn fn) {
  return [name, fn](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    std::vector<BinaryOperand> operands(2);
    for (size_t k = 0; k < 2; ++k) {
      if (ctx.call()->args[k]->struct_info.is<PrimStructInfoNode>()) {
        operands[k].scalar = ctx.prim_arg(compute, k);
      } else {
        operands[k].tensor = ctx.input(compute, k);
      }
    }
    std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
    tir::OpPattern pattern = tir::OpPattern::ElemWise;
    for (const BinaryOperand& operand : operands) {
      if (!operand.tensor) continue;
      const std::vector<PrimExpr>& shape = operand.tensor->shape();
      bool same = shape.size() == out_shape.size();
      for (size_t d = 0; same && d < shape.size(); ++d) {
        same = arith::Analyzer().can_prove_equal(shape[d], out_shape[d]);
      }
      if (!same) pattern = tir::OpPattern::Broadcast;
    }
    tir::Tensor out = compute.compute(
        "T_" + name, out_shape, ctx.result_dtype(), [&](const std::vector<tir::Var>& i) {
          return fn(operands[0].at(out_shape, i), operands[1].at(out_shape, i), Span());
        });
    return ctx.call_tir(name, compute, {out}, pattern);
  };
}

LegalizeFn unary(const std::string& name, std::function<PrimExpr(const PrimExpr&)> fn) {
  return [name, fn](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    tir::Tensor x = ctx.input(compute, 0);
    tir::Tensor out = compute.compute("T_" + name, x.shape(), ctx.result_dtype(),
                                      [&](const std::vector<tir::Var>& i) { return fn(x(i)); });
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::ElemWise);
  };
}

PrimExpr intrinsic(const char* name, const PrimExpr& x) { return tir::call(x->dtype, name, {x}); }

}  // namespace

void add_elementwise_legalizations(LegalizationTable& table) {
  table["relax.add"] = binary("add", tir::add);
  table["relax.subtract"] = binary("subtract", tir::sub);
  table["relax.multiply"] = binary("multiply", tir::mul);
  // On integers it truncates toward zero, as TVM's divide (floor_divide floors).
  table["relax.divide"] = binary("divide", tir::truncdiv);
  table["relax.exp"] = unary("exp", [](const PrimExpr& x) { return intrinsic("tir.exp", x); });
  table["relax.nn.relu"] =
      unary("relu", [](const PrimExpr& x) { return tir::max(x, tir::make_const(x->dtype, 0)); });
}

}  // namespace relaxc::relax
