// The matmul rule: a (batched) matmul with its elementwise epilogue (matmul_analysis.h)
// as one kernel of block tiles staged in shared memory and register tiles per thread.
//
// Schedule, for a tile of BM x BN outputs per thread block and TM x TN per thread
// (BM = TY * TM, BN = TX * TN, T = TX * TY threads):
// - the row loop splits [M / BM, TY, TM], the column loop [N / BN, TX, TN], the
//   reduction [K / BK, BK]; the order is batch, i0, j0, i1, j1, k0, k1, i2, j2, with the
//   batch loops fused onto blockIdx.z, i0 on blockIdx.y, j0 on blockIdx.x, i1 on
//   threadIdx.y and j1 on threadIdx.x: each thread owns a TM x TN block of the output;
// - A's BM x BK and B's BK x BN tiles are copied to shared memory at k0 (cache_read +
//   compute_at), by all threads together: each copy's loops fused and split over the
//   threads, 4 elements at a time where the tile allows (vector loads where the kernel
//   lowering proves them contiguous); the square tiles (a thread copies at most 16
//   elements of them) are stored k-major (A's transposed by transform_layout), so that a
//   thread's TM (or TN) values of one k step are side by side, and their k0 loop is
//   annotated prefetch_tile_copies, so the kernel lowering loads the next k step's tiles
//   into registers while this one computes (which also keeps the transposed A's global
//   loads vector loads: the prefetch's loads store to registers, contiguously);
// - at each k1 a thread copies its TM values of A and TN values of B from shared memory
//   to registers ("local" caches), then does TM * TN multiply-adds on its accumulator
//   (cache_write "local"): TM * TN FMAs per TM + TN shared loads; the accumulator is set
//   to zero before the k loops (decompose_reduction), not under a test in the inner loop;
// - the accumulator goes to the output after the k loops (reverse_compute_at under the
//   thread loop), through the epilogue blocks, which run on the thread's tile and whose
//   intermediates (and the matmul's result) live in registers: one global write. A
//   parameter that the epilogue reads alike along a row or column of the thread's tile
//   (a bias, a clip's bounds) is copied to registers first: TM or TN loads, not TM * TN.
// Split-K (tiles.split_k = S > 1): before the tiling, the reduction loop splits [S, K / S]
// and rfactor makes its outer part a spatial one: the matmul becomes a batched one into
// partial results P[s, ..] (S-fold thread blocks, the s loop fused onto blockIdx.z with
// the batch), and the write-back block C[..] = sum_s P[s, ..] gets a kernel of its own:
// one thread per output, 128 to a thread block, the S partials summed serially (adjacent
// threads read adjacent partials), then the epilogue on the sum in registers.
// Before the tiling, the epilogue's blocks are folded into its last (compute_inline), and
// a symbolic M, N or K, or a constant one that its tile does not divide, is padded to a
// multiple of it (pad_einsum; pad_to_tiles below), so that only the shared copies' and
// the epilogue's global accesses are guarded. The tile is the larger of 128 x 128
// (256 threads) and 64 x 64 (64 threads), both with 8 x 8 outputs per thread and k steps
// of 8, that the target allows (the mobile profile's 128 threads: 64 x 64; the shared
// tiles take at most 8 KiB in float32) and that a constant extent does not undercut;
// where the output's size is known, 64 x 64 is taken when 128 x 128 would leave fewer
// than 64 thread blocks to spread over the GPU. Where a constant extent undercuts both,
// the first of 64 x 32, 32 x 64, 16 x 128, 128 x 16 and 128 x 8 (32 threads) that fits:
// a convolution's 7 x 7 pixels, its 16 or 24 output channels; attention's P @ V over
// heads of 8 to 15 columns, whose rows of P are then read once, where the generic
// schedule's thread block per output read them once per column. Few rows (at most 4: the GEMV
// rule's), a small constant output, or constant extents below every tile (fewer than 8
// columns) are declined: the generic schedule does them well enough.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/tir/functor.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/gpu_rules/matmul_analysis.h"
#include "passes/tir/schedule/schedule.h"

