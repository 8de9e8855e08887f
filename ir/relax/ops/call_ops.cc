// Call operators (call_tir, call_dps_packed, call_packed, call_pure_packed) and the
// builtins shape_of, tensor_to_shape, null_value and print.
//
// call_tir and call_dps_packed keep one sinfo_arg per output (`out_sinfo=[A, B]` is
// two sinfo_args); their result is that TensorStructInfo, or a Tuple of them.
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

// A packed function named by a string becomes the ExternFunc it denotes.
void canonicalize_packed_callee(CallNode* call, const BlockBuilder&) {
  if (call->args.empty()) return;
  if (const auto* name = call->args[0].as<StringImmNode>()) {
    call->args[0] = make_extern_func(name->value, {}, call->args[0]->span);
  }
}

void require_packed_callee(const CallNode* call) {
  const Expr& func = call->args[0];
  if (func.is<ExternFuncNode>() || func->struct_info.is<FuncStructInfoNode>()) return;
  user_error(call->span) << op_display_name(call)
                         << ": argument 'func' must be a packed function (a name or "
                            "R.ExternFunc), got "
                         << text::print_node(func->struct_info);
}

void require_tuple_arg(const CallNode* call, size_t index) {
  const StructInfo& sinfo = call->args[index]->struct_info;
  if (!sinfo.is<TupleStructInfoNode>()) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a tuple, got " << text::print_node(sinfo);
  }
}

// The result of a destination-passing call: its out_sinfo, each a tensor of known
// shape and dtype (the caller allocates the outputs from them).
StructInfo destination_outputs(const CallNode* call) {
  if (call->sinfo_args.empty()) {
    user_error(call->span) << op_display_name(call) << ": out_sinfo is required";
  }
  for (size_t i = 0; i < call->sinfo_args.size(); ++i) {
    const auto* t = call->sinfo_args[i].as<TensorStructInfoNode>();
    if (t == nullptr || known_dims(*t) == nullptr || t->dtype.is_void()) {
      user_error(call->span) << op_display_name(call) << ": out_sinfo " << i
                             << " must be a tensor with known shape and dtype, got "
                             << text::print_node(call->sinfo_args[i]);
    }
  }
  if (call->sinfo_args.size() == 1) return call->sinfo_args[0];
  return tuple_sinfo(call->sinfo_args);
}

// A call_tir target found in the module must be a PrimFunc whose buffers match the
// inputs and outputs and whose scalar parameters match tir_vars.
void check_call_tir_target(const CallNode* call, const BlockBuilder& bb, const std::string& name) {
  if (!bb.module().defined()) return;
  Ref<Object> target = bb.module()->lookup(name);
  if (!target.defined()) return;
  const auto* prim_func = target.as<tir::PrimFuncNode>();
  if (prim_func == nullptr) {
    user_error(call->span) << op_display_name(call) << ": '" << name
                           << "' is a Relax function; call it directly instead";
  }
  size_t buffers = prim_func->buffer_map.size();
  size_t scalars = prim_func->params.size() - std::min(buffers, prim_func->params.size());
  size_t inputs = call->args[1]->struct_info.as<TupleStructInfoNode>()->fields.size();
  size_t outputs = call->sinfo_args.size();
  int tir_vars = 0;
  if (call->args.size() > 2) tir_vars = call->args[2]->struct_info.as<ShapeStructInfoNode>()->ndim;
  if (buffers != inputs + outputs || (tir_vars >= 0 && scalars != static_cast<size_t>(tir_vars))) {
    user_error(call->span) << op_display_name(call) << ": '" << name << "' takes " << buffers
                           << " buffer(s) and " << scalars << " scalar(s), but the call passes "
                           << inputs << " input(s), " << outputs << " output(s) and "
                           << std::max(tir_vars, 0) << " tir_vars";
  }
}

StructInfo infer_call_tir(const CallNode* call, const BlockBuilder& bb) {
  const auto* func = call->args[0].as<GlobalVarNode>();
  if (func == nullptr) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'func' must be a TensorIR function of the module "
                              "(cls.name)";
  }
  require_tuple_arg(call, 1);
  if (call->args.size() > 2 && !call->args[2]->struct_info.is<ShapeStructInfoNode>()) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'tir_vars' must be a shape (R.shape([...])), got "
                           << text::print_node(call->args[2]->struct_info);
  }
  StructInfo result = destination_outputs(call);
  check_call_tir_target(call, bb, func->name);
  return result;
}

