// The blocks of one block scope and their dependences through buffers, for the schedule
// primitives that move or add blocks (cache_read, cache_write, compute_at).
#pragma once
#include <unordered_set>
#include <vector>

#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir::schedule_internal {

using BufferSet = std::unordered_set<const BufferNode*>;

// The buffers of `regions`.
BufferSet buffers_of(const std::vector<BufferRegion>& regions);
// Whether one of `regions` is of a buffer in `buffers`.
bool touches_any(const std::vector<BufferRegion>& regions, const BufferSet& buffers);

// The statements of a body: the items of a SeqStmt, or the body itself.
std::vector<Stmt> stmts_of(const Stmt& body);

// The block realizes under `stmt` in its block scope (not those inside nested blocks),
// in program order.
std::vector<BlockRealize> child_blocks(const Stmt& stmt);

// The innermost block on `path`: the scope its last statement lies in (null if none).
const BlockNode* innermost_block(const StmtPath& path);

}  // namespace relaxc::tir::schedule_internal
