// vm-builtin-lower: the operators the VM runs as builtins become packed calls.
//
// Algorithm: an ExprMutator rewrites each operator call, after its arguments, into
// R.call_packed("vm.builtin.<name>", args..., sinfo_args=[the call's StructInfo]) by
// the table of vm_contract.md: memory allocation, reshape (a view), flatten (a reshape
// to the product of the dims when they are known), shape_of, tensor_to_shape (a read of
// the tensor back to the host), null_value, print (its format first), and closures
// (R.make_closure and R.invoke_closure with the tuple of arguments spread).
// R.call_pure_packed becomes R.call_packed; R.call_packed and the kills (which
// vm_codegen turns into register clears) stay. Any other operator computes on tensors
// and has no VM builtin: a UserError at its binding (legalize-ops turns those it knows
// into R.call_tir before this pass).
#include <string>
#include <vector>

#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "ir/relax/ops/op_common.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/transforms.h"
#include "runtime/vm/builtin_abi.h"

namespace relaxc::relax {

namespace {

namespace abi = runtime::vm::builtin;

class VmBuiltinLowerer : public ExprMutator {
 public:
  using ExprMutator::ExprMutator;

 private:
  Expr visit_node(const CallNode* node) override {
    Expr rebuilt = ExprMutator::visit_node(node);
    const auto* call = rebuilt.as<CallNode>();
    if (!call->op.is<OpNode>()) return rebuilt;
    const Expr& op = call->op;
    const std::vector<Expr>& args = call->args;
    const StructInfo& sinfo = call->struct_info;
    if (op.same_as(ops::call_packed()) || op.same_as(ops::kill_storage()) ||
        op.same_as(ops::kill_tensor()) || op.same_as(ops::kill_object())) {
      return rebuilt;
    }
    if (op.same_as(ops::call_pure_packed())) {
      return builder_.call_op("relax.call_packed", args, call->sinfo_args, call->attrs, call->span);
    }
    if (op.same_as(ops::alloc_storage())) {
      return builtin(abi::kAllocStorage, args, object_sinfo(), call->span);
    }
    if (op.same_as(ops::alloc_tensor())) {
      return builtin(abi::kAllocTensor, args, sinfo, call->span);
    }
    if (op.same_as(ops::reshape())) return builtin(abi::kReshape, args, sinfo, call->span);
    if (op.same_as(ops::flatten())) return flatten(call);
    if (op.same_as(ops::shape_of())) return builtin(abi::kShapeOf, args, sinfo, call->span);
    if (op.same_as(ops::tensor_to_shape())) {
      return builtin(abi::kTensorToShape, args, sinfo, call->span);
    }
    if (op.same_as(ops::null_value())) {
      return builtin(abi::kNullValue, {}, object_sinfo(), call->span);
    }
    if (op.same_as(ops::print())) {
      const AttrValue* format = call->attrs.find("format");
      std::vector<Expr> values = {
          make_string_imm(format != nullptr ? format->s : std::string(), call->span)};
      values.insert(values.end(), args.begin(), args.end());
      return builtin(abi::kPrint, std::move(values), {}, call->span);
    }
    bool make = op.same_as(ops::make_closure());
    if (make || op.same_as(ops::invoke_closure()) || op.same_as(ops::invoke_pure_closure())) {
      std::vector<Expr> spread = {args[0]};
      for (Expr& field : tuple_fields(args[1], call->span)) spread.push_back(std::move(field));
      return builtin(make ? abi::kMakeClosure : abi::kInvokeClosure, std::move(spread), sinfo,
                     call->span);
    }
    std::string where = binding_note();
    Span span = binding_span(call->span);
    if (op.same_as(ops::call_tir()) || op.same_as(ops::call_dps_packed())) {
      user_error(span) << op_display_name(call) << where
                       << ": run call-tir-rewrite before vm-builtin-lower";
    }
    if (has_legalization(call->op.as<OpNode>()->name)) {
      user_error(span) << op_display_name(call) << where
                       << ": run legalize-ops before vm-builtin-lower";
    }
    user_error(span) << op_display_name(call) << where
                     << ": no legalization for this operator yet; write it as R.call_tir of a "
                        "TensorIR function";
  }

  // R.flatten of a tensor whose dims are known is a reshape to their product.
  Expr flatten(const CallNode* call) {
    const auto* x = call->args[0]->struct_info.as<TensorStructInfoNode>();
    const std::vector<PrimExpr>* dims = x != nullptr ? known_dims(*x) : nullptr;
    if (dims == nullptr) {
      return builtin(abi::kFlatten, call->args, call->struct_info, call->span);
    }
    Expr shape = make_shape_expr({dims_product(*dims, builder_.analyzer())}, call->span);
    return builtin(abi::kReshape, {call->args[0], shape}, call->struct_info, call->span);
  }

  // R.call_packed(`name`, args..., sinfo_args=[sinfo]) (no sinfo_args if sinfo is null).
  Expr builtin(const std::string& name, std::vector<Expr> args, const StructInfo& sinfo,
               Span span) {
    args.insert(args.begin(), make_extern_func(name, {}, span));
    std::vector<StructInfo> sinfo_args;
    if (sinfo.defined()) sinfo_args.push_back(sinfo);
    return builder_.call_op("relax.call_packed", std::move(args), std::move(sinfo_args), {}, span);
  }

  // The fields of a tuple argument: its elements if it is a Tuple, else items of it.
  std::vector<Expr> tuple_fields(const Expr& tuple, Span span) {
    if (const auto* node = tuple.as<TupleNode>()) return node->fields;
    std::vector<Expr> fields;
    size_t n = tuple->struct_info.as<TupleStructInfoNode>()->fields.size();
    for (size_t i = 0; i < n; ++i) {
      fields.push_back(
          builder_.emit(builder_.tuple_get_item(tuple, static_cast<int>(i), span), "lv"));
    }
    return fields;
  }
};

}  // namespace

IRModule vm_builtin_lower(const IRModule& module) {
  VmBuiltinLowerer lowerer(module);
  return map_relax_functions(module, [&](const Function& f) { return lowerer.visit_expr(f); });
}

}  // namespace relaxc::relax