namespace relaxc::tir {
namespace {

// Outputs below this many elements (a constant count) are not worth the tiles.
constexpr int64_t kSmallOutput = 64 * 64;
// Thread blocks enough to occupy a large GPU (half the 132 multiprocessors of an H100):
// where the output's size is known, smaller tiles are taken until there are this many.
constexpr int64_t kEnoughBlocks = 64;
// Split-K: warps enough for four per multiprocessor of an H100 (a warp of the tile loop
// waits on global memory every k step; the others hide that wait); at most 32 parts, each
// at least 64 deep (8 k steps). Where the batch is symbolic, the warps are counted at
// batch 1 (inference) and each part is at least 256 deep: at a large batch, where the
// warps are many anyway, the partial results then add at most 8 * K / 256 bytes per
// output, about a quarter of what the tiles read for it. (Counted in thread blocks
// instead, SGEMM 2048 x 2048 on an H100, 256 blocks of 8 warps, was split in two and
// went from 25 to 19 TFLOP/s.)
constexpr int64_t kBusyWarps = 4 * 132;
constexpr int64_t kMaxSplitK = 32;
constexpr int64_t kMinSplitDepth = 64;
constexpr int64_t kMinSplitDepthAnyBatch = 256;
constexpr int64_t kVectorLanes = 4;
// The most elements of the two tiles a thread copies for which the k loop prefetches them.
constexpr int64_t kMaxPrefetched = 16;

PrimExpr index_const(const Var& like, int64_t value) { return int_imm(like->dtype, value); }

int64_t constant_extent(const Schedule& s, const LoopRef& loop) {
  const int64_t* extent = as_const_int(s.get_for(loop)->extent);
  return extent != nullptr ? *extent : -1;
}

// The copy `block` (computed at a loop above it) spread over the thread block's TY x TX
// threads, `kVectorLanes` consecutive elements each where the tile divides evenly.
void cooperative_copy(Schedule& s, const BlockRef& block, const LoopRef& at, const MatmulTiles& t) {
  std::vector<LoopRef> loops = loops_below(s, block, at);
  if (loops.empty()) return;
  int64_t total = 1;
  for (const LoopRef& loop : loops) total *= constant_extent(s, loop);
  int64_t innermost = constant_extent(s, loops.back());
  LoopRef fused = loops.size() == 1 ? loops[0] : s.fuse(loops);
  int64_t ty = t.bm / t.tm, tx = t.bn / t.tn;
  bool vector = innermost % kVectorLanes == 0 && total % (ty * tx * kVectorLanes) == 0;
  std::vector<PrimExpr> factors = {PrimExpr(), index_const(fused.var, ty),
                                   index_const(fused.var, tx)};
  if (vector) factors.push_back(index_const(fused.var, kVectorLanes));
  std::vector<LoopRef> parts = s.split(fused, factors);
  s.bind(parts[1], "threadIdx.y");
  s.bind(parts[2], "threadIdx.x");
  if (vector) s.vectorize(parts[3]);
}

// Stores the tile that `copy` writes (with the dimensions of `operand`, which `matmul`
// loads) as [.., k, .., spatial, ..] where the operand has k after the spatial dimension
// (A[i, k], or B[j, k]): a k step's values for a thread's rows (or columns) then lie side
// by side in shared memory and are read as vectors. Stored as the operand, a thread's 8
// rows of A are 8 places apart, and the loads that the unrolled k loop merges into
// vectors kept four k steps of them in registers (32 for A): 129 registers for the
// 128 x 128 tile with its prefetched copies, one thread block per multiprocessor.
void stage_k_major(Schedule& s, const BlockRef& copy, const Block& matmul, const Buffer& operand,
                   const Var& spatial, const Var& k) {
  std::optional<size_t> spatial_dim, k_dim;
  post_order_visit(matmul->body, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr || !load->buffer.same_as(operand)) return;
    for (size_t d = 0; d < load->indices.size(); ++d) {
      if (load->indices[d].same_as(spatial)) spatial_dim = d;
      if (load->indices[d].same_as(k)) k_dim = d;
    }
  });
  if (!spatial_dim || !k_dim || *k_dim < *spatial_dim) return;
  std::vector<int> permutation(operand->shape.size());
  for (size_t d = 0; d < permutation.size(); ++d) permutation[d] = static_cast<int>(d);
  std::swap(permutation[*spatial_dim], permutation[*k_dim]);
  s.transform_layout(copy, 0, permutation);
}

