// Block shapes that several GPU schedule rules recognize (block_patterns.h).
#include "passes/tir/gpu_rules/block_patterns.h"

#include <algorithm>

#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

bool is_spatial(const BlockNode& block) {
  return !block.init.defined() &&
         std::all_of(block.iter_vars.begin(), block.iter_vars.end(),
                     [](const IterVar& iv) { return iv->kind == IterKind::Spatial; });
}

std::optional<std::vector<For>> simple_nest(const PrimFunc& func, const std::string& name) {
  StmtPath path = find_block_path(func->body, name);
  std::vector<For> loops = loops_on_path(StmtPath(path.begin(), path.end() - 1));
  const auto& realize = path.back().cast<BlockRealizeNode>();
  if (loops.size() != realize->iter_values.size() || !is_true_predicate(realize->predicate)) {
    return std::nullopt;
  }
  for (size_t i = 0; i < loops.size(); ++i) {
    const Stmt& inner = i + 1 < loops.size() ? Stmt(loops[i + 1]) : path.back();
    if (!loops[i]->body.same_as(inner) || !is_const_int(loops[i]->min, 0) ||
        !realize->iter_values[i].same_as(loops[i]->loop_var)) {
      return std::nullopt;
    }
  }
  return loops;
}

bool loads_only_at(const Stmt& body, const BufferNode* buffer,
                   const std::vector<PrimExpr>& indices) {
  bool ok = true;
  post_order_visit(body, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr || load->buffer.get() != buffer) return;
    ok = ok && load->indices.size() == indices.size();
    for (size_t d = 0; ok && d < indices.size(); ++d) ok = load->indices[d].same_as(indices[d]);
  });
  return ok;
}

bool is_param(const PrimFunc& func, const Buffer& buffer) {
  return std::any_of(func->buffer_map.begin(), func->buffer_map.end(),
                     [&](const auto& entry) { return entry.second.same_as(buffer); });
}

int read_index(const Schedule& s, const BlockRef& block, const Buffer& buffer) {
  const std::vector<BufferRegion>& reads = s.get_block_realize(block)->block->reads;
  for (size_t n = 0; n < reads.size(); ++n) {
    if (reads[n]->buffer.same_as(buffer)) return static_cast<int>(n);
  }
  return -1;
}

std::vector<LoopRef> loops_below(const Schedule& s, const BlockRef& block, const LoopRef& loop) {
  std::vector<LoopRef> loops = s.get_loops(block);
  auto it = std::find_if(loops.begin(), loops.end(),
                         [&](const LoopRef& l) { return l.var.same_as(loop.var); });
  return std::vector<LoopRef>(it == loops.end() ? loops.end() : it + 1, loops.end());
}

bool uses_any(const PrimExpr& e, const std::vector<Var>& vars) {
  return std::any_of(vars.begin(), vars.end(), [&](const Var& v) { return uses_var(e, v); });
}

std::vector<Buffer> block_invariant_params(const PrimFunc& func, const BlockNode& block,
                                           const std::vector<Var>& vars, const Buffer& skip) {
  std::vector<Buffer> out;
  std::vector<const BufferNode*> varying;
  post_order_visit(block.body, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr || !is_param(func, load->buffer) || load->buffer.same_as(skip)) return;
    bool invariant = std::none_of(load->indices.begin(), load->indices.end(),
                                  [&](const PrimExpr& i) { return uses_any(i, vars); });
    if (!invariant) varying.push_back(load->buffer.get());
    if (std::none_of(out.begin(), out.end(),
                     [&](const Buffer& b) { return b.same_as(load->buffer); })) {
      out.push_back(load->buffer);
    }
  });
  std::erase_if(out, [&](const Buffer& b) {
    return std::find(varying.begin(), varying.end(), b.get()) != varying.end();
  });
  return out;
}

std::optional<int64_t> tile_bytes(const Schedule& s, const BlockRef& copy, const LoopRef& at) {
  int64_t elements = 1;
  for (const LoopRef& l : loops_below(s, copy, at)) {
    const PrimExpr simplified = arith::simplify(s.get_for(l)->extent);
    const int64_t* extent = as_const_int(simplified);
    if (extent == nullptr) return std::nullopt;
    elements *= *extent;
  }
  return elements * s.get_block_realize(copy)->block->writes[0]->buffer->dtype.bytes();
}

void cooperative_copy(Schedule& s, const BlockRef& copy, const LoopRef& at, int64_t ty,
                      int64_t tx) {
  std::vector<LoopRef> inner = loops_below(s, copy, at);
  LoopRef fused = inner.empty()       ? s.add_unit_loop(copy)
                  : inner.size() == 1 ? inner[0]
                                      : s.fuse(inner);
  DataType dtype = fused.var->dtype;
  if (ty == 1) {
    s.bind(s.split(fused, {PrimExpr(), int_imm(dtype, tx)})[1], "threadIdx.x");
    return;
  }
  std::vector<LoopRef> parts = s.split(fused, {PrimExpr(), int_imm(dtype, ty), int_imm(dtype, tx)});
  s.bind(parts[1], "threadIdx.y");
  s.bind(parts[2], "threadIdx.x");
}

