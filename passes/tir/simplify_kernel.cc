// simplify_kernel: the index arithmetic of a lowered kernel in arith's canonical form.
//
// Algorithm: a top-down walk binds each loop var to its range (thread-bound loops
// included; a loop of one iteration binds its var to its min) in one Analyzer, so that
// bounds known from the loops reach the expressions below; every integer or boolean
// expression is simplified whole, other expressions
// (floating point data) are walked to reach the integer expressions inside them. A
// condition that simplifies to a constant selects its branch. A guard that does not
// depend on a vectorized loop's var (a tail guard of the thread's row) moves outside
// that loop, so that the back ends see a straight vector body.
#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

class KernelSimplifier final : public Mutator {
 private:
  PrimExpr simplify_or_walk(const PrimExprNode* node) {
    PrimExpr e(node);
    if (node->dtype.is_integer() && node->dtype.is_scalar()) return analyzer_.simplify(e);
    return PrimExpr();
  }

#define RELAXC_SIMPLIFY_EXPR(Kind, Type)                              \
  PrimExpr mutate_node(const Type* node) override {                   \
    PrimExpr simplified = simplify_or_walk(node);                     \
    return simplified.defined() ? simplified : mutate_children(node); \
  }
  RELAXC_TIR_EXPR_NODES(RELAXC_SIMPLIFY_EXPR)
#undef RELAXC_SIMPLIFY_EXPR

  // Buffers are kept as they are, so that every access of one keeps sharing it.
  Ref<BufferNode> mutate_node(const BufferNode* node) override { return Ref<BufferNode>(node); }

  Stmt mutate_node(const ForNode* node) override {
    PrimExpr min = mutate(node->min);
    PrimExpr extent = mutate(node->extent);
    analyzer_.bind(node->loop_var, range(min, extent));
    // A loop of one iteration (a blockIdx axis of extent 1, a batch of one) runs at its
    // min: indices that read its var otherwise keep it, and a register array indexed by
    // a var the back end cannot resolve is no longer in registers.
    if (is_const_int(extent, 1)) analyzer_.bind_value(node->loop_var, min);
    Stmt body = mutate(node->body);
    if (const auto* guard = body.as<IfThenElseNode>();
        node->kind == ForKind::Vectorized && guard != nullptr && !guard->else_case.defined() &&
        !uses_var(guard->condition, node->loop_var)) {
      return if_then_else(guard->condition,
                          for_loop(node->loop_var, min, extent, node->kind, guard->then_case,
                                   node->thread_tag, node->annotations, node->span),
                          Stmt(), guard->span);
    }
    if (min.same_as(node->min) && extent.same_as(node->extent) && body.same_as(node->body)) {
      return Stmt(node);
    }
    return for_loop(node->loop_var, min, extent, node->kind, body, node->thread_tag,
                    node->annotations, node->span);
  }


  Stmt mutate_node(const IfThenElseNode* node) override {
    PrimExpr condition = mutate(node->condition);
    if (is_const_int(condition, 1)) return mutate(node->then_case);
    if (is_const_int(condition, 0) && node->else_case.defined()) return mutate(node->else_case);
    return if_then_else(condition, mutate(node->then_case), mutate(node->else_case), node->span);
  }

  arith::Analyzer analyzer_;
};

}  // namespace

PrimFunc simplify_kernel(const PrimFunc& kernel) {
  KernelSimplifier simplifier;
  auto* result = copy_node(*kernel);
  result->body = simplifier.mutate(kernel->body);
  return PrimFunc(result);
}

}  // namespace relaxc::tir
