// Helpers shared by the schedule primitives: finding a loop or block in a PrimFunc's
// body, replacing one statement and rebuilding its ancestors, and the questions every
// legality check asks (which blocks sit under a loop, which iteration variables depend
// on which loop variables).
#pragma once
#include <functional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/tir/functor.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir::schedule_internal {

// The statements from the function body (front) down to a target statement (back),
// each the parent of the next. A path to a block realize passes through the Block
// nodes of the enclosing blocks (BlockRealize -> Block -> body ...).
using StmtPath = std::vector<Stmt>;

// The path to the For whose loop variable is `loop_var`; empty if there is none.
StmtPath find_loop_path(const Stmt& body, const Var& loop_var);
// The path to the BlockRealize of the block named `name`; empty if there is none.
StmtPath find_block_path(const Stmt& body, const std::string& name);

// The body with `path.back()` replaced by `replacement`, its ancestors rebuilt (and
// nothing else). A null `replacement` removes the statement; its parent must then be a
// SeqStmt (the sequence shrinks, or becomes its one remaining statement). A SeqStmt
// replacement inside a SeqStmt is flattened into it.
Stmt replace_in_path(const StmtPath& path, const Stmt& replacement);
// `func` with its body replaced.
PrimFunc with_body(const PrimFunc& func, Stmt body);

// The root block of `func` (its body when that is the realize of a block without
// iteration variables), or null.
const BlockNode* root_block(const PrimFunc& func);
// Whether `realize` is the function's root block realize.
bool is_root(const PrimFunc& func, const BlockRealizeNode* realize);

// The block realizes under `stmt` (itself included), in program order, nested blocks
// after their parent.
std::vector<BlockRealize> blocks_under(const Stmt& stmt);
// The loops on `path` below its last Block (outermost first): for a path to a block
// realize, the loops of that block within its parent block.
std::vector<For> loops_on_path(const StmtPath& path);

// `body` with `condition` and-ed to the predicate of each outermost block realize under
// it (the tail guard of a split); a body without blocks is wrapped in `if condition:`.
Stmt add_predicate(const Stmt& body, const PrimExpr& condition);
// Whether a block predicate is absent or the constant true.
bool is_true_predicate(const PrimExpr& predicate);

// What the blocks directly realized under a loop bind to its loop variable.
struct LoopIterUse {
  bool spatial = false;  // some spatial iter var's value uses the loop var
  bool reduce = false;   // some reduction (or scan/opaque) iter var's value uses it
  // The first block whose reduction iter var uses the loop var (for messages), or "".
  std::string reduce_block;
};
// The kinds of the iteration variables, of every block under `loop`, whose bound
// values depend on `loop`'s variable.
LoopIterUse loop_iter_use(const For& loop);

// Replaces every use of buffer `from` (loads, stores, regions, allocations) by `to`.
class BufferReplacer : public Mutator {
 public:
  BufferReplacer(Buffer from, Buffer to) : from_(std::move(from)), to_(std::move(to)) {}

 protected:
  Buffer mutate_node(const BufferNode* node) override {
    if (node == from_.get()) return to_;
    return Mutator::mutate_node(node);
  }

 private:
  Buffer from_, to_;
};

// The path to the statement that holds the block realize at `path` and its own loops:
// the outermost of the loops directly around it (each the only statement of its
// parent), or the realize itself. Removing it removes the block with its loops.
StmtPath own_nest_path(const StmtPath& path);

// A name starting with `base` that no block or buffer of `func` has.
std::string unique_name(const PrimFunc& func, const std::string& base);
// A block named `name`, alone in its own loop nest over `shape` (loops ax0, ax1, ..., each
// bound to a spatial iteration variable v0, v1, ...), that stores `value(v0, v1, ...)` into
// `dst` at (v0, v1, ...); its regions are derived from its accesses.
Stmt store_nest(const std::string& name, const Buffer& dst, const std::vector<PrimExpr>& shape,
                const std::function<PrimExpr(const std::vector<PrimExpr>&)>& value);
// store_nest copying `src` into `dst` over `shape`.
Stmt copy_nest(const std::string& name, const Buffer& src, const Buffer& dst,
               const std::vector<PrimExpr>& shape);

// "loop 'i_0'": how messages name a loop.
std::string loop_name(const Var& loop_var);

}  // namespace relaxc::tir::schedule_internal
