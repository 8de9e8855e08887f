// The blocks of one block scope and their dependences through buffers.
#include "passes/tir/schedule/block_scope.h"

#include <algorithm>

#include "ir/tir/functor.h"

namespace relaxc::tir::schedule_internal {
namespace {

void collect_child_blocks(const Stmt& stmt, std::vector<BlockRealize>& out, int& depth) {
  if (!stmt.defined()) return;
  NestingGuard guard(depth, stmt.get());
  if (const auto* realize = stmt.as<BlockRealizeNode>()) {
    out.emplace_back(realize);
  } else if (const auto* loop = stmt.as<ForNode>()) {
    collect_child_blocks(loop->body, out, depth);
  } else if (const auto* seq = stmt.as<SeqStmtNode>()) {
    for (const Stmt& s : seq->seq) collect_child_blocks(s, out, depth);
  } else if (const auto* let = stmt.as<LetStmtNode>()) {
    collect_child_blocks(let->body, out, depth);
  } else if (const auto* branch = stmt.as<IfThenElseNode>()) {
    collect_child_blocks(branch->then_case, out, depth);
    collect_child_blocks(branch->else_case, out, depth);
  } else if (const auto* loop = stmt.as<WhileNode>()) {
    collect_child_blocks(loop->body, out, depth);
  } else if (const auto* alloc = stmt.as<AllocateNode>()) {
    collect_child_blocks(alloc->body, out, depth);
  }
}

}  // namespace

BufferSet buffers_of(const std::vector<BufferRegion>& regions) {
  BufferSet out;
  for (const BufferRegion& r : regions) out.insert(r->buffer.get());
  return out;
}

bool touches_any(const std::vector<BufferRegion>& regions, const BufferSet& buffers) {
  return std::any_of(regions.begin(), regions.end(),
                     [&](const BufferRegion& r) { return buffers.count(r->buffer.get()) != 0; });
}

std::vector<Stmt> stmts_of(const Stmt& body) {
  if (const auto* seq = body.as<SeqStmtNode>()) return seq->seq;
  return {body};
}

std::vector<BlockRealize> child_blocks(const Stmt& stmt) {
  std::vector<BlockRealize> out;
  int depth = 0;
  collect_child_blocks(stmt, out, depth);
  return out;
}

const BlockNode* innermost_block(const StmtPath& path) {
  const BlockNode* found = nullptr;
  for (const Stmt& s : path) {
    if (const auto* block = s.as<BlockNode>()) found = block;
  }
  return found;
}

}  // namespace relaxc::tir::schedule_internal
