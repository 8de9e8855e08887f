// The sliding-window rule: a reduction over a small constant window of an image (a
// depthwise convolution, a pooling window) and the elementwise epilogue after it, as one
// kernel whose thread blocks each stage in shared memory the tile of the image that their
// outputs' windows cover (the output tile and its halo), so that the image is read about
// once instead of once per window element.
//
// Recognized by its blocks: after the spatial producers are inlined (a padding block, the
// epilogue's intermediates), there is a reduction R, alone in its perfect nest, over
// spatial iteration variables (up to two leading ones, then the image's rows y and
// columns x, of constant extents) and then reduction variables of constant extents
// (their product at most kMaxWindow), and at most one spatial block E after it that
// reads R's result at its own indices. R reads a parameter, the image, at indices that
// combine y with a reduction variable and x with another.
//
// Schedule: a thread block per ty * q rows of the output (the rows split [Y / (ty * q),
// ty, q]) and per leading index (blockIdx.z, blockIdx.y), a thread per q outputs of a
// column (threadIdx.y over the tile's rows of threads, threadIdx.x over the X columns, q
// consecutive rows per thread); ty is the largest divisor of Y that keeps ty * X within
// the thread limit (256 at most), or that limit's rows with a tail guard where no divisor
// comes near it, and q (rows_per_thread) brings the tile to kMinTileRows rows where ty
// falls short and divides Y. E (or, without an epilogue, R's register copy to the output)
// owns the loops; R is computed per output (compute_at), its window serial and unrolled,
// its result in a register. The image and every parameter that R or E reads
// at indices that use neither y nor x (the weights, the bias, scalars) are copied to
// shared memory per thread block (cache_read, compute_at at the row-tile loop), by all
// the threads together. The rule declines rows wider than the thread limit, symbolic
// image extents, and tiles whose shared copies exceed half the target's shared memory.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

constexpr int64_t kMaxThreads = 256;
// Windows of more elements are left to the other rules.
constexpr int64_t kMaxWindow = 64;
// A thread block's tile covers at least this many output rows where the image allows
// (several per thread where few rows of threads fit): the halo of a 3 x 3 window is then
// a quarter of the tile, not as large as a tile of 2 rows.
constexpr int64_t kMinTileRows = 8;

// The parameter `r` reads at an index combining `y` with a reduction variable and at one
// combining `x` with a reduction variable; null where there is none.
Buffer find_image(const PrimFunc& func, const BlockNode& r, const Var& y, const Var& x,
                  const std::vector<Var>& window) {
  Buffer image;
  post_order_visit(r.body, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr || image.defined() || !is_param(func, load->buffer)) return;
    bool rows = false, columns = false;
    for (const PrimExpr& index : load->indices) {
      rows = rows || (uses_var(index, y) && uses_any(index, window));
      columns = columns || (uses_var(index, x) && uses_any(index, window));
    }
    if (rows && columns) image = load->buffer;
  });
  return image;
}

// The largest divisor of `rows` that is at most `limit`, or `limit` (with a tail guard)
// where every divisor is below half of it.
int64_t rows_per_block(int64_t rows, int64_t limit) {
  limit = std::min(limit, rows);
  int64_t divisor = limit;
  while (rows % divisor != 0) --divisor;
  return 2 * divisor >= limit ? divisor : limit;
}

// The output rows each thread computes, a thread block having `ty` rows of threads: the
// largest divisor of the rows per block that keeps the tile within kMinTileRows rows; 1
// where ty does not divide the rows (a tail guard) or reaches kMinTileRows alone.
int64_t rows_per_thread(int64_t rows, int64_t ty) {
  if (rows % ty != 0 || ty >= kMinTileRows) return 1;
  int64_t per_thread = kMinTileRows / ty;
  while ((rows / ty) % per_thread != 0) --per_thread;
  return per_thread;
}

