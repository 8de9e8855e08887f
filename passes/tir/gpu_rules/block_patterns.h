// Block shapes that several rules of the default GPU schedule recognize (gpu_rule.h):
// spatial blocks, blocks in a perfect loop nest of their own, loads at given indices,
// parameters, a block's reads and loops; the inlining of a function's spatial producers
// that they share; and the kernel that sums partial results (split-K's, a two-pass column
// reduction's).
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

// Inlines every spatial block of `s` but its last block into their consumers
// (compute_inline), so that their values live in registers; false, leaving `s` part way,
// where one cannot be (a second output, a store that is not injective).
bool inline_spatial_producers(Schedule& s);

// The second kernel of a reduction split over thread blocks: `sum` (rfactor's write-back,
// C[..] = op over s of P[s, ..]: its spatial loops, then the loop over the partial
// results) one thread per output, kPartialSumThreads outputs per thread block (within
// every target's limit), with the blocks `epilogue` (spatial, reading C at their own
// iteration variables) computed on each thread's result in unrolled loops. Each thread
// accumulates in a register: C itself where there is an epilogue, else a copy that it
// writes once (cache_write).
constexpr int64_t kPartialSumThreads = 128;
void schedule_partial_sum(Schedule& s, const BlockRef& sum,
                          const std::vector<std::string>& epilogue);

}  // namespace relaxc::tir
