// Constructors of StructInfo and of Relax leaf expressions.
#include "ir/relax/expr.h"

#include <mutex>
#include <unordered_map>

#include "ir/relax/op_registry.h"

namespace relaxc::relax {

const std::vector<PrimExpr>* TensorStructInfoNode::shape_values() const {
  if (!shape.defined()) return nullptr;
  if (const auto* s = shape.as<ShapeExprNode>()) return &s->values;
  if (const auto* sh = shape->struct_info.as<ShapeStructInfoNode>()) {
    return sh->values ? &*sh->values : nullptr;
  }
  return nullptr;
}

namespace {

template <typename T>
StructInfo finish_sinfo(T* node, Span span) {
  node->span = span;
  return StructInfo(node);
}

template <typename T>
T* new_expr(StructInfo sinfo, Span span) {
  T* node = make_node<T>();
  node->struct_info = std::move(sinfo);
  node->span = span;
  return node;
}

}  // namespace

StructInfo object_sinfo(Span span) { return finish_sinfo(make_node<ObjectStructInfoNode>(), span); }

StructInfo prim_sinfo(DataType dtype, PrimExpr value, Span span) {
  auto* n = make_node<PrimStructInfoNode>();
  n->dtype = dtype;
  n->value = std::move(value);
  return finish_sinfo(n, span);
}

StructInfo shape_sinfo(std::vector<PrimExpr> values, Span span) {
  auto* n = make_node<ShapeStructInfoNode>();
  n->ndim = static_cast<int>(values.size());
  n->values = std::move(values);
  return finish_sinfo(n, span);
}

StructInfo shape_sinfo_ndim(int ndim, Span span) {
  auto* n = make_node<ShapeStructInfoNode>();
  n->ndim = ndim;
  return finish_sinfo(n, span);
}

StructInfo tensor_sinfo(std::vector<PrimExpr> values, DataType dtype, Span span) {
  return tensor_sinfo_shape(make_shape_expr(std::move(values), span), dtype, span);
}

StructInfo tensor_sinfo_shape(Expr shape, DataType dtype, Span span) {
  auto* n = make_node<TensorStructInfoNode>();
  const auto* shape_si = shape->struct_info.as<ShapeStructInfoNode>();
  RELAXC_ICHECK(shape_si != nullptr) << "tensor shape must be a shape expression";
  n->ndim = shape_si->ndim;
  n->shape = std::move(shape);
  n->dtype = dtype;
  return finish_sinfo(n, span);
}

StructInfo tensor_sinfo_ndim(int ndim, DataType dtype, Span span) {
  auto* n = make_node<TensorStructInfoNode>();
  n->ndim = ndim;
  n->dtype = dtype;
  return finish_sinfo(n, span);
}

StructInfo tuple_sinfo(std::vector<StructInfo> fields, Span span) {
  auto* n = make_node<TupleStructInfoNode>();
  n->fields = std::move(fields);
  return finish_sinfo(n, span);
}

StructInfo func_sinfo(std::vector<StructInfo> params, StructInfo ret, bool purity, Span span) {
  auto* n = make_node<FuncStructInfoNode>();
  n->params = std::move(params);
  n->ret = std::move(ret);
  n->purity = purity;
  return finish_sinfo(n, span);
}

StructInfo opaque_func_sinfo(StructInfo ret, bool purity, std::string derive_func, Span span) {
  auto* n = make_node<FuncStructInfoNode>();
  n->ret = ret.defined() ? std::move(ret) : object_sinfo();
  n->purity = purity;
  n->derive_func = std::move(derive_func);
  return finish_sinfo(n, span);
}

Var make_var(std::string name, StructInfo struct_info, Span span) {
  auto* n = new_expr<VarNode>(std::move(struct_info), span);
  n->name = std::move(name);
  return Var(n);
}

Var make_dataflow_var(std::string name, StructInfo struct_info, Span span) {
  auto* n = new_expr<DataflowVarNode>(std::move(struct_info), span);
  n->name = std::move(name);
  return Var(n);
}

GlobalVar make_global_var(std::string name, Span span) {
  auto* n = new_expr<GlobalVarNode>(object_sinfo(), span);
  n->name = std::move(name);
  return GlobalVar(n);
}

Expr make_constant(HostTensor data, Span span) {
  std::vector<PrimExpr> dims;
  for (int64_t d : data.shape) dims.push_back(tir::int_imm(DataType::Int(64), d));
  auto* n = new_expr<ConstantNode>(tensor_sinfo(std::move(dims), data.dtype, span), span);
  n->data = std::move(data);
  return Expr(n);
}

Expr make_prim_value(PrimExpr value, Span span) {
  auto* n = new_expr<PrimValueNode>(prim_sinfo(value->dtype, value, span), span);
  n->value = std::move(value);
  return Expr(n);
}

Expr make_string_imm(std::string value, Span span) {
  auto* n = new_expr<StringImmNode>(object_sinfo(span), span);
  n->value = std::move(value);
  return Expr(n);
}

Expr make_data_type_imm(DataType value, Span span) {
  auto* n = new_expr<DataTypeImmNode>(object_sinfo(span), span);
  n->value = value;
  return Expr(n);
}

Expr make_shape_expr(std::vector<PrimExpr> values, Span span) {
  auto* n = new_expr<ShapeExprNode>(shape_sinfo(values, span), span);
  n->values = std::move(values);
  return Expr(n);
}

Expr make_extern_func(std::string global_symbol, StructInfo struct_info, Span span) {
  if (!struct_info.defined()) struct_info = opaque_func_sinfo(object_sinfo(), /*purity=*/false);
  auto* n = new_expr<ExternFuncNode>(std::move(struct_info), span);
  n->global_symbol = std::move(global_symbol);
  return Expr(n);
}

Op get_op(const std::string& name) {
  static std::mutex mu;
  static std::unordered_map<std::string, Op> interned;
  std::lock_guard<std::mutex> lock(mu);
  auto it = interned.find(name);
  if (it != interned.end()) return it->second;
  RELAXC_ICHECK(find_op(name) != nullptr) << "operator '" << name << "' is not registered";
  auto* n = new_expr<OpNode>(object_sinfo(), {});
  n->name = name;
  Op op(n);
  interned.emplace(name, op);
  return op;
}

BindingBlock make_binding_block(std::vector<Binding> bindings, bool dataflow, Span span) {
  BindingBlockNode* n = dataflow ? make_node<DataflowBlockNode>() : make_node<BindingBlockNode>();
  n->bindings = std::move(bindings);
  n->span = span;
  return BindingBlock(n);
}

Binding make_var_binding(Var var, Expr value, Span span) {
  auto* n = make_node<VarBindingNode>();
  n->var = std::move(var);
  n->value = std::move(value);
  n->span = span;
  return Binding(n);
}

Binding make_match_cast(Var var, Expr value, StructInfo struct_info, Span span) {
  auto* n = make_node<MatchCastNode>();
  n->var = std::move(var);
  n->value = std::move(value);
  n->struct_info = std::move(struct_info);
  n->span = span;
  return Binding(n);
}

}  // namespace relaxc::relax