// The guarded loads of the image in R, `if_then_else(e in X's bounds, X[e], v)` (an
// inlined padding), become loads of a padded copy P of the image, filled by a new
// spatial block before R (P[w] = X[w - lo] inside X, v outside; lo the padding before
// X's start): the tile of P that a thread block's windows cover then has a constant
// size, where the tile of X would be clipped at the image's edges. Returns P's block;
// nullopt, leaving `s` unchanged, where R reads X otherwise, a guard is not X's bounds,
// the pad values differ or an index has no constant bounds.
std::optional<BlockRef> pad_image(Schedule& s, const BlockRef& reduce, const Buffer& image) {
  const PrimFunc before = s.func();
  StmtPath path = find_block_path(before->body, reduce.name);
  const auto realize = path.back().cast<BlockRealizeNode>();
  const Block& r = realize->block;
  arith::Analyzer analyzer;
  for (const IterVar& iv : r->iter_vars) analyzer.bind(iv->var, iv->dom);
  const size_t rank = image->shape.size();
  std::vector<int64_t> lo(rank, 0), hi(rank, 0);
  std::vector<bool> padded(rank, false);
  PrimExpr pad_value;
  bool ok = true;
  // The guarded loads, checked and measured; `calls` counts them, `loads` all loads of X.
  size_t calls = 0, loads = 0;
  post_order_visit(r->body, [&](const Ref<Object>& node) {
    if (node.as<BufferLoadNode>() != nullptr && node.as<BufferLoadNode>()->buffer.same_as(image)) {
      ++loads;
    }
    const auto* call = node.as<CallNode>();
    const BufferLoadNode* load = call != nullptr && call->op == "tir.if_then_else"
                                     ? call->args[1].as<BufferLoadNode>()
                                     : nullptr;
    if (load == nullptr || !load->buffer.same_as(image)) return;
    ++calls;
    if (pad_value.defined() ? !structural_equal(pad_value, call->args[2])
                            : !(call->args[2].as<FloatImmNode>() || as_const_int(call->args[2]))) {
      ok = false;
      return;
    }
    pad_value = call->args[2];
    std::vector<PrimExpr> conjuncts;
    split_conjuncts(call->args[0], conjuncts);
    for (const PrimExpr& c : conjuncts) {
      // e >= 0 or e < X's extent, e one of the load's indices.
      PrimExpr e, bound;
      if (const auto* ge = c.as<GENode>()) e = ge->a, bound = ge->b;
      if (const auto* lt = c.as<LTNode>()) e = lt->a, bound = lt->b;
      bool matched = false;
      for (size_t d = 0; e.defined() && d < rank; ++d) {
        if (!structural_equal(e, load->indices[d])) continue;
        matched = c.as<GENode>() != nullptr ? is_const_int(bound, 0)
                                            : structural_equal(bound, image->shape[d]);
        padded[d] = padded[d] || matched;
      }
      ok = ok && matched;
    }
    for (size_t d = 0; d < rank; ++d) {
      arith::ConstIntBound b = analyzer.const_int_bound(load->indices[d]);
      lo[d] = std::min(lo[d], b.min);
      hi[d] = std::max(hi[d], b.max);
    }
  });
  if (!ok || calls == 0 || calls != loads) return std::nullopt;
  std::vector<PrimExpr> shape = image->shape;
  std::vector<PrimExpr> offset(rank);
  for (size_t d = 0; d < rank; ++d) {
    DataType dtype = image->shape[d]->dtype;
    offset[d] = int_imm(dtype, 0);
    if (!padded[d]) continue;
    const int64_t* extent = as_const_int(image->shape[d]);
    if (extent == nullptr || lo[d] == arith::ConstIntBound::kNegInf ||
        hi[d] == arith::ConstIntBound::kPosInf) {
      return std::nullopt;
    }
    offset[d] = int_imm(dtype, -lo[d]);
    shape[d] = int_imm(dtype, std::max(*extent, hi[d] + 1) - lo[d]);
  }
  std::string name = unique_name(before, image->name + "_pad");
  Buffer pad = buffer(name, image->dtype, shape, "global", image->span);
  Stmt fill = store_nest(name, pad, shape, [&](const std::vector<PrimExpr>& w) {
    PrimExpr inside;
    std::vector<PrimExpr> at(rank);
    for (size_t d = 0; d < rank; ++d) {
      at[d] = padded[d] ? w[d] - offset[d] : w[d];
      if (!padded[d]) continue;
      PrimExpr in = logical_and(ge(w[d], offset[d]), lt(w[d], offset[d] + image->shape[d]));
      inside = inside.defined() ? logical_and(inside, in) : in;
    }
    return call(image->dtype, "tir.if_then_else", {inside, buffer_load(image, at), pad_value});
  });
  auto* block = copy_node(*r);
  block->body = transform(r->body, [&](const PrimExpr& e) -> PrimExpr {
    const auto* c = e.as<CallNode>();
    const BufferLoadNode* load =
        c != nullptr && c->op == "tir.if_then_else" ? c->args[1].as<BufferLoadNode>() : nullptr;
    if (load == nullptr || !load->buffer.same_as(image)) return PrimExpr();
    std::vector<PrimExpr> at;
    for (size_t d = 0; d < rank; ++d) at.push_back(analyzer.simplify(load->indices[d] + offset[d]));
    return buffer_load(pad, at);
  });
  block->reads.clear();
  complete_block_regions(block, /*reads=*/true, /*writes=*/false);
  auto* new_realize = copy_node(*realize);
  new_realize->block = Block(block);
  Stmt body = replace_in_path(path, Stmt(new_realize));
  StmtPath moved = own_nest_path(find_block_path(body, reduce.name));
  body = replace_in_path(moved, seq_stmt({fill, moved.back()}));
  auto* root_realize = copy_node(*body.as<BlockRealizeNode>());
  auto* root = copy_node(*root_realize->block);
  root->alloc_buffers.push_back(pad);
  root_realize->block = Block(root);
  s = Schedule(with_body(before, Stmt(root_realize)));
  return BlockRef{name};
}

