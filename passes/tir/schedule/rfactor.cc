// rfactor: factors one reduction loop of a reduction out into a buffer of partial
// results, so that the partial results can be computed in parallel (one per thread, say)
// and combined afterwards.
//
// The block R under `loop` (its only block) must be `B[s] = op(B[s], x)` with op one of
// +, *, min, max, with a T.init, no predicate (a partial result whose iterations a
// predicate all excluded would never be initialized), and `loop` (from 0, of extent E) a
// loop of its reduction iteration variables only. Then:
// - R becomes the block `R_rf` in R's loops: its iteration variables are R's spatial
//   ones, a spatial one over [0, E) bound to `loop`, and one reduction variable per
//   other reduction loop (R's reduction variables are rewritten in terms of these), and
//   it reduces into `B_rf`, B with a dimension of extent E inserted at `factor_axis`
//   (from op's identity);
// - a new block R after R's loop nest, in copies of R's spatial loops and a reduction
//   loop over [0, E), reduces the partial results into B, starting from R's init.
// B_rf is allocated by the block that holds R's loops. R's loop nest must hold R alone.
#include <optional>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// `B[s] = op(B[s], x)` taken apart.
struct Reducer {
  NodeKind op;
  PrimExpr operand;  // x
};

bool loads_store_target(const PrimExpr& e, const BufferStoreNode& store) {
  const auto* load = e.as<BufferLoadNode>();
  if (load == nullptr || !load->buffer.same_as(store.buffer)) return false;
  if (load->indices.size() != store.indices.size()) return false;
  for (size_t d = 0; d < load->indices.size(); ++d) {
    if (!structural_equal(load->indices[d], store.indices[d])) return false;
  }
  return true;
}

template <typename Node>
std::optional<Reducer> match_op(const BufferStoreNode& store) {
  const auto* node = store.value.as<Node>();
  if (node == nullptr) return std::nullopt;
  if (loads_store_target(node->a, store) && !uses_var(node->b, store.buffer->data)) {
    return Reducer{store.value->kind(), node->b};
  }
  if (loads_store_target(node->b, store) && !uses_var(node->a, store.buffer->data)) {
    return Reducer{store.value->kind(), node->a};
  }
  return std::nullopt;
}

std::optional<Reducer> match_reducer(const BufferStoreNode& store) {
  if (auto r = match_op<AddNode>(store)) return r;
  if (auto r = match_op<MulNode>(store)) return r;
  if (auto r = match_op<MinNode>(store)) return r;
  return match_op<MaxNode>(store);
}

PrimExpr identity(NodeKind op, DataType dtype) {
  switch (op) {
    case NodeKind::TirAdd:
      return make_const(dtype, 0);
    case NodeKind::TirMul:
      return make_const(dtype, 1);
    case NodeKind::TirMin:
      return max_value(dtype);
    default:
      return min_value(dtype);
  }
}

std::vector<PrimExpr> with_axis(std::vector<PrimExpr> indices, size_t axis, PrimExpr index) {
  indices.insert(indices.begin() + static_cast<long>(axis), std::move(index));
  return indices;
}

IterVar iter_var(const Var& v, const PrimExpr& extent, IterKind kind) {
  auto* iv = make_node<IterVarNode>();
  iv->var = v;
  iv->dom = range(int_imm(extent->dtype, 0), extent);
  iv->kind = kind;
  return IterVar(iv);
}

}  // namespace

