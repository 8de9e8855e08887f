// Import-time computation on shape tensors (see shape_values.h): each operator PyTorch
// emits between Shape and a shape-taking operator, computed on int64 expressions.
#include "frontend/onnx/shape_values.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <limits>
#include <string>

#include "frontend/onnx/tensor_proto.h"
#include "ir/arith/analyzer.h"
#include "ir/relax/analysis.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::onnx_import {

namespace {

using relax::PrimExpr;

// Shape tensors are short; a longer constant is data, left to the operator's converter.
constexpr int64_t kMaxElements = 1024;

const relax::TensorStructInfoNode* tensor_info(const Value& v) {
  return v.expr->struct_info.as<relax::TensorStructInfoNode>();
}

// A tensor of `dtype` and `shape` holding `values` (int64 written bit-exactly: ONNX
// writes "to the end" as INT64_MAX, which a double does not hold).
HostTensor int_tensor(DataType dtype, std::vector<int64_t> shape,
                      const std::vector<int64_t>& values) {
  if (dtype != DataType::Int(64)) {
    return HostTensor::from_doubles(dtype, std::move(shape),
                                    std::vector<double>(values.begin(), values.end()));
  }
  auto bytes = std::make_shared<std::vector<uint8_t>>(values.size() * sizeof(int64_t));
  if (!values.empty()) std::memcpy(bytes->data(), values.data(), bytes->size());
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.data = std::move(bytes);
  return t;
}

// The known elements of every input, or nullopt if one is absent or not known.
std::optional<std::vector<std::vector<PrimExpr>>> all_known(const NodeContext& ctx) {
  std::vector<std::vector<PrimExpr>> all;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) return std::nullopt;
    std::optional<std::vector<PrimExpr>> e = known_elements(ctx.input(i));
    if (!e) return std::nullopt;
    all.push_back(std::move(*e));
  }
  return all;
}

int input_ndim(const NodeContext& ctx, size_t i) { return tensor_info(ctx.input(i))->ndim; }
DataType input_dtype(const NodeContext& ctx, size_t i) { return tensor_info(ctx.input(i))->dtype; }

// The constant integers of `elements`, or nullopt if one is symbolic.
std::optional<std::vector<int64_t>> const_ints(const std::vector<PrimExpr>& elements) {
  std::vector<int64_t> out;
  for (const PrimExpr& e : elements) {
    const int64_t* c = tir::as_const_int(e);
    if (c == nullptr) return std::nullopt;
    out.push_back(*c);
  }
  return out;
}

// Python's slice rule on a sequence of `length`, as ONNX Slice and Shape(start, end)
// clamp: negative counts from the end, out of range is clamped.
int64_t clamp_index(int64_t index, int64_t length, bool backward) {
  if (index < 0) index += length;
  int64_t lo = backward ? -1 : 0;
  int64_t hi = backward ? length - 1 : length;
  return std::min(std::max(index, lo), hi);
}

std::optional<std::vector<Value>> fold_shape(NodeContext& ctx) {
  const relax::TensorStructInfoNode* x = tensor_info(ctx.input(0));
  const std::vector<PrimExpr>* dims = x->shape_values();
  if (dims == nullptr) return std::nullopt;
  int64_t rank = static_cast<int64_t>(dims->size());
  int64_t start = 0, end = rank;
  if (ctx.opset() >= 15) {
    start = clamp_index(ctx.attr_int("start", 0), rank, false);
    end = ctx.has_attr("end") ? clamp_index(ctx.attr_int("end"), rank, false) : rank;
  }
  std::vector<PrimExpr> out;
  for (int64_t d = start; d < end; ++d) out.push_back((*dims)[d]);
  return std::vector<Value>{elements_value(ctx, std::move(out), DataType::Int(64), false)};
}

std::optional<std::vector<Value>> fold_size(NodeContext& ctx) {
  const std::vector<PrimExpr>* dims = tensor_info(ctx.input(0))->shape_values();
  if (dims == nullptr) return std::nullopt;
  PrimExpr size = relax::const_dim(1);
  for (const PrimExpr& d : *dims) size = tir::mul(size, d);
  return std::vector<Value>{elements_value(ctx, {size}, DataType::Int(64), true)};
}

