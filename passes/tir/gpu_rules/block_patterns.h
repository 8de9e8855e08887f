// Block shapes that several rules of the default GPU schedule recognize (gpu_rule.h):
// spatial blocks, blocks in a perfect loop nest of their own, loads at given indices,
// parameters, a block's reads and loops, copies spread over a thread block, two schedules under a
// condition; the inlining of a function's spatial producers that they share; and the kernel that
// sums partial results (split-K's, a two-pass column reduction's).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/tir/stmt.h"
#include "passes/tir/schedule/schedule.h"

namespace relaxc::tir {

// Whether `block` has only spatial iteration variables and no init.
bool is_spatial(const BlockNode& block);

// The loops of block `name`, when they form a perfect nest around it alone, from 0, and
// its iteration values are their variables in order (no predicate); otherwise nullopt.
std::optional<std::vector<For>> simple_nest(const PrimFunc& func, const std::string& name);

// Whether `body` loads `buffer` only at `indices` (the same expressions).
bool loads_only_at(const Stmt& body, const BufferNode* buffer,
                   const std::vector<PrimExpr>& indices);

// Whether `buffer` is bound to a parameter of `func`.
bool is_param(const PrimFunc& func, const Buffer& buffer);

// The position of `buffer` among the reads of `block`, or -1.
int read_index(const Schedule& s, const BlockRef& block, const Buffer& buffer);

// The loops of `block` below `loop`, outermost first (none where `loop` is not one of them).
std::vector<LoopRef> loops_below(const Schedule& s, const BlockRef& block, const LoopRef& loop);

// Whether `e` uses any of `vars`.
bool uses_any(const PrimExpr& e, const std::vector<Var>& vars);

// The parameters that `block` reads (but `skip`) only at indices that use none of
// `vars`: values that every output along those variables reads alike (a bias, a layer
// norm's gamma, a window's weights), in the order of their first load.
std::vector<Buffer> block_invariant_params(const PrimFunc& func, const BlockNode& block,
                                           const std::vector<Var>& vars, const Buffer& skip);

// The bytes that `copy`, computed at `at`, writes per iteration of it; nullopt where that
// is not a constant.
std::optional<int64_t> tile_bytes(const Schedule& s, const BlockRef& copy, const LoopRef& at);

// The copy `copy`, computed at `at` (a thread block's loop), spread over the thread
// block's `ty` x `tx` threads: its loops below `at` fused and split [ceil(E / (ty * tx)),
// ty, tx] onto threadIdx.y and threadIdx.x (threadIdx.x alone where `ty` is 1), with a
// tail guard where they do not divide its E elements.
void cooperative_copy(Schedule& s, const BlockRef& copy, const LoopRef& at, int64_t ty, int64_t tx);

// Inlines every spatial block of `s` but its last block into their consumers
// (compute_inline), so that their values live in registers; false, leaving `s` part way,
// where one cannot be (a second output, a store that is not injective).
bool inline_spatial_producers(Schedule& s);

// One function that runs `then_func` where `condition` holds and `else_func` otherwise:
// two schedules of the same function (the same parameters), their root blocks' bodies
// under one `if` (which split_host_device turns into the launches' conditions), their
// allocations together. The else branch's allocations get data of their own: a buffer
// that both schedules kept (an intermediate, in its scope in each) would otherwise be
// one allocation in two kernels.
PrimFunc branch_on(const PrimExpr& condition, const PrimFunc& then_func, const PrimFunc& else_func);

// A reduction over columns split over thread blocks in two passes, where its outputs
// alone would leave a GPU idle (the column reduction rule's R.sum(x, axis=0), the GEMV
// rule's x @ W): thread blocks enough to occupy a large GPU are two of 256 threads per
// multiprocessor of an H100 (132), a quarter of the threads it holds, each thread with a
// serial loop of loads; a thread of the first pass sums at least kMinSliceRows rows, so
// that the partial results add at most 2 / kMinSliceRows (3%) to the traffic.
constexpr int64_t kBlocksToFillGpu = 2 * 132;
constexpr int64_t kMinSliceRows = 64;

// B, the thread blocks per tile of outputs of the first pass: the most, up to what brings
// `blocks` (those of one pass) to kBlocksToFillGpu, for which S = B * `y` divides the
// constant `reduced` extent into slices of at least kMinSliceRows; 1 (one pass) where
// there are blocks enough already, or a count is not known (null `reduced`, `blocks` < 0).
int64_t slice_blocks(int64_t blocks, const int64_t* reduced, int64_t y);

// The first pass's threads: `x` adjacent outputs on threadIdx.x, `y` slices on
// threadIdx.y, of `slices` (= B * y) in all.
struct ColumnSlices {
  int64_t x, y, slices;
};

// The two passes: `block` (a perfect nest: `p` spatial loops, the last over adjacent
// outputs, then reduction loops over K elements in all; C[..] = C[..] op x with op one that
// rfactor takes) has its reduction loops fused and split [S, K / S] (S must divide K), and
// rfactor makes `<block>_rf` sum each slice into P[s, ..], a workspace. Its innermost
// output loop splits [ceil(W / x), x] onto threadIdx.x, its slices [B, y] with y on
// threadIdx.y, and blockIdx.x takes the other output loops, the output tiles and B: each
// thread sums its slice of its column serially in a register (initialized before the
// loop), no barrier, no shared memory, and writes it once. The second kernel (schedule_partial_sum)
// sums each output's S partials on one thread, the blocks `epilogue` computed on it.
void schedule_column_slices(Schedule& s, const BlockRef& block, size_t p,
                            const ColumnSlices& threads, const std::vector<std::string>& epilogue);

// The second kernel of a reduction split over thread blocks: `sum` (rfactor's write-back,
// C[..] = op over s of P[s, ..]: its spatial loops, then the loop over the partial
// results) one thread per output, kPartialSumThreads outputs per thread block (within
// every target's limit), with the blocks `epilogue` (spatial, reading C at their own
// iteration variables) computed on each thread's result in unrolled loops. Each thread
// accumulates in a register: C itself where there is an epilogue, else a copy that it
// writes once (cache_write), set to the identity before the loop (decompose_reduction:
// no test of the first step in the loop).
constexpr int64_t kPartialSumThreads = 128;
void schedule_partial_sum(Schedule& s, const BlockRef& sum,
                          const std::vector<std::string>& epilogue);

}  // namespace relaxc::tir