BlockRef Schedule::rfactor(const LoopRef& loop, int factor_axis) {
  For factored = get_for(loop);
  std::vector<BlockRealize> under = blocks_under(factored->body);
  if (under.size() != 1) {
    user_error(factored->span) << "rfactor: " << loop_name(loop.var) << " holds " << under.size()
                               << " blocks; expected one reduction block";
  }
  BlockRealize realize = under.front();
  const BlockNode& r = *realize->block;
  const std::string& name = r.name;
  const auto* store = r.body.as<BufferStoreNode>();
  std::optional<Reducer> reducer;
  if (store != nullptr && r.init.defined()) reducer = match_reducer(*store);
  if (!reducer) {
    user_error(r.span) << "rfactor: block '" << name
                       << "' is not a reduction `B[...] = op(B[...], x)` with op one of +, *, "
                          "min, max and a T.init";
  }
  if (!is_true_predicate(realize->predicate)) {
    user_error(r.span) << "rfactor: block '" << name
                       << "' has a predicate; a partial result whose iterations it all excludes "
                          "would never be initialized";
  }
  LoopIterUse use = loop_iter_use(factored);
  if (!use.reduce || use.spatial) {
    user_error(factored->span) << "rfactor: " << loop_name(loop.var)
                               << " is not a loop of the reduction iteration variables of block '"
                               << name << "' alone";
  }
  size_t ndim = store->buffer->shape.size();
  int64_t axis = factor_axis < 0 ? factor_axis + static_cast<int64_t>(ndim) + 1 : factor_axis;
  if (axis < 0 || axis > static_cast<int64_t>(ndim)) {
    user_error(r.span) << "rfactor: factor_axis " << factor_axis << " is out of range for '"
                       << store->buffer->name << "' of " << ndim << " dimensions";
  }
  StmtPath path = find_block_path(func_->body, name);
  std::vector<For> loops = loops_on_path(StmtPath(path.begin(), path.end() - 1));
  if (blocks_under(loops.front()).size() != 1) {
    user_error(loops.front()->span) << "rfactor: " << loop_name(loops.front()->loop_var)
                                    << " holds other blocks besides '" << name << "'";
  }
  // The loops the spatial and the reduction iteration variables use.
  auto uses = [&](const For& f, bool spatial) {
    for (size_t i = 0; i < r.iter_vars.size(); ++i) {
      if ((r.iter_vars[i]->kind == IterKind::Spatial) == spatial &&
          uses_var(realize->iter_values[i], f->loop_var)) {
        return true;
      }
    }
    return false;
  };
  // The partial-result block: R's spatial variables, then one per reduction loop.
  std::vector<IterVar> rf_iters;
  std::vector<PrimExpr> rf_values;
  for (size_t i = 0; i < r.iter_vars.size(); ++i) {
    if (r.iter_vars[i]->kind != IterKind::Spatial) continue;
    rf_iters.push_back(r.iter_vars[i]);
    rf_values.push_back(realize->iter_values[i]);
  }
  VarMap loop_to_iter;
  Var partial;  // the variable of the factored loop
  std::vector<For> spatial_loops;
  for (const For& f : loops) {
    bool spatial = uses(f, true);
    bool reduce = uses(f, false);
    if (spatial && reduce) {
      user_error(f->span) << "rfactor: " << loop_name(f->loop_var)
                          << " binds both spatial and reduction iteration variables of block '"
                          << name << "'";
    }
    if (spatial) spatial_loops.push_back(f);
    if (!reduce) continue;
    if (!is_const_int(f->min, 0)) {
      user_error(f->span) << "rfactor: " << loop_name(f->loop_var) << " of block '" << name
                          << "' does not start at 0";
    }
    Var v = var("v" + f->loop_var->name, f->loop_var->dtype);
    bool is_factored = f->loop_var.same_as(loop.var);
    if (is_factored) partial = v;
    loop_to_iter[f->loop_var] = v;
    rf_iters.push_back(iter_var(v, f->extent, is_factored ? IterKind::Spatial : IterKind::Reduce));
    rf_values.push_back(f->loop_var);
  }
  VarMap reduce_values;
  for (size_t i = 0; i < r.iter_vars.size(); ++i) {
    if (r.iter_vars[i]->kind == IterKind::Spatial) continue;
    reduce_values[r.iter_vars[i]->var] = substitute(realize->iter_values[i], loop_to_iter);
  }
  const Buffer& out = store->buffer;
  std::vector<PrimExpr> rf_shape =
      with_axis(out->shape, static_cast<size_t>(axis), factored->extent);
  Buffer rf_buffer = buffer(out->name + "_rf", out->dtype, rf_shape, "global", out->span);
  std::vector<PrimExpr> rf_index =
      with_axis(store->indices, static_cast<size_t>(axis), PrimExpr(partial));
  auto* rf = make_node<BlockNode>();
  rf->name = name + "_rf";
  rf->span = r.span;
  rf->iter_vars = rf_iters;
  rf->init = buffer_store(rf_buffer, identity(reducer->op, out->dtype), rf_index);
  rf->body = substitute(
      buffer_store(rf_buffer,
                   binary(reducer->op, buffer_load(rf_buffer, rf_index), reducer->operand),
                   rf_index, store->span),
      reduce_values);
  complete_block_regions(rf, /*reads=*/true, /*writes=*/true);
  // The write-back block, in copies of the spatial loops and a loop over the partials.
  VarMap fresh_loops;
  for (const For& f : spatial_loops) {
    fresh_loops[f->loop_var] = var(f->loop_var->name + "_wb", f->loop_var->dtype);
  }
  Var partial_loop = var(loop.var->name + "_wb", loop.var->dtype);
  auto* wb = make_node<BlockNode>();
  wb->name = name;
  wb->span = r.span;
  std::vector<PrimExpr> wb_values;
  VarMap wb_iters;
  for (size_t i = 0; i < r.iter_vars.size(); ++i) {
    if (r.iter_vars[i]->kind != IterKind::Spatial) continue;
    auto* iv = copy_node(*r.iter_vars[i]);
    iv->var = var(r.iter_vars[i]->var->name, r.iter_vars[i]->var->dtype);
    wb_iters[r.iter_vars[i]->var] = iv->var;
    wb->iter_vars.emplace_back(iv);
    wb_values.push_back(substitute(realize->iter_values[i], fresh_loops));
  }
  Var vr = var("v" + loop.var->name, loop.var->dtype);
  wb->iter_vars.push_back(iter_var(vr, factored->extent, IterKind::Reduce));
  wb_values.push_back(partial_loop);
  std::vector<PrimExpr> out_index;
  for (const PrimExpr& e : store->indices) out_index.push_back(substitute(e, wb_iters));
  wb->init = substitute(r.init, wb_iters);
  wb->body = buffer_store(
      out,
      binary(reducer->op, buffer_load(out, out_index),
             buffer_load(rf_buffer, with_axis(out_index, static_cast<size_t>(axis), PrimExpr(vr)))),
      out_index, store->span);
  complete_block_regions(wb, /*reads=*/true, /*writes=*/true);
  Stmt wb_nest =
      for_loop(partial_loop, int_imm(loop.var->dtype, 0), factored->extent, ForKind::Serial,
               block_realize(wb_values, PrimExpr(), Block(wb), realize->span));
  for (size_t i = spatial_loops.size(); i-- > 0;) {
    const For& f = spatial_loops[i];
    wb_nest = for_loop(fresh_loops.at(f->loop_var).cast<VarNode>(), f->min, f->extent,
                       ForKind::Serial, wb_nest, {}, {}, f->span);
  }
  // Put both in place, and allocate the partial results in the scope's block.
  const BlockNode* scope = innermost_block(path);
  auto* rf_realize = copy_node(*realize);
  rf_realize->iter_values = rf_values;
  rf_realize->block = Block(rf);
  Stmt body = replace_in_path(path, Stmt(rf_realize));
  StmtPath nest_path = find_loop_path(body, loops.front()->loop_var);
  body = replace_in_path(nest_path, seq_stmt({nest_path.back(), wb_nest}));
  StmtPath scope_path = find_block_path(body, scope->name);
  auto* scope_block = copy_node(*scope_path.back().cast<BlockRealizeNode>()->block);
  scope_block->alloc_buffers.push_back(rf_buffer);
  auto* scope_realize = copy_node(*scope_path.back().cast<BlockRealizeNode>());
  scope_realize->block = Block(scope_block);
  func_ = with_body(func_, replace_in_path(scope_path, Stmt(scope_realize)));
  return BlockRef{rf->name};
}

}  // namespace relaxc::tir