// Gather on a 1-D known tensor with constant 0-d or 1-D indices.
std::optional<std::vector<Value>> fold_gather(NodeContext& ctx,
                                              const std::vector<std::vector<PrimExpr>>& in) {
  if (input_ndim(ctx, 0) != 1 || input_ndim(ctx, 1) > 1) return std::nullopt;
  std::optional<std::vector<int64_t>> indices = const_ints(in[1]);
  if (!indices) return std::nullopt;
  int64_t length = static_cast<int64_t>(in[0].size());
  std::vector<PrimExpr> out;
  for (int64_t index : *indices) {
    if (index < -length || index >= length) {
      ctx.invalid("index " + std::to_string(index) + " of input 1 'indices' is out of range for " +
                  std::to_string(length) + " elements");
    }
    out.push_back(in[0][index < 0 ? index + length : index]);
  }
  return std::vector<Value>{
      elements_value(ctx, std::move(out), input_dtype(ctx, 0), input_ndim(ctx, 1) == 0)};
}

std::optional<std::vector<Value>> fold_concat(NodeContext& ctx,
                                              const std::vector<std::vector<PrimExpr>>& in) {
  std::vector<PrimExpr> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (input_ndim(ctx, i) != 1) return std::nullopt;
    out.insert(out.end(), in[i].begin(), in[i].end());
  }
  return std::vector<Value>{elements_value(ctx, std::move(out), input_dtype(ctx, 0), false)};
}

// Unsqueeze of a scalar to 1-D, Squeeze of one element to a scalar; other ranks are not
// shape tensors.
std::optional<std::vector<Value>> fold_squeeze(NodeContext& ctx,
                                               const std::vector<std::vector<PrimExpr>>& in,
                                               bool unsqueeze) {
  int ndim = input_ndim(ctx, 0);
  if (unsqueeze ? ndim != 0 : (ndim != 1 || in[0].size() != 1)) return std::nullopt;
  std::vector<int64_t> axes;
  if (ctx.opset() >= 13) {
    if (ctx.has_input(1)) {
      std::optional<std::vector<int64_t>> given = const_ints(in[1]);
      if (!given) return std::nullopt;
      axes = *given;
    }
  } else {
    axes = ctx.attr_ints("axes", std::vector<int64_t>{});
  }
  if (unsqueeze && (axes.size() != 1 || (axes[0] != 0 && axes[0] != -1))) return std::nullopt;
  if (!unsqueeze && axes.size() > 1) return std::nullopt;
  return std::vector<Value>{elements_value(ctx, in[0], input_dtype(ctx, 0), !unsqueeze)};
}

std::optional<std::vector<Value>> fold_slice(NodeContext& ctx,
                                             const std::vector<std::vector<PrimExpr>>& in) {
  if (input_ndim(ctx, 0) != 1) return std::nullopt;
  int64_t start, end, step = 1;
  if (ctx.opset() < 10) {
    std::vector<int64_t> starts = ctx.attr_ints("starts"), ends = ctx.attr_ints("ends");
    if (starts.size() != 1 || ends.size() != 1) return std::nullopt;
    start = starts[0];
    end = ends[0];
  } else {
    std::optional<std::vector<int64_t>> starts = const_ints(in[1]), ends = const_ints(in[2]);
    if (!starts || !ends || starts->size() != 1 || ends->size() != 1) return std::nullopt;
    start = (*starts)[0];
    end = (*ends)[0];
    if (in.size() > 4) {
      std::optional<std::vector<int64_t>> steps = const_ints(in[4]);
      if (!steps || steps->size() != 1 || (*steps)[0] == 0) return std::nullopt;
      step = (*steps)[0];
    }
  }
  int64_t length = static_cast<int64_t>(in[0].size());
  start = clamp_index(start, length, step < 0);
  end = clamp_index(end, length, step < 0);
  std::vector<PrimExpr> out;
  for (int64_t k = start; step > 0 ? k < end : k > end; k += step) out.push_back(in[0][k]);
  return std::vector<Value>{elements_value(ctx, std::move(out), input_dtype(ctx, 0), false)};
}

