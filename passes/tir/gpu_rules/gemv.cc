// The GEMV rule: a matmul with at most 4 rows (decode-style: one token's activations
// times a weight matrix; matmul_analysis.h) and its elementwise epilogue, as one kernel
// whose threads split the reduction and combine it across threads.
//
// The weight (B) is read once, so the schedule is about reading it at full bandwidth:
// - k-contiguous weight (B[.., j, k], as x @ W^T stores it): one thread block per output
//   element, its T threads (threadIdx.x) striding over k, each reading 4 consecutive
//   elements per step (k split [K / (4T), T, 4], the 4 unrolled: contiguous loads the
//   back ends may merge into one vector load); the partial sums meet in a cross-thread
//   reduction (warp shuffles on CUDA, a shared-memory tree otherwise);
// - column-contiguous weight (B[.., k, j], as x @ W stores it): 32 output columns per
//   thread block on threadIdx.x, so that a warp reads 32 consecutive weights of one row,
//   and TY groups of threads (threadIdx.y) splitting k, combined across threadIdx.y.
//   Where those tiles leave a GPU idle (fewer than kBlocksToFillGpu thread blocks,
//   block_patterns.h) and a constant k splits into slices of at least kMinSliceRows, k splits over
//   thread blocks too, in two passes (schedule_column_slices): each thread sums a slice of its
//   column into a workspace, and a second kernel sums the slices and runs the epilogue.
//   x @ W over a 4096 x 4096 W: 128 blocks in one pass, 256 in two, the partials 0.8% of
//   the traffic.
// Rows and batch dimensions go to blockIdx.x with the columns. The epilogue runs under
// the output's thread loop (or the thread block, for a k-contiguous weight) on one thread
// of the threads that shared the reduction (a unit loop bound to their axis, which the
// kernel lowering guards to index 0): the reduction's result is in shared memory, and
// each output is written once.
// Symbolic sizes work through split's tail guards; threads stay within the target's limit.
// Where the rows (of all batches together) are symbolic, the function is specialized by
// shape: the GEMV where they are at most 4 (a batch of one), the matmul rule's tiles
// otherwise (the rule declines where the matmul rule does), the two schedules under one
// `if` on the host, which split_host_device turns into the launches' conditions.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/gpu_rules/matmul_analysis.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

constexpr int64_t kMaxRows = 4;
constexpr int64_t kWarp = 32;
constexpr int64_t kLoadWidth = 4;

PrimExpr index_const(const Var& like, int64_t value) { return int_imm(like->dtype, value); }

int64_t threads_for(int64_t wanted, const Target& target) {
  int64_t threads = 1;
  while (threads * 2 <= std::min(wanted, target.max_threads_per_block)) threads *= 2;
  return threads;
}

