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
// Rows and batch dimensions go to blockIdx.x with the columns. The epilogue runs under
// the output's thread loop (or the thread block, for a k-contiguous weight): the
// reduction's result is in shared memory, where every thread of the group sees it, and
// each of them computes the same epilogue value (one write per element, by any of them).
// Symbolic sizes work through split's tail guards; threads stay within the target's limit.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/gpu_rules/matmul_analysis.h"
#include "passes/tir/schedule/schedule.h"

namespace relaxc::tir {
namespace {

constexpr int64_t kMaxRows = 4;
constexpr int64_t kWarp = 32;
constexpr int64_t kLoadWidth = 4;

PrimExpr index_const(const Var& like, int64_t value) { return int_imm(like->dtype, value); }

int64_t threads_for(int64_t wanted, const Target& target) {
  int64_t threads = 1;
  while (threads * 2 <= std::min(wanted, target.max_threads_per_block)) threads *= 2;
  return threads;
}

std::optional<PrimFunc> apply_gemv(const PrimFunc& func, const Target& target) {
  std::optional<MatmulMatch> m = match_matmul(func);
  if (!m) return std::nullopt;
  const int64_t* rows = as_const_int(m->rows);
  if (rows == nullptr || *rows > kMaxRows) return std::nullopt;
  if (target.max_threads_per_block < kWarp) return std::nullopt;
  bool along_k = m->b_along_k;
  Schedule s(func);
  set_intermediates_scope(s, *m, "shared");
  BlockRef mm = s.get_block(m->block);
  std::vector<LoopRef> loops = s.get_loops(mm);
  std::vector<LoopRef> spatial;
  for (size_t b : m->batch) spatial.push_back(loops[b]);
  spatial.push_back(loops[m->i]);
  const LoopRef& j = loops[m->j];
  const LoopRef& k = loops[m->k];
  LoopRef epilogue_at;
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
    s.bind(kp[1], "threadIdx.x");
    s.unroll(kp[2]);
  } else {
    // Fewer constant columns than a warp would clip the column tile (see matmul.cc).
    const int64_t* cols = as_const_int(m->cols);
    if (cols != nullptr && *cols < kWarp) return std::nullopt;
    int64_t groups = threads_for(8 * kWarp, target) / kWarp;
    std::vector<LoopRef> jp = s.split(j, {PrimExpr(), index_const(j.var, kWarp)});
    std::vector<LoopRef> kp = s.split(k, {PrimExpr(), index_const(k.var, groups)});
    spatial.push_back(jp[0]);
    std::vector<LoopRef> order = spatial;
    for (const LoopRef& l : {jp[1], kp[1], kp[0]}) order.push_back(l);
    s.reorder(order);
    s.bind(s.fuse(spatial), "blockIdx.x");
    s.bind(jp[1], "threadIdx.x");
    s.bind(kp[1], "threadIdx.y");
    epilogue_at = jp[1];
  }
  for (const std::string& name : m->epilogue) s.reverse_compute_at(s.get_block(name), epilogue_at);
  return s.func();
}

}  // namespace

GpuScheduleRule gemv_rule() { return {"gemv", &apply_gemv}; }

}  // namespace relaxc::tir