// Cast between integer types (int64 <-> int32 on shapes), which keeps the elements, and
// to bool (non-zero is 1).
std::optional<std::vector<Value>> fold_cast(NodeContext& ctx,
                                            const std::vector<std::vector<PrimExpr>>& in) {
  std::optional<DataType> to = dtype_of(static_cast<int32_t>(ctx.attr_int("to")));
  if (!to || !to->is_integer() || input_ndim(ctx, 0) > 1) return std::nullopt;
  std::vector<PrimExpr> out = in[0];
  if (to->is_bool()) {
    for (PrimExpr& e : out) {
      e = tir::select(tir::ne(e, relax::const_dim(0)), relax::const_dim(1), relax::const_dim(0));
    }
  }
  return std::vector<Value>{elements_value(ctx, std::move(out), *to, input_ndim(ctx, 0) == 0)};
}

// Reshape of a shape tensor to 1-D or 0-d.
std::optional<std::vector<Value>> fold_reshape(NodeContext& ctx,
                                               const std::vector<std::vector<PrimExpr>>& in) {
  std::optional<std::vector<int64_t>> target = const_ints(in[1]);
  if (!target || target->size() > 1) return std::nullopt;
  if (target->size() == 1 && (*target)[0] != -1 &&
      (*target)[0] != static_cast<int64_t>(in[0].size())) {
    return std::nullopt;
  }
  if (target->empty() && in[0].size() != 1) return std::nullopt;
  return std::vector<Value>{elements_value(ctx, in[0], input_dtype(ctx, 0), target->empty())};
}

std::optional<std::vector<Value>> fold_constant_of_shape(
    NodeContext& ctx, const std::vector<std::vector<PrimExpr>>& in) {
  std::optional<std::vector<int64_t>> shape = const_ints(in[0]);
  if (!shape || shape->size() != 1 || (*shape)[0] < 0 || (*shape)[0] > kMaxElements) {
    return std::nullopt;  // a negative length is the converter's to refuse, with its message
  }
  HostTensor value = ctx.has_attr("value")
                         ? ctx.attr_tensor("value")
                         : HostTensor::from_doubles(DataType::Float(32), {1}, {0});
  if (!value.dtype.is_integer() || value.num_elements() != 1) return std::nullopt;
  std::vector<PrimExpr> out((*shape)[0], relax::const_dim(value.element_as_int(0)));
  return std::vector<Value>{elements_value(ctx, std::move(out), value.dtype, false)};
}

// The elementwise operators on shape values, with ONNX (numpy) broadcasting of 0-d and
// 1-D operands.
std::optional<std::vector<Value>> fold_elementwise(NodeContext& ctx,
                                                   const std::vector<std::vector<PrimExpr>>& in,
                                                   const std::string& op) {
  if (in.empty()) return std::nullopt;
  size_t length = 1;
  int ndim = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    int n = input_ndim(ctx, i);
    if (n > 1) return std::nullopt;
    ndim = std::max(ndim, n);
    if (in[i].size() != 1) {
      if (length != 1 && length != in[i].size()) {
        ctx.invalid("input " + std::to_string(i) + " has " + std::to_string(in[i].size()) +
                    " elements, which do not broadcast with " + std::to_string(length));
      }
      length = in[i].size();
    }
  }
  auto at = [&](size_t i, size_t k) { return in[i].size() == 1 ? in[i][0] : in[i][k]; };
  // A division by a constant 0 is left to the tensor operator (the simplifier would
  // reject it).
  if (op == "Div" || op == "Mod") {
    for (const PrimExpr& d : in[1]) {
      if (tir::is_const_int(d, 0)) return std::nullopt;
    }
  }
  // Mod with fmod = 0 (the default) takes the divisor's sign, as Python's %.
  bool fmod = op == "Mod" && ctx.attr_int("fmod", 0) != 0;
  auto as_bool = [&](const PrimExpr& c) {
    return tir::select(c, relax::const_dim(1), relax::const_dim(0));
  };
  bool compare = op == "Equal" || op == "Less" || op == "Greater";
  std::vector<PrimExpr> out;
  for (size_t k = 0; k < length; ++k) {
    PrimExpr r;
    if (op == "Where") {
      r = tir::select(tir::ne(at(0, k), relax::const_dim(0)), at(1, k), at(2, k));
    } else if (op == "Neg") {
      r = tir::sub(relax::const_dim(0), at(0, k));
    } else {
      r = at(0, k);
      for (size_t i = 1; i < in.size(); ++i) {
        PrimExpr b = at(i, k);
        if (op == "Add" || op == "Sum") r = tir::add(r, b);
        if (op == "Mod") r = fmod ? tir::truncmod(r, b) : tir::floormod(r, b);
        if (op == "Sub") r = tir::sub(r, b);
        if (op == "Mul") r = tir::mul(r, b);
        // ONNX's integer division truncates.
        if (op == "Div") r = tir::truncdiv(r, b);
        if (op == "Max") r = tir::max(r, b);
        if (op == "Min") r = tir::min(r, b);
        if (op == "Equal") r = as_bool(tir::eq(r, b));
        if (op == "Less") r = as_bool(tir::lt(r, b));
        if (op == "Greater") r = as_bool(tir::gt(r, b));
      }
    }
    out.push_back(r);
  }
  DataType dtype = compare ? DataType::Bool() : input_dtype(ctx, op == "Where" ? 1 : 0);
  return std::vector<Value>{elements_value(ctx, std::move(out), dtype, ndim == 0)};
}

