// The elementwise / injective rule: a function whose blocks are all spatial (an injective
// chain, as FuseTIR makes of fused elementwise, broadcast and layout operators: several
// blocks at the root, their intermediates root buffers) becomes one kernel.
//
// Recognized by its blocks: every block sits directly in the root block and has only
// spatial iteration variables and no init; each loop of the last block binds one. Every block but
// the last is inlined (compute_inline) into the blocks after it, so that each intermediate value
// lives in a register and the kernel reads each input once and writes its output once; the rule
// declines when one cannot be (a second output, a non-injective store). The last
// block's loops are fused into one loop of extent E and split:
// - [E / (4 T), T, 4] with the inner 4 vectorized, when every buffer the block accesses
//   holds 32-bit elements, the target has 4-lane vectors and 4 T provably divides E
//   (T a power of two from 256, or the target's thread limit, down to 32; or E / 4 when
//   that is smaller): 128-bit accesses without a tail guard (a guard inside the vector
//   loop would make it scalar). legalize_vector_loops keeps the loop a vector loop where
//   its stores are contiguous;
// - [ceil(E / T), T] otherwise, with a tail guard where T does not divide E.
// The outer loop is bound to blockIdx.x and the next to threadIdx.x. A grid beyond the
// target's limit is split_host_device's to fit (an overflow axis or a grid-stride loop).
#include <algorithm>
#include <optional>
#include <string>

#include "ir/arith/analyzer.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

constexpr int64_t kMaxThreads = 256;
constexpr int kLanes = 4;

bool all_32_bit(const BlockNode& block) {
  auto is_32 = [](const BufferRegion& r) { return r->buffer->dtype.bits() == 32; };
  return std::all_of(block.reads.begin(), block.reads.end(), is_32) &&
         std::all_of(block.writes.begin(), block.writes.end(), is_32);
}

// The threads per block of a vectorized schedule of `extent` elements, or 0 when 4 lanes
// times the threads cannot provably divide it.
int64_t vector_threads(const PrimExpr& extent, int64_t max_threads) {
  arith::Analyzer analyzer;
  DataType t = extent->dtype;
  if (const int64_t* e = as_const_int(extent);
      e != nullptr && *e % kLanes == 0 && *e / kLanes <= max_threads) {
    return *e / kLanes;
  }
  for (int64_t threads = max_threads; threads >= 32; threads /= 2) {
    if (analyzer.can_prove(eq(floormod(extent, int_imm(t, kLanes * threads)), int_imm(t, 0)))) {
      return threads;
    }
  }
  return 0;
}

std::optional<PrimFunc> apply(const PrimFunc& func, const Target& target) {
  const BlockNode* root = root_block(func);
  if (root == nullptr) return std::nullopt;
  std::vector<BlockRealize> blocks = child_blocks(root->body);
  if (blocks.empty() || blocks.size() + 1 != blocks_under(func->body).size()) return std::nullopt;
  for (const BlockRealize& realize : blocks) {
    if (!is_spatial(*realize->block)) return std::nullopt;
  }
  Schedule s(func);
  // Not a chain of injective producers otherwise: the generic schedule's.
  if (!inline_spatial_producers(s)) return std::nullopt;
  BlockRef last{blocks.back()->block->name};
  StmtPath path = find_block_path(s.func()->body, last.name);
  std::vector<For> loops = loops_on_path(StmtPath(path.begin(), path.end() - 1));
  if (loops.empty()) return std::nullopt;
  for (size_t i = 0; i < loops.size(); ++i) {
    const Stmt& inner = i + 1 < loops.size() ? Stmt(loops[i + 1]) : path.back();
    if (!loops[i]->body.same_as(inner)) return std::nullopt;  // not a perfect nest
    // A loop that no iteration variable uses repeats the block: its iterations on
    // parallel threads could race; the generic schedule explains the refusal.
    if (!loop_iter_use(loops[i]).spatial) return std::nullopt;
  }
  std::vector<LoopRef> refs = s.get_loops(last);
  LoopRef fused = s.fuse(refs);
  PrimExpr extent = s.get_for(fused)->extent;
  DataType t = extent->dtype;
  int64_t max_threads = std::min(kMaxThreads, target.max_threads_per_block);
  int64_t threads =
      target.max_vector_lanes >= kLanes && all_32_bit(*s.get_block_realize(last)->block)
          ? vector_threads(extent, max_threads)
          : 0;
  if (threads > 0) {
    std::vector<LoopRef> parts =
        s.split(fused, {PrimExpr(), int_imm(t, threads), int_imm(t, kLanes)});
    s.bind(parts[0], "blockIdx.x");
    s.bind(parts[1], "threadIdx.x");
    s.vectorize(parts[2]);
    return s.func();
  }
  threads = max_threads;
  if (const int64_t* e = as_const_int(extent))
    threads = std::max<int64_t>(1, std::min(threads, *e));
  std::vector<LoopRef> parts = s.split(fused, {PrimExpr(), int_imm(t, threads)});
  s.bind(parts[0], "blockIdx.x");
  s.bind(parts[1], "threadIdx.x");
  return s.func();
}

}  // namespace

GpuScheduleRule elementwise_rule() { return {"elementwise", &apply}; }

}  // namespace relaxc::tir
