// Schedule: construction and the queries that name loops and blocks.
#include "passes/tir/schedule/schedule.h"

#include <utility>

#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

Schedule::Schedule(PrimFunc func) : func_(std::move(func)) {
  RELAXC_ICHECK(func_.defined()) << "a schedule of a null function";
}

BlockRef Schedule::get_block(const std::string& name) const {
  StmtPath path = find_block_path(func_->body, name);
  if (path.empty() || is_root(func_, path.back().as<BlockRealizeNode>())) {
    user_error(func_->span) << "no block named '" << name << "' in the function";
  }
  return BlockRef{name};
}

std::vector<BlockRef> Schedule::get_blocks() const {
  std::vector<BlockRef> blocks;
  for (const BlockRealize& realize : blocks_under(func_->body)) {
    if (is_root(func_, realize.get())) continue;
    blocks.push_back(BlockRef{realize->block->name});
  }
  return blocks;
}

std::vector<LoopRef> Schedule::get_loops(const BlockRef& block) const {
  StmtPath path = find_block_path(func_->body, block.name);
  if (path.empty())
    user_error(func_->span) << "no block named '" << block.name << "' in the function";
  path.pop_back();  // the block's own realize: its loops are above it
  std::vector<LoopRef> loops;
  for (const For& loop : loops_on_path(path)) loops.push_back(LoopRef{loop->loop_var});
  return loops;
}

For Schedule::get_for(const LoopRef& loop) const {
  if (!loop.var.defined()) user_error(func_->span) << "a null loop handle";
  StmtPath path = find_loop_path(func_->body, loop.var);
  if (path.empty()) {
    user_error(loop.var->span) << loop_name(loop.var)
                               << " no longer exists in the function (a split or fuse replaced "
                                  "it; use the handles that primitive returned)";
  }
  return path.back().cast<ForNode>();
}

BlockRealize Schedule::get_block_realize(const BlockRef& block) const {
  StmtPath path = find_block_path(func_->body, block.name);
  if (path.empty())
    user_error(func_->span) << "no block named '" << block.name << "' in the function";
  return path.back().cast<BlockRealizeNode>();
}

}  // namespace relaxc::tir