// The tensor operator of a binary PrimExpr node of kind K, applied to its operands.
template <NodeKind K>
std::optional<relax::Expr> binary_tensor(NodeContext& ctx, const PrimExpr& e, const char* op) {
  const auto* node = e.as<tir::BinaryNode<K>>();
  if (node == nullptr) return std::nullopt;
  return ctx.emit_op(op, {prim_expr_tensor(ctx, node->a), prim_expr_tensor(ctx, node->b)});
}

}  // namespace

PrimExpr simplify_dims(const PrimExpr& e) {
  arith::Analyzer analyzer;
  for (const tir::Var& v : relax::free_symbolic_vars(relax::shape_sinfo({e}))) {
    analyzer.bind_bounds(v, 0, std::numeric_limits<int64_t>::max());
  }
  return analyzer.simplify(e);
}

relax::Expr prim_expr_tensor(NodeContext& ctx, const PrimExpr& e) {
  if (const auto* imm = e.as<tir::IntImmNode>()) {
    return ctx.constant_value(int_tensor(e->dtype, {}, {imm->value})).expr;
  }
  if (e.is<tir::VarNode>()) {
    relax::Expr ones = ctx.emit_op("relax.ones", {relax::make_shape_expr({e})},
                                   Attrs({{"dtype", AttrValue::data_type(DataType::Int(64))}}));
    return ctx.emit_op("relax.sum", {ones});
  }
  if (const auto* cast = e.as<tir::CastNode>()) {
    return ctx.emit_op("relax.astype", {prim_expr_tensor(ctx, cast->value)},
                       Attrs({{"dtype", AttrValue::data_type(e->dtype)}}));
  }
  if (const auto* select = e.as<tir::SelectNode>()) {
    return ctx.emit_op("relax.where", {prim_expr_tensor(ctx, select->condition),
                                       prim_expr_tensor(ctx, select->true_value),
                                       prim_expr_tensor(ctx, select->false_value)});
  }
  if (const auto* negation = e.as<tir::NotNode>()) {
    return ctx.emit_op("relax.logical_not", {prim_expr_tensor(ctx, negation->a)});
  }
  using K = NodeKind;
  std::optional<relax::Expr> t;
  if (!t) t = binary_tensor<K::TirAdd>(ctx, e, "relax.add");
  if (!t) t = binary_tensor<K::TirSub>(ctx, e, "relax.subtract");
  if (!t) t = binary_tensor<K::TirMul>(ctx, e, "relax.multiply");
  if (!t) t = binary_tensor<K::TirDiv>(ctx, e, "relax.divide");
  if (!t) t = binary_tensor<K::TirMod>(ctx, e, "relax.mod");
  if (!t) t = binary_tensor<K::TirFloorDiv>(ctx, e, "relax.floor_divide");
  if (!t) t = binary_tensor<K::TirFloorMod>(ctx, e, "relax.floor_mod");
  if (!t) t = binary_tensor<K::TirMin>(ctx, e, "relax.minimum");
  if (!t) t = binary_tensor<K::TirMax>(ctx, e, "relax.maximum");
  if (!t) t = binary_tensor<K::TirEQ>(ctx, e, "relax.equal");
  if (!t) t = binary_tensor<K::TirNE>(ctx, e, "relax.not_equal");
  if (!t) t = binary_tensor<K::TirLT>(ctx, e, "relax.less");
  if (!t) t = binary_tensor<K::TirLE>(ctx, e, "relax.less_equal");
  if (!t) t = binary_tensor<K::TirGT>(ctx, e, "relax.greater");
  if (!t) t = binary_tensor<K::TirGE>(ctx, e, "relax.greater_equal");
  if (!t) t = binary_tensor<K::TirAnd>(ctx, e, "relax.logical_and");
  if (!t) t = binary_tensor<K::TirOr>(ctx, e, "relax.logical_or");
  // Shape arithmetic makes nothing else; an intrinsic call here is a bug of this file.
  RELAXC_ICHECK(t) << "a shape expression of an unexpected kind";
  return *t;
}

