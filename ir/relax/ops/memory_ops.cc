// Memory and closure operators of the VM lowering: explicit storage and tensor
// allocation and their kills (R.memory.*, and R.vm.kill_object for any other value),
// closure creation and invocation.
//
// They appear only after lambda-lift and call-tir-rewrite (vm_contract.md); a user may
// also write them. The allocation operators are impure (they create fresh mutable
// storage); R.make_closure and R.invoke_pure_closure are pure.
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

[[noreturn]] void arg_kind_error(const CallNode* call, size_t index, const char* expected) {
  user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                         << "' must be " << expected << ", got "
                         << text::print_node(call->args[index]->struct_info);
}

// A shape argument of `ndim` dimensions (-1: any).
const ShapeStructInfoNode& shape_arg(const CallNode* call, size_t index, int ndim,
                                     const char* expected) {
  const auto* shape = call->args[index]->struct_info.as<ShapeStructInfoNode>();
  if (shape == nullptr || (ndim >= 0 && shape->ndim >= 0 && shape->ndim != ndim)) {
    arg_kind_error(call, index, expected);
  }
  return *shape;
}

void require_int_prim(const CallNode* call, size_t index) {
  const auto* prim = call->args[index]->struct_info.as<PrimStructInfoNode>();
  if (prim == nullptr || !prim->dtype.is_integer()) {
    arg_kind_error(call, index, "an integer (R.prim_value(0))");
  }
}

void require_string(const CallNode* call, size_t index) {
  if (!call->args[index].is<StringImmNode>()) arg_kind_error(call, index, "a string (R.str)");
}

DataType dtype_arg(const CallNode* call, size_t index) {
  const auto* dtype = call->args[index].as<DataTypeImmNode>();
  if (dtype == nullptr) arg_kind_error(call, index, "a data type (R.dtype)");
  return dtype->value;
}

const TupleStructInfoNode& tuple_arg(const CallNode* call, size_t index) {
  const auto* tuple = call->args[index]->struct_info.as<TupleStructInfoNode>();
  if (tuple == nullptr) arg_kind_error(call, index, "a tuple");
  return *tuple;
}

StructInfo infer_alloc_storage(const CallNode* call, const BlockBuilder&) {
  shape_arg(call, 0, 1, "a shape of one dimension, the size in bytes (R.shape([bytes]))");
  require_int_prim(call, 1);
  require_string(call, 2);
  dtype_arg(call, 3);
  return object_sinfo();
}

StructInfo infer_alloc_tensor(const CallNode* call, const BlockBuilder&) {
  const StructInfo& storage = call->args[0]->struct_info;
  if (!storage.is<ObjectStructInfoNode>()) {
    arg_kind_error(call, 0, "a storage (the result of R.memory.alloc_storage)");
  }
  require_int_prim(call, 1);
  const ShapeStructInfoNode& shape = shape_arg(call, 2, -1, "a shape (R.shape([...]))");
  DataType dtype = dtype_arg(call, 3);
  const Expr& shape_expr = call->args[2];
  if (shape_expr.is<ShapeExprNode>() || shape.values) return tensor_sinfo_shape(shape_expr, dtype);
  return tensor_sinfo_ndim(shape.ndim, dtype);
}

StructInfo infer_kill_storage(const CallNode* call, const BlockBuilder&) {
  if (!call->args[0]->struct_info.is<ObjectStructInfoNode>()) {
    arg_kind_error(call, 0, "a storage (the result of R.memory.alloc_storage)");
  }
  return tuple_sinfo({});
}

StructInfo infer_kill_tensor(const CallNode* call, const BlockBuilder&) {
  tensor_arg(call, 0);
  return tuple_sinfo({});
}

// Any value: a tuple that holds tensors keeps them (and their storage) alive.
StructInfo infer_kill_object(const CallNode*, const BlockBuilder&) { return tuple_sinfo({}); }

// The closure's StructInfo: the function's, without the leading parameters that the
// captured values fill.
StructInfo infer_make_closure(const CallNode* call, const BlockBuilder&) {
  const auto* gv = call->args[0].as<GlobalVarNode>();
  const auto* func = call->args[0]->struct_info.as<FuncStructInfoNode>();
  if (gv == nullptr || func == nullptr || !func->params) {
    arg_kind_error(call, 0, "a Relax function of the module (cls.name)");
  }
  const TupleStructInfoNode& captures = tuple_arg(call, 1);
  const std::vector<StructInfo>& params = *func->params;
  if (captures.fields.size() > params.size()) {
    user_error(call->span) << op_display_name(call) << ": '" << gv->name << "' takes "
                           << params.size() << " parameter(s), but " << captures.fields.size()
                           << " value(s) are captured";
  }
  std::vector<StructInfo> rest(params.begin() + static_cast<long>(captures.fields.size()),
                               params.end());
  return func_sinfo(std::move(rest), func->ret, func->purity);
}

StructInfo infer_invoke_closure(const CallNode* call, const BlockBuilder&) {
  if (!call->args[0]->struct_info.is<FuncStructInfoNode>() &&
      !call->args[0]->struct_info.is<ObjectStructInfoNode>()) {
    arg_kind_error(call, 0, "a closure");
  }
  tuple_arg(call, 1);
  if (call->sinfo_args.empty()) {
    user_error(call->span) << op_display_name(call)
                           << ": sinfo_args (the StructInfo of the result) is required";
  }
  if (call->sinfo_args.size() == 1) return call->sinfo_args[0];
  return tuple_sinfo(call->sinfo_args);
}

OpInfo memory_op(const std::string& name, std::vector<std::string> arg_names, bool pure,
                 InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax." + name;
  info.num_required_args = static_cast<int>(arg_names.size());
  info.arg_names = std::move(arg_names);
  info.pure = pure;
  info.infer = std::move(infer);
  return info;
}

}  // namespace

void register_memory_ops() {
  register_op(memory_op("memory.alloc_storage",
                        {"size", "virtual_device_index", "storage_scope", "dtype"}, false,
                        infer_alloc_storage));
  register_op(memory_op("memory.alloc_tensor", {"storage", "offset", "shape", "dtype"}, false,
                        infer_alloc_tensor));
  register_op(memory_op("memory.kill_storage", {"storage"}, false, infer_kill_storage));
  register_op(memory_op("memory.kill_tensor", {"tensor"}, false, infer_kill_tensor));
  register_op(memory_op("vm.kill_object", {"obj"}, false, infer_kill_object));
  register_op(memory_op("make_closure", {"func", "args"}, true, infer_make_closure));
  for (bool pure : {false, true}) {
    OpInfo invoke = memory_op(pure ? "invoke_pure_closure" : "invoke_closure", {"closure", "args"},
                              pure, infer_invoke_closure);
    invoke.sinfo_args_keyword = "sinfo_args";
    register_op(std::move(invoke));
  }
}

}  // namespace relaxc::relax