StructInfo infer_call_dps_packed(const CallNode* call, const BlockBuilder&) {
  require_packed_callee(call);
  require_tuple_arg(call, 1);
  return destination_outputs(call);
}

// The result of a packed call is what sinfo_args says: nothing (an Object), one
// StructInfo, or several (a Tuple of them).
StructInfo infer_packed_call(const CallNode* call, const BlockBuilder&) {
  require_packed_callee(call);
  if (call->sinfo_args.empty()) return object_sinfo();
  if (call->sinfo_args.size() == 1) return call->sinfo_args[0];
  return tuple_sinfo(call->sinfo_args);
}

StructInfo infer_shape_of(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  if (const auto* shape = x.shape.as<ShapeExprNode>()) return shape_sinfo(shape->values);
  if (x.shape.defined() && x.shape->struct_info.is<ShapeStructInfoNode>()) {
    return x.shape->struct_info;
  }
  return shape_sinfo_ndim(x.ndim);
}

// R.tensor_to_shape(x): the values of a 1-D integer tensor as a shape, known only at run
// time (the VM reads the tensor back to the host); the tensor's length, when it is a
// constant, is the shape's ndim. R.match_cast binds shape variables to the values.
StructInfo infer_tensor_to_shape(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  if ((x.ndim != 1 && x.ndim != -1) ||
      (!x.dtype.is_void() && (!x.dtype.is_integer() || x.dtype.is_bool()))) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'x' must be a 1-D integer tensor, got "
                           << text::print_node(call->args[0]->struct_info);
  }
  const std::vector<PrimExpr>* dims = known_dims(x);
  const int64_t* length = dims != nullptr ? tir::as_const_int((*dims)[0]) : nullptr;
  return shape_sinfo_ndim(length != nullptr ? static_cast<int>(*length) : -1);
}

StructInfo infer_print(const CallNode* call, const BlockBuilder&) {
  const AttrValue* format = call->attrs.find("format");
  if (format == nullptr || format->kind != AttrValue::Kind::String) {
    user_error(call->span) << op_display_name(call) << ": attribute 'format' must be a string";
  }
  return tuple_sinfo({});
}

OpInfo call_op(const std::string& name, std::vector<std::string> arg_names, int required,
               InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax." + name;
  info.arg_names = std::move(arg_names);
  info.num_required_args = required;
  info.infer = std::move(infer);
  return info;
}

}  // namespace

void register_call_ops() {
  OpInfo call_tir = call_op("call_tir", {"func", "args", "tir_vars"}, 2, infer_call_tir);
  call_tir.sinfo_args_keyword = "out_sinfo";
  register_op(std::move(call_tir));

  OpInfo dps = call_op("call_dps_packed", {"func", "args"}, 2, infer_call_dps_packed);
  dps.sinfo_args_keyword = "out_sinfo";
  dps.canonicalize = canonicalize_packed_callee;
  register_op(std::move(dps));

  for (bool pure : {false, true}) {
    OpInfo packed =
        call_op(pure ? "call_pure_packed" : "call_packed", {"func", "args"}, 1, infer_packed_call);
    packed.variadic = true;
    packed.pure = pure;
    packed.sinfo_args_keyword = "sinfo_args";
    packed.canonicalize = canonicalize_packed_callee;
    register_op(std::move(packed));
  }

  register_op(call_op("shape_of", {"x"}, 1, infer_shape_of));
  register_op(call_op("tensor_to_shape", {"x"}, 1, infer_tensor_to_shape));
  register_op(call_op("null_value", {}, 0,
                      [](const CallNode*, const BlockBuilder&) { return object_sinfo(); }));

  OpInfo print = call_op("print", {"values"}, 0, infer_print);
  print.variadic = true;
  print.pure = false;
  print.attrs = {{"format", AttrValue::string("")}};
  register_op(std::move(print));
}

}  // namespace relaxc::relax