relax::Expr iota(NodeContext& ctx, const PrimExpr& length, const PrimExpr& start, int64_t step) {
  relax::Expr ones = ctx.emit_op("relax.ones", {relax::make_shape_expr({length})},
                                 Attrs({{"dtype", AttrValue::data_type(DataType::Int(64))}}));
  relax::Expr out = ctx.emit_op(
      "relax.cumsum", {ones},
      Attrs({{"axis", AttrValue::integer(0)}, {"exclusive", AttrValue::boolean(true)}}));
  if (step != 1) {
    out = ctx.emit_op("relax.multiply",
                      {out, ctx.constant_value(int_tensor(DataType::Int(64), {}, {step})).expr});
  }
  if (!tir::is_const_int(start, 0)) {
    out = ctx.emit_op("relax.add", {out, prim_expr_tensor(ctx, start)});
  }
  return out;
}

std::optional<std::vector<PrimExpr>> known_elements(const Value& value) {
  if (value.shape_elements) return value.shape_elements;
  if (!value.constant) return std::nullopt;
  const HostTensor& t = *value.constant;
  if (!t.dtype.is_integer() || t.shape.size() > 1 || t.num_elements() > kMaxElements) {
    return std::nullopt;
  }
  std::vector<PrimExpr> out;
  for (int64_t i = 0; i < t.num_elements(); ++i)
    out.push_back(relax::const_dim(t.element_as_int(i)));
  return out;
}

Value elements_value(NodeContext& ctx, std::vector<PrimExpr> elements, DataType dtype,
                     bool scalar) {
  for (PrimExpr& e : elements) e = simplify_dims(e);
  std::vector<int64_t> shape;
  if (!scalar) shape.push_back(static_cast<int64_t>(elements.size()));
  if (std::optional<std::vector<int64_t>> ints = const_ints(elements)) {
    Value v = ctx.constant_value(int_tensor(dtype, shape, *ints));
    v.shape_elements = std::move(elements);
    return v;
  }
  // The graph may use the tensor itself (a Shape that is an output, a shape fed to
  // arithmetic on tensors): constant runs stay constants, symbolic elements are computed.
  std::vector<relax::Expr> parts;
  std::vector<int64_t> run;
  auto flush = [&] {
    if (run.empty()) return;
    int64_t n = static_cast<int64_t>(run.size());
    parts.push_back(ctx.constant_value(int_tensor(DataType::Int(64), {n}, run)).expr);
    run.clear();
  };
  for (const PrimExpr& e : elements) {
    if (const int64_t* c = tir::as_const_int(e)) {
      run.push_back(*c);
      continue;
    }
    flush();
    relax::Expr t = prim_expr_tensor(ctx, e);
    if (t->struct_info.as<relax::TensorStructInfoNode>()->dtype != DataType::Int(64)) {
      t = ctx.emit_op("relax.astype", {t},
                      Attrs({{"dtype", AttrValue::data_type(DataType::Int(64))}}));
    }
    parts.push_back(
        ctx.emit_op("relax.reshape", {t, relax::make_shape_expr({relax::const_dim(1)})}));
  }
  flush();
  relax::Expr tensor = parts[0];
  if (parts.size() > 1) {
    tensor = ctx.emit_op("relax.concat", {ctx.builder().tuple(parts)},
                         Attrs({{"axis", AttrValue::integer(0)}}));
  }
  if (scalar) tensor = ctx.emit_op("relax.reshape", {tensor, relax::make_shape_expr({})});
  if (dtype != DataType::Int(64)) {
    tensor = ctx.emit_op("relax.astype", {tensor}, Attrs({{"dtype", AttrValue::data_type(dtype)}}));
  }
  Value v;
  v.expr = tensor;
  v.shape_elements = std::move(elements);
  return v;
}

