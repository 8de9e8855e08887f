// unify_thread_bindings: a thread-bound loop nested under a loop bound to the same thread
// axis becomes the enclosing loop's index.
//
// Algorithm: one top-down walk keeps, per thread tag, the innermost enclosing loop bound
// to it. A ThreadBinding loop whose tag is already bound is dropped: its body is kept with
// the loop var replaced by the hardware index the outer loop stands for (outer var - outer
// min + inner min), block iter values included since substitution reaches them. Equal
// extents need nothing more; a smaller constant extent keeps only the threads below it
// (`if outer index < inner extent`); a larger or unknown extent would lose iterations and
// is refused. The walk then continues into the substituted body, so chains of nested
// bindings unify too.
#include <string>
#include <unordered_map>

#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

// An extent as a message shows it: constants bare, whatever their width.
std::string describe(const PrimExpr& extent) {
  const int64_t* value = as_const_int(extent);
  return value != nullptr ? std::to_string(*value) : text::print_node(extent);
}

// `e` as a `dtype` integer (thread loops written with int32 and int64 extents mix).
PrimExpr as_dtype(const PrimExpr& e, DataType dtype) {
  return e->dtype == dtype ? e : cast(dtype, e);
}

class ThreadBindingUnifier final : public Mutator {
 private:
  Stmt mutate_node(const ForNode* node) override {
    if (node->kind != ForKind::ThreadBinding) return Mutator::mutate_node(node);
    auto enclosing = bound_axes_.find(node->thread_tag);
    if (enclosing != bound_axes_.end()) return merge_into(enclosing->second, node);
    bound_axes_.emplace(node->thread_tag, node);
    Stmt result = Mutator::mutate_node(node);
    bound_axes_.erase(node->thread_tag);
    return result;
  }

  Stmt merge_into(const ForNode* outer, const ForNode* inner) {
    DataType index_type = outer->loop_var->dtype;
    PrimExpr hardware_index = is_const_int(outer->min, 0)
                                  ? PrimExpr(outer->loop_var)
                                  : sub(outer->loop_var, as_dtype(outer->min, index_type));
    PrimExpr inner_extent = as_dtype(inner->extent, index_type);
    PrimExpr outer_extent = as_dtype(outer->extent, index_type);

    arith::Analyzer analyzer;
    PrimExpr guard;
    if (!analyzer.can_prove_equal(inner_extent, outer_extent)) {
      if (as_const_int(inner_extent) == nullptr ||
          !analyzer.can_prove(lt(inner_extent, outer_extent))) {
        user_error(inner->span)
            << "loop '" << inner->loop_var->name << "' is bound to " << inner->thread_tag
            << " with extent " << describe(inner->extent) << " inside loop '"
            << outer->loop_var->name << "', bound to the same axis with extent "
            << describe(outer->extent)
            << "; a loop nested under a loop bound to the same thread axis must have a constant "
               "extent no larger than the enclosing one's";
      }
      guard = lt(hardware_index, inner_extent);
    }

    PrimExpr replacement = as_dtype(hardware_index, inner->loop_var->dtype);
    if (!is_const_int(inner->min, 0)) {
      replacement = add(replacement, as_dtype(inner->min, inner->loop_var->dtype));
    }
    VarMap map{{inner->loop_var, replacement}};
    Stmt body = mutate(substitute(inner->body, map));
    return guard.defined() ? if_then_else(guard, body, Stmt(), inner->span) : body;
  }

  std::unordered_map<std::string, const ForNode*> bound_axes_;
};

}  // namespace

PrimFunc unify_thread_bindings(const PrimFunc& func) {
  if (!func.defined() || !func->body.defined()) return func;
  Stmt body = ThreadBindingUnifier().mutate(func->body);
  if (body.same_as(func->body)) return func;
  PrimFuncNode* result = copy_node(*func);
  result->body = body;
  return PrimFunc(result);
}

}  // namespace relaxc::tir