void unroll_all(Schedule& s, const std::vector<LoopRef>& loops) {
  for (const LoopRef& loop : loops) s.unroll(loop);
}

// The most parts (up to what brings `warps` to kBusyWarps) that divide the constant
// reduction `depth` into whole k steps of `bk`, each `min_depth` deep.
int64_t choose_split_k(int64_t warps, const PrimExpr& depth, int64_t bk, int64_t min_depth) {
  const int64_t* k = as_const_int(depth);
  if (k == nullptr || warps >= kBusyWarps) return 1;
  const int64_t wanted = std::min((kBusyWarps + warps - 1) / warps, kMaxSplitK);
  int64_t parts = 1;
  for (int64_t s = 2; s <= wanted; ++s) {
    if (*k % s == 0 && (*k / s) % bk == 0 && *k / s >= min_depth) parts = s;
  }
  return parts;
}

// Folds every epilogue block but the last into the last (compute_inline): one loop over
// the register tile then computes and stores each output, so that the values of one
// stage are not all live while the next stage starts.
void inline_epilogue(Schedule& s, MatmulMatch& m) {
  if (m.epilogue.size() < 2) return;
  for (size_t e = 0; e + 1 < m.epilogue.size(); ++e) s.compute_inline(s.get_block(m.epilogue[e]));
  m.epilogue = {m.epilogue.back()};
}

// Pads the rows, columns and depth of the matmul `mm` (the matmul itself, or split-K's
// partial products) that are symbolic, or that its tiles do not divide, up to multiples
// of the tiles (pad_einsum), so that the thread block's loops need no tail guards: the
// shared tiles are filled with zeros past the operands' ends, every thread computes its
// whole register tile, and only the global reads and writes are guarded. (Guarded, the
// register copies of the shared tiles are loads that LLVM cannot take out of their
// guards: both values stay live, and a 1x1 convolution of 96 channels spilled.) `m` is
// updated to the padded operands. The padded result is cropped by the epilogue, which
// reads it in registers; else (no epilogue, or split-K's partial products, which the sum
// reads unpadded) it stays in registers and the copy that crops it, `writeback`, writes
// it out. Returns the blocks that fill the padded operands, for compute_inline once
// their tiles are copied.
std::vector<BlockRef> pad_to_tiles(Schedule& s, const BlockRef& mm, const Block& matmul,
                                   MatmulMatch& m, const MatmulTiles& t,
                                   std::optional<BlockRef>& writeback) {
  auto factor = [](const PrimExpr& extent, int64_t tile) {
    const int64_t* e = as_const_int(extent);
    return e == nullptr || *e % tile != 0 ? tile : 1;
  };
  const std::vector<IterVar>& iters = s.get_block_realize(mm)->block->iter_vars;
  std::vector<int64_t> padding(iters.size(), 1);
  for (size_t d = 0; d < iters.size(); ++d) {
    if (iters[d].same_as(matmul->iter_vars[m.i])) padding[d] = factor(m.rows, t.bm);
    if (iters[d].same_as(matmul->iter_vars[m.j])) padding[d] = factor(m.cols, t.bn);
    if (iters[d].same_as(matmul->iter_vars[m.k])) padding[d] = factor(m.depth, t.bk);
  }
  PaddedEinsum padded = s.pad_einsum(mm, padding);
  auto padded_operand = [&](const Buffer& operand) {
    for (const BlockRef& pad : padded.inputs) {
      const Block& fill = s.get_block_realize(pad)->block;
      if (fill->reads[0]->buffer.same_as(operand)) return fill->writes[0]->buffer;
    }
    return operand;
  };
  m.a = padded_operand(m.a);
  m.b = padded_operand(m.b);
  if (padded.output) {
    if (mm.name == m.block && !m.epilogue.empty()) {
      s.compute_inline(*padded.output);
    } else {
      s.set_scope(mm, 0, "local");
      writeback = padded.output;
    }
  }
  return padded.inputs;
}

