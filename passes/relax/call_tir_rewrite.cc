// call-tir-rewrite: destination-passing calls with explicit output allocation.
//
// Algorithm: an ExprMutator finds each binding whose value is R.call_tir or
// R.call_dps_packed. For every output (out_sinfo: tensors of known shape and dtype) it
// emits R.memory.alloc_storage of the output's bytes (the product of its dims times the
// dtype's bytes, an int64 expression simplified by arith) and R.memory.alloc_tensor in
// that storage; then the call itself: the PrimFunc called directly with the inputs,
// the outputs and, when given, the tir_vars shape; or R.call_packed of the extern
// function with the inputs then the outputs. A single output is bound to the
// binding's own variable; several are bound to fresh variables and the binding's
// variable becomes the tuple of them. Every new binding carries the original binding's
// span, so later errors still point at the source line.
//
// The allocations are impure: the pipeline runs to-non-dataflow and
// remove-purity-checking first; a call found in a dataflow block is a UserError.
#include <string>
#include <vector>

#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "ir/relax/ops/op_common.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

bool is_dps_call(const Expr& value) {
  const auto* call = value.as<CallNode>();
  return call != nullptr &&
         (call->op.same_as(ops::call_tir()) || call->op.same_as(ops::call_dps_packed()));
}

class CallTirRewriter : public ExprMutator {
 public:
  using ExprMutator::ExprMutator;

 private:
  void visit_var_binding(const VarBindingNode* binding, const Binding& self) override {
    if (!is_dps_call(binding->value)) {
      ExprMutator::visit_var_binding(binding, self);
      return;
    }
    const Var& var = binding->var;
    Expr result = rewrite(visit_expr(binding->value), var, binding->span, /*into_var=*/true);
    if (!result.same_as(var)) builder_.emit_binding(make_var_binding(var, result, binding->span));
  }

  void visit_match_cast(const MatchCastNode* binding, const Binding& self) override {
    if (!is_dps_call(binding->value)) {
      ExprMutator::visit_match_cast(binding, self);
      return;
    }
    Expr result =
        rewrite(visit_expr(binding->value), binding->var, binding->span, /*into_var=*/false);
    builder_.emit_binding(
        make_match_cast(binding->var, result, binding->struct_info, binding->span));
  }

  // Emits the allocations and the call; returns the output (`var` itself when a single
  // output was bound to it, into_var) or the tuple of the outputs.
  Expr rewrite(const Expr& value, const Var& var, Span span, bool into_var) {
    const auto* call = value.as<CallNode>();
    const auto* op = call->op.as<OpNode>();
    const std::string display = "R." + op_script_name(op->name);
    if (builder_.in_dataflow_block()) {
      user_error(span) << display << " (binding '" << var->name
                       << "'): call-tir-rewrite needs plain blocks; run to-non-dataflow first";
    }
    std::vector<Expr> outputs;
    size_t count = call->sinfo_args.size();
    for (size_t i = 0; i < count; ++i) {
      std::string name = count == 1 ? var->name : var->name + "_" + std::to_string(i);
      const Var* target = count == 1 && into_var ? &var : nullptr;
      outputs.push_back(allocate(call->sinfo_args[i], name, target, span));
    }
    std::vector<Expr> args;
    Expr callee = call->args[0];
    bool packed = call->op.same_as(ops::call_dps_packed());
    if (packed) args.push_back(callee);
    for (Expr& input : tuple_fields(call->args[1], span)) args.push_back(std::move(input));
    args.insert(args.end(), outputs.begin(), outputs.end());
    if (!packed && call->args.size() > 2) args.push_back(call->args[2]);
    Expr dps = packed ? builder_.call_op("relax.call_packed", std::move(args), {}, {}, span)
                      : builder_.call(callee, std::move(args), {}, {}, span);
    builder_.emit(dps, "_", VarKind::Var, {}, span);
    if (count == 1) return outputs[0];
    return builder_.tuple(std::move(outputs), span);
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

  // R.memory.alloc_storage of the output's bytes, then R.memory.alloc_tensor in it,
  // bound to `target` if given (else to a fresh variable named `name`).
  Expr allocate(const StructInfo& sinfo, const std::string& name, const Var* target, Span span) {
    const auto* tensor = sinfo.as<TensorStructInfoNode>();
    const std::vector<PrimExpr>* dims = tensor != nullptr ? known_dims(*tensor) : nullptr;
    RELAXC_ICHECK(dims != nullptr && !tensor->dtype.is_void())
        << "call_tir output without known shape and dtype (its inference checks this)";
    arith::Analyzer& analyzer = builder_.analyzer();
    PrimExpr bytes = analyzer.simplify(
        tir::mul(dims_product(*dims, analyzer), const_dim(tensor->dtype.bytes())));
    Expr zero = make_prim_value(const_dim(0), span);
    Expr storage = builder_.emit(
        builder_.call_op("relax.memory.alloc_storage",
                         {make_shape_expr({bytes}, span), zero, make_string_imm("global", span),
                          make_data_type_imm(DataType::UInt(8), span)},
                         {}, {}, span),
        "storage", VarKind::Var, {}, span);
    Expr alloc = builder_.call_op(
        "relax.memory.alloc_tensor",
        {storage, zero, make_shape_expr(*dims, span), make_data_type_imm(tensor->dtype, span)}, {},
        {}, span);
    if (target != nullptr) {
      builder_.emit_binding(make_var_binding(*target, alloc, span));
      return *target;
    }
    return builder_.emit(alloc, name, VarKind::Var, {}, span);
  }
};

}  // namespace

IRModule call_tir_rewrite(const IRModule& module) {
  CallTirRewriter rewriter(module);
  return map_relax_functions(module, [&](const Function& f) { return rewriter.visit_expr(f); });
}

}  // namespace relaxc::relax