PrimFunc branch_on(const PrimExpr& condition, const PrimFunc& then_func,
                   const PrimFunc& else_func) {
  const auto* then_root = then_func->body.as<BlockRealizeNode>();
  const BlockNode* else_root = root_block(else_func);
  RELAXC_ICHECK(then_root != nullptr && root_block(then_func) != nullptr && else_root != nullptr)
      << "a specialized schedule lost its root block";
  Stmt else_body = else_root->body;
  std::vector<Buffer> else_buffers;
  for (const Buffer& old : else_root->alloc_buffers) {
    auto* fresh = copy_node(*old);
    fresh->data = var(old->data->name, old->data->dtype, old->data->span);
    else_buffers.emplace_back(fresh);
    else_body = BufferReplacer(old, else_buffers.back()).mutate(else_body);
  }
  auto* root = copy_node(*then_root->block);
  root->body = if_then_else(condition, root->body, else_body);
  root->alloc_buffers.insert(root->alloc_buffers.end(), else_buffers.begin(), else_buffers.end());
  auto* realize = copy_node(*then_root);
  realize->block = Block(root);
  return with_body(then_func, Stmt(realize));
}

bool inline_spatial_producers(Schedule& s) {
  std::vector<BlockRef> blocks = s.get_blocks();
  try {
    for (size_t i = 0; i + 1 < blocks.size(); ++i) {
      if (is_spatial(*s.get_block_realize(blocks[i])->block)) s.compute_inline(blocks[i]);
    }
  } catch (const UserError&) {
    return false;
  }
  return true;
}

void schedule_partial_sum(Schedule& s, const BlockRef& sum,
                          const std::vector<std::string>& epilogue) {
  std::vector<LoopRef> loops = s.get_loops(sum);
  std::vector<LoopRef> spatial(loops.begin(), loops.end() - 1);
  LoopRef fused = spatial.size() == 1 ? spatial[0] : s.fuse(spatial);
  std::vector<LoopRef> parts =
      s.split(fused, {PrimExpr(), int_imm(fused.var->dtype, kPartialSumThreads)});
  s.bind(parts[0], "blockIdx.x");
  s.bind(parts[1], "threadIdx.x");
  for (const std::string& name : epilogue) {
    BlockRef block = s.get_block(name);
    s.reverse_compute_at(block, parts[1]);
    for (const LoopRef& loop : loops_below(s, block, parts[1])) s.unroll(loop);
  }
  if (epilogue.empty()) {
    s.reverse_compute_at(s.cache_write(sum, 0, "local"), parts[1]);
  } else {
    s.set_scope(sum, 0, "local");
  }
  s.decompose_reduction(sum, loops_below(s, sum, parts[1]).front());
}

int64_t slice_blocks(int64_t blocks, const int64_t* reduced, int64_t y) {
  if (reduced == nullptr || blocks <= 0 || blocks >= kBlocksToFillGpu) return 1;
  const int64_t wanted = (kBlocksToFillGpu + blocks - 1) / blocks;
  int64_t chosen = 1;
  for (int64_t b = 2; b <= wanted; ++b) {
    if (*reduced % (b * y) == 0 && *reduced / (b * y) >= kMinSliceRows) chosen = b;
  }
  return chosen;
}

void schedule_column_slices(Schedule& s, const BlockRef& block, size_t p,
                            const ColumnSlices& threads, const std::vector<std::string>& epilogue) {
  std::vector<LoopRef> loops = s.get_loops(block);
  std::vector<LoopRef> reduction_loops(loops.begin() + static_cast<std::ptrdiff_t>(p), loops.end());
  LoopRef reduced = reduction_loops.size() == 1 ? reduction_loops[0] : s.fuse(reduction_loops);
  const DataType t = reduced.var->dtype;
  BlockRef partial = s.rfactor(s.split(reduced, {int_imm(t, threads.slices), PrimExpr()})[0], 0);
  // <block>_rf: the output loops, the slice loop, the rows of a slice.
  std::vector<LoopRef> rf = s.get_loops(partial);
  std::vector<LoopRef> columns = s.split(rf[p - 1], {PrimExpr(), int_imm(t, threads.x)});
  std::vector<LoopRef> slice = s.split(rf[p], {PrimExpr(), int_imm(t, threads.y)});
  s.reorder({slice[0], slice[1], columns[1]});
  std::vector<LoopRef> grid(rf.begin(), rf.begin() + static_cast<std::ptrdiff_t>(p) - 1);
  grid.push_back(columns[0]);
  grid.push_back(slice[0]);
  s.bind(s.fuse(grid), "blockIdx.x");
  s.bind(slice[1], "threadIdx.y");
  s.bind(columns[1], "threadIdx.x");
  s.reverse_compute_at(s.cache_write(partial, 0, "local"), columns[1]);
  s.decompose_reduction(partial, loops_below(s, partial, columns[1]).front());
  schedule_partial_sum(s, block, epilogue);
}

}  // namespace relaxc::tir