// Stages in registers each parameter that `epilogue` (under `thread`) reads alike along
// one of the thread's tile loops: a bias per row or column (TM or TN values, not TM * TN
// loads), a scalar such as a clip's bound (one). The copies are made after the k loops,
// where the accumulators are all that is live, and past the operands' ends their
// predicate keeps them in bounds.
void stage_epilogue_params(Schedule& s, const BlockRef& epilogue, const LoopRef& thread) {
  const BlockRealize realize = s.get_block_realize(epilogue);
  VarMap bindings;
  for (size_t v = 0; v < realize->block->iter_vars.size(); ++v) {
    bindings[realize->block->iter_vars[v]->var] = realize->iter_values[v];
  }
  std::vector<Var> tile;
  for (const LoopRef& l : loops_below(s, epilogue, thread)) {
    if (!is_const_int(s.get_for(l)->extent, 1)) tile.push_back(l.var);
  }
  // For each parameter read, the tile loops that some read of it uses.
  std::vector<std::pair<Buffer, std::unordered_set<const VarNode*>>> params;
  post_order_visit(realize->block->body, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr || !is_param(s.func(), load->buffer)) return;
    auto it = std::find_if(params.begin(), params.end(),
                           [&](const auto& p) { return p.first.same_as(load->buffer); });
    if (it == params.end()) it = params.insert(params.end(), {load->buffer, {}});
    for (const PrimExpr& index : load->indices) {
      PrimExpr value = substitute(index, bindings);
      for (const Var& l : tile) {
        if (uses_var(value, l)) it->second.insert(l.get());
      }
    }
  });
  for (const auto& [buffer, used] : params) {
    if (used.size() == tile.size()) continue;  // a value per output: nothing to share
    BlockRef copy = s.cache_read(epilogue, read_index(s, epilogue, buffer), "local");
    s.compute_at(copy, thread);
    unroll_all(s, loops_below(s, copy, thread));
  }
}

}  // namespace