std::optional<PrimFunc> apply_window(const PrimFunc& func, const Target& target) {
  Schedule s(func);
  if (!inline_spatial_producers(s)) return std::nullopt;
  std::vector<BlockRef> blocks = s.get_blocks();
  if (blocks.empty() || blocks.size() > 2) return std::nullopt;
  const BlockRef reduce = blocks.front();
  std::optional<std::vector<For>> reduce_loops = simple_nest(s.func(), reduce.name);
  const Block r = s.get_block_realize(reduce)->block;
  const auto* store = r->body.as<BufferStoreNode>();
  if (!reduce_loops || store == nullptr || !r->init.defined() || r->writes.size() != 1) {
    return std::nullopt;
  }
  size_t p = 0;
  while (p < r->iter_vars.size() && r->iter_vars[p]->kind == IterKind::Spatial) ++p;
  if (p < 2 || p > 4 || p == r->iter_vars.size()) return std::nullopt;
  std::vector<Var> window;
  int64_t window_size = 1;
  for (size_t i = p; i < r->iter_vars.size(); ++i) {
    const int64_t* extent = as_const_int(r->iter_vars[i]->dom->extent);
    if (r->iter_vars[i]->kind != IterKind::Reduce || extent == nullptr) return std::nullopt;
    window_size *= *extent;
    window.push_back(r->iter_vars[i]->var);
  }
  const int64_t* rows = as_const_int(r->iter_vars[p - 2]->dom->extent);
  const int64_t* columns = as_const_int(r->iter_vars[p - 1]->dom->extent);
  const int64_t threads = std::min(kMaxThreads, target.max_threads_per_block);
  if (window_size > kMaxWindow || rows == nullptr || columns == nullptr || *columns > threads) {
    return std::nullopt;
  }
  const Var& y = r->iter_vars[p - 2]->var;
  const Var& x = r->iter_vars[p - 1]->var;
  Buffer image = find_image(s.func(), *r, y, x, window);
  if (!image.defined()) return std::nullopt;
  // The epilogue: one spatial block reading R's result at its own indices.
  std::optional<BlockRef> epilogue;
  if (blocks.size() == 2) {
    const Block& e = s.get_block_realize(blocks[1])->block;
    std::optional<std::vector<For>> loops = simple_nest(s.func(), blocks[1].name);
    if (!loops || !is_spatial(*e) || loops->size() != p) return std::nullopt;
    std::vector<PrimExpr> own;
    for (const IterVar& iv : e->iter_vars) own.push_back(iv->var);
    for (size_t d = 0; d < p; ++d) {
      if (!structural_equal((*loops)[d]->extent, (*reduce_loops)[d]->extent)) return std::nullopt;
    }
    if (!loads_only_at(e->body, store->buffer.get(), own)) return std::nullopt;
    epilogue = blocks[1];
  } else if (!is_param(s.func(), store->buffer)) {
    return std::nullopt;
  }
  const int64_t ty = rows_per_block(*rows, threads / *columns);

  std::optional<BlockRef> padded_image = pad_image(s, reduce, image);
  BlockRef out = epilogue ? *epilogue : s.cache_write(reduce, 0, "local");
  if (epilogue) s.set_scope(reduce, 0, "local");
  const int64_t per_thread = rows_per_thread(*rows, ty);
  std::vector<LoopRef> loops = s.get_loops(out);
  const DataType index_type = loops[p - 2].var->dtype;
  std::vector<PrimExpr> factors = {PrimExpr(), int_imm(index_type, ty)};
  if (per_thread > 1) factors.push_back(int_imm(index_type, per_thread));
  std::vector<LoopRef> tile = s.split(loops[p - 2], factors);
  const LoopRef& column = loops[p - 1];
  // The loop of one output: the column's, or within it the thread's rows.
  LoopRef output = column;
  if (per_thread > 1) {
    s.reorder({column, tile[2]});
    output = tile[2];
  }
  const Block& out_block = s.get_block_realize(out)->block;
  std::vector<Buffer> out_params = block_invariant_params(
      s.func(), *out_block, {out_block->iter_vars[p - 2]->var, out_block->iter_vars[p - 1]->var},
      Buffer());
  std::vector<Buffer> reduce_params =
      block_invariant_params(s.func(), *s.get_block_realize(reduce)->block, {y, x}, image);
  try {
    s.compute_at(reduce, output);
    for (const LoopRef& l : s.get_loops(reduce)) {
      if (loop_iter_use(s.get_for(l)).reduce) s.unroll(l);
    }
    if (per_thread > 1) s.unroll(tile[2]);
    std::vector<BlockRef> copies;
    if (padded_image) {
      s.set_scope(*padded_image, 0, "shared");
      copies.push_back(*padded_image);
    } else {
      copies.push_back(s.cache_read(reduce, read_index(s, reduce, image), "shared"));
    }
    for (const Buffer& b : reduce_params) {
      copies.push_back(s.cache_read(reduce, read_index(s, reduce, b), "shared"));
    }
    for (const Buffer& b : out_params) {
      copies.push_back(s.cache_read(out, read_index(s, out, b), "shared"));
    }
    int64_t shared_bytes = 0;
    for (const BlockRef& copy : copies) {
      s.compute_at(copy, tile[0]);
      std::optional<int64_t> bytes = tile_bytes(s, copy, tile[0]);
      if (!bytes) return std::nullopt;
      shared_bytes += *bytes;
      cooperative_copy(s, copy, tile[0], ty, *columns);
    }
    if (2 * shared_bytes > target.max_shared_memory_bytes) return std::nullopt;
  } catch (const UserError&) {
    return std::nullopt;  // a region compute_at cannot bound
  }
  if (p == 4) s.bind(loops[0], "blockIdx.z");
  if (p >= 3) s.bind(loops[p - 3], "blockIdx.y");
  s.bind(tile[0], "blockIdx.x");
  s.bind(tile[1], "threadIdx.y");
  s.bind(column, "threadIdx.x");
  return s.func();
}

}  // namespace

GpuScheduleRule window_rule() { return {"window", &apply_window}; }

}  // namespace relaxc::tir