// `func` scheduled as a GEMV, whatever its number of rows.
std::optional<PrimFunc> schedule_gemv(const PrimFunc& func, const MatmulMatch& m,
                                      const Target& target) {
  if (target.max_threads_per_block < kWarp) return std::nullopt;
  bool along_k = m.b_along_k;
  Schedule s(func);
  BlockRef mm = s.get_block(m.block);
  std::vector<LoopRef> loops = s.get_loops(mm);
  const int64_t groups = threads_for(8 * kWarp, target) / kWarp;
  if (!along_k) {
    // Fewer constant columns than a warp would clip the column tile (see matmul.cc).
    const int64_t* cols = as_const_int(m.cols);
    if (cols != nullptr && *cols < kWarp) return std::nullopt;
    // Two passes where the column tiles leave a GPU idle: the batches, rows (1 where
    // symbolic: at most 4), j, then k, as schedule_column_slices takes them.
    int64_t blocks = -1;
    if (cols != nullptr) {
      blocks = (*cols + kWarp - 1) / kWarp;
      for (size_t b : m.batch) {
        const int64_t* extent = as_const_int(s.get_for(loops[b])->extent);
        blocks = extent != nullptr ? blocks * *extent : -1;
      }
      if (const int64_t* rows = as_const_int(m.rows); rows != nullptr && blocks > 0)
        blocks *= *rows;
    }
    if (const int64_t b = slice_blocks(blocks, as_const_int(m.depth), groups); b > 1) {
      set_intermediates_scope(s, m, "local");
      std::vector<LoopRef> order;
      for (size_t batch : m.batch) order.push_back(loops[batch]);
      for (size_t axis : {m.i, m.j, m.k}) order.push_back(loops[axis]);
      s.reorder(order);
      schedule_column_slices(s, mm, m.batch.size() + 2, {kWarp, groups, b * groups}, m.epilogue);
      return s.func();
    }
  }
  set_intermediates_scope(s, m, "shared");
  std::vector<LoopRef> spatial;
  for (size_t b : m.batch) spatial.push_back(loops[b]);
  spatial.push_back(loops[m.i]);
  const LoopRef& j = loops[m.j];
  const LoopRef& k = loops[m.k];
  LoopRef epilogue_at;
  std::string reduction_axis;  // the threads that split k
  if (along_k) {
    int64_t threads = threads_for(2 * kWarp, target);
    std::vector<LoopRef> kp =
        s.split(k, {PrimExpr(), index_const(k.var, threads), index_const(k.var, kLoadWidth)});
    spatial.push_back(j);
    std::vector<LoopRef> order = spatial;
    order.insert(order.end(), kp.begin(), kp.end());
    s.reorder(order);
    epilogue_at = s.fuse(spatial);
    s.bind(epilogue_at, "blockIdx.x");
    reduction_axis = "threadIdx.x";
    s.bind(kp[1], reduction_axis);
    s.unroll(kp[2]);
  } else {
    std::vector<LoopRef> jp = s.split(j, {PrimExpr(), index_const(j.var, kWarp)});
    std::vector<LoopRef> kp = s.split(k, {PrimExpr(), index_const(k.var, groups)});
    spatial.push_back(jp[0]);
    std::vector<LoopRef> order = spatial;
    for (const LoopRef& l : {jp[1], kp[1], kp[0]}) order.push_back(l);
    s.reorder(order);
    s.bind(s.fuse(spatial), "blockIdx.x");
    s.bind(jp[1], "threadIdx.x");
    reduction_axis = "threadIdx.y";
    s.bind(kp[1], reduction_axis);
    epilogue_at = jp[1];
  }
  for (const std::string& name : m.epilogue) {
    s.reverse_compute_at(s.get_block(name), epilogue_at);
    s.bind(s.add_unit_loop(s.get_block(name)), reduction_axis);
  }
  return s.func();
}

std::optional<PrimFunc> apply_gemv(const PrimFunc& func, const Target& target) {
  std::optional<MatmulMatch> m = match_matmul(func);
  if (!m) return std::nullopt;
  std::optional<std::vector<For>> loops = simple_nest(func, m->block);
  if (!loops) return std::nullopt;
  PrimExpr rows = m->rows;  // of all batches
  for (size_t b : m->batch) rows = rows * (*loops)[b]->extent;
  arith::Analyzer analyzer;
  rows = analyzer.simplify(rows);
  if (const int64_t* constant = as_const_int(rows)) {
    if (*constant > kMaxRows) return std::nullopt;
    return schedule_gemv(func, *m, target);
  }
  // Symbolic rows: the GEMV where they are few, the matmul rule's tiles otherwise.
  std::optional<PrimFunc> tiled = matmul_rule().apply(func, target);
  if (!tiled) return std::nullopt;
  std::optional<PrimFunc> gemv = schedule_gemv(func, *m, target);
  if (!gemv) return std::nullopt;
  return branch_on(le(rows, int_imm(rows->dtype, kMaxRows)), *gemv, *tiled);
}

}  // namespace

GpuScheduleRule gemv_rule() { return {"gemv", &apply_gemv}; }

}  // namespace relaxc::tir