std::optional<MatmulTiles> choose_matmul_tiles(const MatmulMatch& m, const Target& target) {
  const int64_t* rows = as_const_int(m.rows);
  const int64_t* cols = as_const_int(m.cols);
  if (rows != nullptr && *rows <= 4) return std::nullopt;
  if (rows != nullptr && cols != nullptr && *rows * *cols < kSmallOutput) return std::nullopt;
  // Largest first; all but the last with 8 x 8 outputs per thread (4 FMAs per
  // shared-memory load), all with k steps of 8. The square ones load at most 1/32 of an element
  // from global memory per FMA ((BM + BN) / (BM * BN)); the narrow ones (3/64, and 9/128 for 16 x
  // 128) only serve where no square one fits: the first that does. The last, 128 x 8 with 4 x 8
  // outputs per thread (8/3 FMAs per shared load), serves 8 to 15 columns: such a
  // product does at most 4 FLOPs per byte of A, memory-bound on any GPU, so its tile
  // keeps more rows of thread blocks rather than more FMAs per shared load.
  const MatmulTiles candidates[] = {{128, 128, 8, 8, 8}, {64, 64, 8, 8, 8},  {64, 32, 8, 8, 8},
                                    {32, 64, 8, 8, 8},   {16, 128, 8, 8, 8}, {128, 16, 8, 8, 8},
                                    {128, 8, 8, 4, 8}};
  // Shared memory: the two tiles.
  auto shared_bytes = [&](const MatmulTiles& t) {
    int64_t elem_bytes = std::max(m.a->dtype.bytes(), m.b->dtype.bytes());
    return (t.bm * t.bk + t.bk * t.bn) * elem_bytes;
  };
  // A constant extent below the tile would clip the tile's regions to the extent, which
  // loses the threads' offsets in them (compute_at's region analysis).
  auto covers = [&](const MatmulTiles& t) {
    return (rows == nullptr || *rows >= t.bm) && (cols == nullptr || *cols >= t.bn);
  };
  int64_t batch = 1;
  bool batch_known = true;
  for (size_t d : m.batch) {
    const int64_t* extent = as_const_int(m.c->shape[d]);
    batch *= extent != nullptr ? *extent : 1;
    batch_known = batch_known && extent != nullptr;
  }
  std::optional<MatmulTiles> chosen;
  for (const MatmulTiles& t : candidates) {
    if (!covers(t) || target.max_threads_per_block < t.threads() ||
        target.max_shared_memory_bytes < shared_bytes(t)) {
      continue;
    }
    if (chosen && t.bm != t.bn) break;
    chosen = t;
    if (rows == nullptr || cols == nullptr) break;
    int64_t blocks = batch * ((*rows + t.bm - 1) / t.bm) * ((*cols + t.bn - 1) / t.bn);
    chosen->split_k = choose_split_k(blocks * ((t.threads() + 31) / 32), m.depth, t.bk,
                                     batch_known ? kMinSplitDepth : kMinSplitDepthAnyBatch);
    if (blocks >= kEnoughBlocks) break;
  }
  return chosen;
}