std::optional<std::vector<Value>> fold_on_shapes(NodeContext& ctx) {
  const std::string& op = ctx.node().op_type();
  if (!ctx.node().domain().empty() && ctx.node().domain() != "ai.onnx") return std::nullopt;
  if (ctx.num_inputs() == 0) return std::nullopt;
  // Shape and Size need only the input's StructInfo, not its elements.
  if (op == "Shape" || op == "Size") {
    if (!ctx.has_input(0) || tensor_info(ctx.input(0)) == nullptr) return std::nullopt;
    return op == "Shape" ? fold_shape(ctx) : fold_size(ctx);
  }
  static const char* const kFolded[] = {
      "Gather", "Concat",  "Unsqueeze", "Squeeze", "Slice", "Cast", "Reshape", "ConstantOfShape",
      "Add",    "Sub",     "Mul",       "Div",     "Neg",   "Max",  "Min",     "Equal",
      "Less",   "Greater", "Where",     "Mod",     "Sum"};
  bool folded = false;
  for (const char* name : kFolded) folded = folded || op == name;
  if (!folded) return std::nullopt;
  std::optional<std::vector<std::vector<PrimExpr>>> in = all_known(ctx);
  if (!in) return std::nullopt;
  // Arithmetic on floats is the elementwise family's, even on small constants.
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (tensor_info(ctx.input(i)) == nullptr) return std::nullopt;
  }
  if (op == "Gather") {
    if (ctx.attr_int("axis", 0) != 0) return std::nullopt;
    return fold_gather(ctx, *in);
  }
  if (op == "Concat") return fold_concat(ctx, *in);
  if (op == "Unsqueeze" || op == "Squeeze") return fold_squeeze(ctx, *in, op == "Unsqueeze");
  if (op == "Slice") return fold_slice(ctx, *in);
  if (op == "Cast") return fold_cast(ctx, *in);
  if (op == "Reshape") return fold_reshape(ctx, *in);
  if (op == "ConstantOfShape") return fold_constant_of_shape(ctx, *in);
  return fold_elementwise(ctx, *in, op);
}

relax::Expr emit_reshape(NodeContext& ctx, const relax::Expr& x, std::vector<PrimExpr> dims) {
  for (PrimExpr& d : dims) d = simplify_dims(d);
  return ctx.emit_op("relax.reshape", {x, relax::make_shape_expr(std::move(dims))});
}

size_t run_time_length(const NodeContext& ctx, const relax::Expr& tensor, const std::string& what) {
  const auto* t = tensor->struct_info.as<relax::TensorStructInfoNode>();
  if (t == nullptr || t->ndim != 1 || !t->dtype.is_integer() || t->dtype.is_bool()) {
    ctx.invalid(what + " must be a 1-D integer tensor");
  }
  const std::vector<PrimExpr>* dims = t->shape_values();
  const int64_t* length = dims != nullptr ? tir::as_const_int((*dims)[0]) : nullptr;
  if (length == nullptr) {
    ctx.unsupported(what +
                    " is known only at run time and so is its length, which gives the "
                    "output's rank; relaxc needs the rank when the model is imported");
  }
  return static_cast<size_t>(*length);
}

std::vector<PrimExpr> run_time_dims(NodeContext& ctx, const relax::Expr& tensor,
                                    const std::string& what,
                                    const std::vector<PrimExpr>& expected) {
  size_t length = run_time_length(ctx, tensor, what);
  std::string base = ctx.node().output_size() > 0 ? ctx.node().output(0) : "dim";
  std::vector<PrimExpr> out;
  for (size_t k = 0; k < length; ++k) {
    bool given = k < expected.size() && expected[k].defined();
    out.push_back(given ? expected[k] : PrimExpr(ctx.fresh_dim(base + "_" + std::to_string(k))));
  }
  relax::Expr shape = ctx.emit_op("relax.tensor_to_shape", {tensor});
  ctx.builder().emit_match_cast(shape, relax::shape_sinfo(out), "shape",
                                relax::VarKind::DataflowVar, ctx.span());
  return out;
}

}  // namespace relaxc::onnx_import
