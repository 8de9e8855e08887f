// legalize_vector_loops: the one place that decides which vectorized loops of a kernel
// become vector code; the back ends then emit every vectorized loop as vector code.
//
// Rule: a vectorized loop stays vectorized when its extent is a constant from 2 to the
// target's max_vector_lanes, its body holds only stores and expressions (no loops,
// conditions, lets, allocations, barriers, or explicit ramps and broadcasts), the only
// intrinsics it calls are the float math ones (exp, isnan, ...), and each store is
// contiguous in the loop variable (its index grows by 1 with it). Any other vectorized
// loop becomes an unrolled loop: the same result in scalar code.
#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"
#include "ir/tir/intrinsics.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

bool is_float_math(const std::string& op) {
  const Intrinsic* intrinsic = find_intrinsic(op);
  return intrinsic != nullptr && intrinsic->arguments == Intrinsic::Arguments::Float &&
         intrinsic->pure;
}

bool becomes_vector_code(const ForNode* loop, const Target& target) {
  const int64_t* extent = as_const_int(loop->extent);
  if (extent == nullptr || *extent < 2 || *extent > target.max_vector_lanes) return false;
  bool ok = true;
  post_order_visit(loop->body, [&](const Ref<Object>& node) {
    switch (node->kind()) {
      case NodeKind::TirFor:
      case NodeKind::TirWhile:
      case NodeKind::TirIfThenElse:
      case NodeKind::TirAllocate:
      case NodeKind::TirEvaluate:
      case NodeKind::TirLetStmt:
      case NodeKind::TirLet:
      case NodeKind::TirRamp:
      case NodeKind::TirBroadcast:
        ok = false;
        break;
      case NodeKind::TirCall:
        if (!is_float_math(node.as<CallNode>()->op)) ok = false;
        break;
      case NodeKind::TirBufferStore: {
        const auto* store = node.as<BufferStoreNode>();
        if (store->indices.size() != 1) {
          ok = false;
          break;
        }
        VarMap next = {{loop->loop_var, PrimExpr(loop->loop_var) + 1}};
        PrimExpr step =
            arith::simplify(sub(substitute(store->indices[0], next), store->indices[0]));
        if (!is_const_int(step, 1)) ok = false;
        break;
      }
      default:
        break;
    }
  });
  return ok;
}

class VectorLoopLegalizer final : public Mutator {
 public:
  explicit VectorLoopLegalizer(const Target& target) : target_(target) {}

 private:
  Stmt mutate_node(const ForNode* node) override {
    Stmt result = mutate_children(node);
    const auto* loop = result.as<ForNode>();
    if (loop->kind != ForKind::Vectorized || becomes_vector_code(loop, target_)) return result;
    return for_loop(loop->loop_var, loop->min, loop->extent, ForKind::Unrolled, loop->body,
                    loop->thread_tag, loop->annotations, loop->span);
  }

  const Target& target_;
};

}  // namespace

PrimFunc legalize_vector_loops(const PrimFunc& kernel, const Target& target) {
  Stmt body = VectorLoopLegalizer(target).mutate(kernel->body);
  if (body.same_as(kernel->body)) return kernel;
  auto* result = copy_node(*kernel);
  result->body = body;
  return PrimFunc(result);
}

}  // namespace relaxc::tir