PrimFunc schedule_matmul(const PrimFunc& func, const MatmulMatch& match, const MatmulTiles& t) {
  Schedule s(func);
  MatmulMatch m = match;
  inline_epilogue(s, m);
  BlockRef mm = s.get_block(m.block);
  const Block matmul = s.get_block_realize(mm)->block;
  std::vector<LoopRef> loops = s.get_loops(mm);
  auto c = [&](const LoopRef& l, int64_t v) { return index_const(l.var, v); };
  std::vector<LoopRef> batch;
  for (size_t b : m.batch) batch.push_back(loops[b]);
  LoopRef reduction = loops[m.k];
  const bool split_k = t.split_k > 1;
  if (split_k) {
    std::vector<LoopRef> parts = s.split(reduction, {c(reduction, t.split_k), PrimExpr()});
    mm = s.rfactor(parts[0], 0);
    batch.push_back(parts[0]);
    reduction = parts[1];
  }
  std::optional<BlockRef> writeback;
  std::vector<BlockRef> pads = pad_to_tiles(s, mm, matmul, m, t, writeback);
  set_intermediates_scope(s, m, "local");
  std::vector<LoopRef> i =
      s.split(loops[m.i], {PrimExpr(), c(loops[m.i], t.bm / t.tm), c(loops[m.i], t.tm)});
  std::vector<LoopRef> j =
      s.split(loops[m.j], {PrimExpr(), c(loops[m.j], t.bn / t.tn), c(loops[m.j], t.tn)});
  std::vector<LoopRef> k = s.split(reduction, {PrimExpr(), c(reduction, t.bk)});
  std::vector<LoopRef> order = batch;
  for (const LoopRef& l : {i[0], j[0], i[1], j[1], k[0], k[1], i[2], j[2]}) order.push_back(l);
  s.reorder(order);
  if (!batch.empty()) s.bind(batch.size() == 1 ? batch[0] : s.fuse(batch), "blockIdx.z");
  s.bind(i[0], "blockIdx.y");
  s.bind(j[0], "blockIdx.x");
  s.bind(i[1], "threadIdx.y");
  s.bind(j[1], "threadIdx.x");
  const LoopRef& thread = j[1];

  // The register copies are made first: cache_read places its copy at the root, between
  // the producer and the reader.
  BlockRef a_shared = s.cache_read(mm, read_index(s, mm, m.a), "shared");
  BlockRef b_shared = s.cache_read(mm, read_index(s, mm, m.b), "shared");
  // The square tiles (a thread copies at most kMaxPrefetched elements of them) are
  // stored k-major and prefetched. The narrow tiles' threads copy 24 to 34 elements each,
  // which prefetching would keep live in registers over the k step (attention's P @ V,
  // 128 x 8: 85 -> 128 registers; whether that pays is not measured yet); they keep the
  // operands' layout, in which their copies' shared stores stay contiguous, so that the
  // global loads stay vector loads without the prefetch's registers between them.
  const bool prefetch = (t.bm * t.bk + t.bk * t.bn) / t.threads() <= kMaxPrefetched;
  if (prefetch) {
    stage_k_major(s, a_shared, matmul, match.a, matmul->iter_vars[m.i]->var,
                  matmul->iter_vars[m.k]->var);
    stage_k_major(s, b_shared, matmul, match.b, matmul->iter_vars[m.j]->var,
                  matmul->iter_vars[m.k]->var);
  }
  for (const BlockRef& shared : {a_shared, b_shared}) {
    Buffer tile = s.get_block_realize(shared)->block->writes[0]->buffer;
    BlockRef local = s.cache_read(mm, read_index(s, mm, tile), "local");
    s.compute_at(local, k[1]);
    unroll_all(s, loops_below(s, local, k[1]));
  }
  s.compute_at(a_shared, k[0]);
  s.compute_at(b_shared, k[0]);
  cooperative_copy(s, a_shared, k[0], t);
  cooperative_copy(s, b_shared, k[0], t);
  // The accumulator: the matmul's result itself where an epilogue follows (it is in
  // registers already), else (and always for split-K's partial results) a register copy
  // written back after the k loops: the padded result's crop, or a new one.
  std::vector<std::string> after = split_k ? std::vector<std::string>{} : m.epilogue;
  if (after.empty())
    after.push_back(writeback ? writeback->name : s.cache_write(mm, 0, "local").name);
  if (split_k) schedule_partial_sum(s, s.get_block(m.block), m.epilogue);
  for (const std::string& name : after) {
    BlockRef block = s.get_block(name);
    s.reverse_compute_at(block, thread);
    unroll_all(s, loops_below(s, block, thread));
  }
  if (!split_k) {
    for (const std::string& name : m.epilogue) stage_epilogue_params(s, s.get_block(name), thread);
  }
  unroll_all(s, {k[1], i[2], j[2]});
  // The accumulators start at zero before the k loops (in copies of the unrolled tile
  // loops), not under a test of the k step in the innermost loop.
  s.decompose_reduction(mm, k[0]);
  // Each k step's tile copies load the next step's tiles while this one computes.
  if (prefetch) s.annotate(k[0], "prefetch_tile_copies", AttrValue::integer(1));
  // The padded operands are read in the copies of their tiles.
  for (const BlockRef& pad : pads) s.compute_inline(pad);
  return s.func();
}

namespace {

std::optional<PrimFunc> apply_matmul(const PrimFunc& func, const Target& target) {
  std::optional<MatmulMatch> m = match_matmul(func);
  if (!m) return std::nullopt;
  std::optional<MatmulTiles> tiles = choose_matmul_tiles(*m, target);
  if (!tiles) return std::nullopt;
  return schedule_matmul(func, *m, *tiles);
}

}  // namespace

GpuScheduleRule matmul_rule() { return {"matmul", &apply_matmul}; }

}  // namespace relaxc::tir
