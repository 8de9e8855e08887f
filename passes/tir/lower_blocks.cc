// lower_blocks: TensorIR blocks become plain loops and statements.
//
// Algorithm: top-down over block realizes. At each realize, the block's iter vars are
// substituted by their bound values in its init, body and match_buffer regions; the init
// runs under "every reduction iter var is at the minimum of its domain" (TVM's
// semantics: the first reduction step initializes); the predicate wraps init and body in
// an IfThenElse; each alloc_buffer becomes an Allocate around all of it; a match_buffer
// view is resolved by rewriting its loads and stores to the source buffer, offset by the
// region's minimum. Inner blocks are lowered after their parent's substitution, so their
// bindings see the parent's values.
#include <unordered_map>

#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

// How a match_buffer view's indices map onto its source: source index d is
// mins[d] + view index view_dim[d] (or just mins[d] when view_dim[d] is -1).
struct BufferView {
  Buffer source;
  std::vector<PrimExpr> mins;
  std::vector<int> view_dim;
};

BufferView make_view(const MatchBufferRegionNode& match) {
  const Buffer& view = match.buffer;
  const BufferRegionNode& region = *match.source;
  BufferView result;
  result.source = region.buffer;
  size_t view_rank = view->shape.size();
  size_t source_rank = region.region.size();
  for (const Range& r : region.region) result.mins.push_back(r->min);
  result.view_dim.assign(source_rank, -1);
  if (view_rank == source_rank) {
    for (size_t d = 0; d < source_rank; ++d) result.view_dim[d] = static_cast<int>(d);
    return result;
  }
  // A view of lower rank drops dimensions of extent 1 from the region, leftmost first.
  size_t next = 0;
  bool matched = true;
  for (size_t d = 0; d < source_rank; ++d) {
    bool unit = is_const_int(region.region[d]->extent, 1);
    if (unit && source_rank - d > view_rank - next) continue;
    if (next >= view_rank) {
      matched = false;
      break;
    }
    result.view_dim[d] = static_cast<int>(next++);
  }
  if (!matched || next != view_rank) {
    user_error(view->span) << "match_buffer '" << view->name << "' of rank " << view_rank
                           << " cannot view a region of rank " << source_rank << " of buffer '"
                           << region.buffer->name
                           << "': the region must have one non-unit extent per view dimension";
  }
  return result;
}

// Rewrites accesses of match_buffer views into accesses of their sources.
class ViewResolver final : public Mutator {
 public:
  explicit ViewResolver(const std::unordered_map<Buffer, BufferView, RefHash, RefEq>& views)
      : views_(views) {}

 private:
  std::vector<PrimExpr> source_indices(const BufferView& view,
                                       const std::vector<PrimExpr>& indices) {
    std::vector<PrimExpr> result;
    for (size_t d = 0; d < view.mins.size(); ++d) {
      int vd = view.view_dim[d];
      result.push_back(vd < 0 ? view.mins[d] : add(view.mins[d], indices[static_cast<size_t>(vd)]));
    }
    return result;
  }

  PrimExpr mutate_node(const BufferLoadNode* node) override {
    PrimExpr rebuilt = mutate_children(node);
    const auto* load = rebuilt.as<BufferLoadNode>();
    auto it = views_.find(load->buffer);
    if (it == views_.end()) return rebuilt;
    return buffer_load(it->second.source, source_indices(it->second, load->indices), load->span);
  }

  Stmt mutate_node(const BufferStoreNode* node) override {
    Stmt rebuilt = mutate_children(node);
    const auto* store = rebuilt.as<BufferStoreNode>();
    auto it = views_.find(store->buffer);
    if (it == views_.end()) return rebuilt;
    return buffer_store(it->second.source, store->value, source_indices(it->second, store->indices),
                        store->span);
  }

  const std::unordered_map<Buffer, BufferView, RefHash, RefEq>& views_;
};

class BlockLowerer final : public Mutator {
 private:
  Stmt mutate_node(const BlockRealizeNode* realize) override {
    const BlockNode& block = *realize->block;
    VarMap bindings;
    PrimExpr init_condition;
    for (size_t i = 0; i < block.iter_vars.size() && i < realize->iter_values.size(); ++i) {
      const IterVar& iv = block.iter_vars[i];
      const PrimExpr& value = realize->iter_values[i];
      bindings[iv->var] = value;
      if (iv->kind == IterKind::Reduce) {
        PrimExpr at_min = eq(value, iv->dom->min);
        init_condition = init_condition.defined() ? logical_and(init_condition, at_min) : at_min;
      }
    }
    Stmt body = substitute(block.body, bindings);
    if (block.init.defined()) {
      Stmt init = substitute(block.init, bindings);
      if (init_condition.defined()) init = if_then_else(init_condition, init);
      body = seq_stmt({init, body});
    }
    if (!block.match_buffers.empty()) {
      std::unordered_map<Buffer, BufferView, RefHash, RefEq> views;
      for (const MatchBufferRegion& match : block.match_buffers) {
        BufferView view = make_view(*match);
        for (PrimExpr& m : view.mins) m = substitute(m, bindings);
        views.emplace(match->buffer, std::move(view));
      }
      ViewResolver resolver(views);
      body = resolver.mutate(body);
    }
    body = mutate(body);
    PrimExpr predicate = substitute(realize->predicate, bindings);
    if (predicate.defined() && !is_const_int(predicate, 1)) {
      body = if_then_else(predicate, body, {}, realize->span);
    }
    for (auto it = block.alloc_buffers.rbegin(); it != block.alloc_buffers.rend(); ++it) {
      body = allocate(*it, body, block.span);
    }
    return body;
  }
};

}  // namespace

PrimFunc lower_blocks(const PrimFunc& func) {
  BlockLowerer lowerer;
  Stmt body = lowerer.mutate(func->body);
  if (body.same_as(func->body)) return func;
  auto* result = copy_node(*func);
  result->body = body;
  return PrimFunc(result);
}

}  // namespace relaxc::tir
