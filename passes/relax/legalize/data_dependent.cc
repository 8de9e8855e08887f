// Legalizations of the operators whose result shape depends on the data (nonzero,
// unique): calls of the VM's builtins vm.builtin.nonzero and vm.builtin.unique
// (runtime/vm/builtins_data_dependent.cc), which read the input back to the host,
// compute the result there and upload it. R.call_pure_packed keeps the call pure, so
// it stays in its dataflow block; the result's StructInfo is the operator's (known
// rank, unknown dims), which a later R.match_cast binds to shape variables.
#include "passes/relax/legalize/legalize.h"
#include "runtime/vm/builtin_abi.h"

namespace relaxc::relax {

namespace {

namespace abi = runtime::vm::builtin;

Expr call_builtin(LegalizeContext& ctx, const char* name, std::vector<Expr> args) {
  const CallNode* call = ctx.call();
  args.insert(args.begin(), make_extern_func(name, {}, call->span));
  return ctx.builder().call_op("relax.call_pure_packed", std::move(args), {call->struct_info}, {},
                               call->span);
}

Expr int_arg(int64_t value, Span span) {
  return make_prim_value(tir::int_imm(DataType::Int(64), value), span);
}

}  // namespace

void add_data_dependent_legalizations(LegalizationTable& table) {
  table["relax.nonzero"] = [](LegalizeContext& ctx) -> Expr {
    return call_builtin(ctx, abi::kNonzero, {ctx.call()->args[0]});
  };
  table["relax.unique"] = [](LegalizeContext& ctx) -> Expr {
    const CallNode* call = ctx.call();
    std::vector<Expr> args = {call->args[0]};
    for (const char* name : {"sorted", "return_index", "return_inverse", "return_counts"}) {
      args.push_back(int_arg(call->attrs.find(name)->b ? 1 : 0, call->span));
    }
    const AttrValue* axis = call->attrs.find("axis");
    if (axis != nullptr && !axis->is_none()) {
      int64_t ndim = call->args[0]->struct_info.as<TensorStructInfoNode>()->ndim;
      if (axis->i < 0 && ndim < 0) {
        user_error(ctx.span()) << ctx.describe() << ": cannot legalize: axis " << axis->i
                               << " counts from the end, and the rank of argument 'x' is "
                                  "not known";
      }
      args.push_back(int_arg(axis->i < 0 ? axis->i + ndim : axis->i, call->span));
    }
    return call_builtin(ctx, abi::kUnique, std::move(args));
  };
}

}  // namespace relaxc::relax
