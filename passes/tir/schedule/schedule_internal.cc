// Helpers shared by the schedule primitives: statement paths, replacement, block and
// loop-variable queries.
#include "passes/tir/schedule/schedule_internal.h"

#include <functional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"

namespace relaxc::tir::schedule_internal {
namespace {

// Calls fn on each direct child statement of `stmt`, in program order (a block's init
// before its body).
void for_each_child(const Stmt& stmt, const std::function<void(const Stmt&)>& fn) {
  if (const auto* loop = stmt.as<ForNode>()) {
    fn(loop->body);
  } else if (const auto* seq = stmt.as<SeqStmtNode>()) {
    for (const Stmt& s : seq->seq) fn(s);
  } else if (const auto* let = stmt.as<LetStmtNode>()) {
    fn(let->body);
  } else if (const auto* branch = stmt.as<IfThenElseNode>()) {
    fn(branch->then_case);
    if (branch->else_case.defined()) fn(branch->else_case);
  } else if (const auto* loop = stmt.as<WhileNode>()) {
    fn(loop->body);
  } else if (const auto* alloc = stmt.as<AllocateNode>()) {
    fn(alloc->body);
  } else if (const auto* block = stmt.as<BlockNode>()) {
    if (block->init.defined()) fn(block->init);
    fn(block->body);
  } else if (const auto* realize = stmt.as<BlockRealizeNode>()) {
    fn(realize->block);
  }
}

// Depth-first search for the first statement satisfying `match`; fills `path` with the
// statements from `stmt` down to it and returns true when found.
bool find_path(const Stmt& stmt, const std::function<bool(const Stmt&)>& match, StmtPath& path,
               int& depth) {
  if (!stmt.defined()) return false;
  NestingGuard guard(depth, stmt.get());
  path.push_back(stmt);
  if (match(stmt)) return true;
  bool found = false;
  for_each_child(stmt, [&](const Stmt& child) {
    if (!found) found = find_path(child, match, path, depth);
  });
  if (!found) path.pop_back();
  return found;
}

void collect_blocks(const Stmt& stmt, std::vector<BlockRealize>& out, int& depth) {
  if (!stmt.defined()) return;
  NestingGuard guard(depth, stmt.get());
  if (const auto* realize = stmt.as<BlockRealizeNode>()) out.emplace_back(realize);
  for_each_child(stmt, [&](const Stmt& child) { collect_blocks(child, out, depth); });
}

// `parent` with its child `old_child` replaced by `new_child` (null: removed, in a
// SeqStmt only).
Stmt replace_child(const Stmt& parent, const Stmt& old_child, const Stmt& new_child) {
  if (const auto* seq = parent.as<SeqStmtNode>()) {
    std::vector<Stmt> items;
    bool replaced = false;
    for (const Stmt& s : seq->seq) {
      if (!replaced && s.same_as(old_child)) {
        replaced = true;
        if (new_child.defined()) items.push_back(new_child);
      } else {
        items.push_back(s);
      }
    }
    RELAXC_ICHECK(replaced) << "the path's statement is not in its parent sequence";
    RELAXC_ICHECK(!items.empty()) << "removing the only statement of a sequence";
    return seq_stmt(std::move(items), seq->span);
  }
  RELAXC_ICHECK(new_child.defined()) << "a statement can be removed from a sequence only";
  if (const auto* loop = parent.as<ForNode>()) {
    auto* copy = copy_node(*loop);
    copy->body = new_child;
    return Stmt(copy);
  }
  if (const auto* let = parent.as<LetStmtNode>()) {
    auto* copy = copy_node(*let);
    copy->body = new_child;
    return Stmt(copy);
  }
  if (const auto* branch = parent.as<IfThenElseNode>()) {
    auto* copy = copy_node(*branch);
    if (branch->then_case.same_as(old_child)) {
      copy->then_case = new_child;
    } else {
      copy->else_case = new_child;
    }
    return Stmt(copy);
  }
  if (const auto* loop = parent.as<WhileNode>()) {
    auto* copy = copy_node(*loop);
    copy->body = new_child;
    return Stmt(copy);
  }
  if (const auto* alloc = parent.as<AllocateNode>()) {
    auto* copy = copy_node(*alloc);
    copy->body = new_child;
    return Stmt(copy);
  }
  if (const auto* block = parent.as<BlockNode>()) {
    auto* copy = copy_node(*block);
    if (block->init.defined() && block->init.same_as(old_child)) {
      copy->init = new_child;
    } else {
      copy->body = new_child;
    }
    return Stmt(copy);
  }
  if (const auto* realize = parent.as<BlockRealizeNode>()) {
    Block block = new_child.cast<BlockNode>();
    RELAXC_ICHECK(block.defined()) << "a block realize's child must stay a block";
    auto* copy = copy_node(*realize);
    copy->block = block;
    return Stmt(copy);
  }
  RELAXC_UNREACHABLE() << "a " << node_kind_name(parent->Object::kind()) << " has no child";
}

// Adds a condition to the outermost block realizes it meets, without descending into them.
class PredicateAdder : public Mutator {
 public:
  explicit PredicateAdder(PrimExpr condition) : condition_(std::move(condition)) {}
  bool found_block = false;

 protected:
  Stmt mutate_node(const BlockRealizeNode* node) override {
    found_block = true;
    auto* copy = copy_node(*node);
    copy->predicate =
        is_true_predicate(node->predicate) ? condition_ : logical_and(node->predicate, condition_);
    return Stmt(copy);
  }

 private:
  PrimExpr condition_;
};

}  // namespace

StmtPath find_loop_path(const Stmt& body, const Var& loop_var) {
  StmtPath path;
  int depth = 0;
  auto match = [&](const Stmt& s) {
    const auto* loop = s.as<ForNode>();
    return loop != nullptr && loop->loop_var.same_as(loop_var);
  };
  if (!find_path(body, match, path, depth)) path.clear();
  return path;
}

StmtPath find_block_path(const Stmt& body, const std::string& name) {
  StmtPath path;
  int depth = 0;
  auto match = [&](const Stmt& s) {
    const auto* realize = s.as<BlockRealizeNode>();
    return realize != nullptr && realize->block->name == name;
  };
  if (!find_path(body, match, path, depth)) path.clear();
  return path;
}

Stmt replace_in_path(const StmtPath& path, const Stmt& replacement) {
  RELAXC_ICHECK(!path.empty()) << "replacing along an empty path";
  Stmt current = replacement;
  for (size_t i = path.size() - 1; i > 0; --i) {
    current = replace_child(path[i - 1], path[i], current);
  }
  RELAXC_ICHECK(current.defined()) << "removing the function body";
  return current;
}

PrimFunc with_body(const PrimFunc& func, Stmt body) {
  auto* copy = copy_node(*func);
  copy->body = std::move(body);
  return PrimFunc(copy);
}

const BlockNode* root_block(const PrimFunc& func) {
  const auto* realize = func->body.as<BlockRealizeNode>();
  if (realize == nullptr || !realize->block->iter_vars.empty()) return nullptr;
  return realize->block.get();
}

bool is_root(const PrimFunc& func, const BlockRealizeNode* realize) {
  return root_block(func) != nullptr && func->body.get() == realize;
}

std::vector<BlockRealize> blocks_under(const Stmt& stmt) {
  std::vector<BlockRealize> out;
  int depth = 0;
  collect_blocks(stmt, out, depth);
  return out;
}

std::vector<For> loops_on_path(const StmtPath& path) {
  std::vector<For> loops;
  for (const Stmt& s : path) {
    if (s.is<BlockNode>()) loops.clear();
    if (const auto* loop = s.as<ForNode>()) loops.emplace_back(loop);
  }
  return loops;
}

Stmt add_predicate(const Stmt& body, const PrimExpr& condition) {
  PredicateAdder adder(condition);
  Stmt result = adder.mutate(body);
  if (!adder.found_block) return if_then_else(condition, body, {}, body->span);
  return result;
}

bool is_true_predicate(const PrimExpr& predicate) {
  return !predicate.defined() || is_const_int(predicate, 1);
}

LoopIterUse loop_iter_use(const For& loop) {
  LoopIterUse use;
  for (const BlockRealize& realize : blocks_under(loop->body)) {
    const BlockNode& block = *realize->block;
    for (size_t i = 0; i < block.iter_vars.size() && i < realize->iter_values.size(); ++i) {
      if (!uses_var(realize->iter_values[i], loop->loop_var)) continue;
      if (block.iter_vars[i]->kind == IterKind::Spatial) {
        use.spatial = true;
      } else {
        if (!use.reduce) use.reduce_block = block.name;
        use.reduce = true;
      }
    }
  }
  return use;
}

StmtPath own_nest_path(const StmtPath& path) {
  size_t top = path.size() - 1;
  while (top > 0 && path[top - 1].is<ForNode>()) --top;
  return StmtPath(path.begin(), path.begin() + static_cast<long>(top) + 1);
}

std::string unique_name(const PrimFunc& func, const std::string& base) {
  std::unordered_set<std::string> taken;
  for (const auto& [param, buffer] : func->buffer_map) taken.insert(buffer->name);
  for (const BlockRealize& r : blocks_under(func->body)) {
    taken.insert(r->block->name);
    for (const Buffer& b : r->block->alloc_buffers) taken.insert(b->name);
  }
  std::string name = base;
  for (int suffix = 1; taken.count(name) != 0; ++suffix) {
    name = base + "_" + std::to_string(suffix);
  }
  return name;
}

Stmt store_nest(const std::string& name, const Buffer& dst, const std::vector<PrimExpr>& shape,
                const std::function<PrimExpr(const std::vector<PrimExpr>&)>& value) {
  std::vector<Var> loop_vars;
  std::vector<PrimExpr> iter_values, indices;
  auto* block = make_node<BlockNode>();
  block->name = name;
  for (size_t d = 0; d < shape.size(); ++d) {
    DataType dtype = shape[d]->dtype;
    loop_vars.push_back(var("ax" + std::to_string(d), dtype));
    iter_values.push_back(loop_vars.back());
    auto* iv = make_node<IterVarNode>();
    iv->var = var("v" + std::to_string(d), dtype);
    iv->dom = range(int_imm(dtype, 0), shape[d]);
    iv->kind = IterKind::Spatial;
    block->iter_vars.emplace_back(iv);
    indices.push_back(iv->var);
  }
  block->body = buffer_store(dst, value(indices), indices);
  complete_block_regions(block, /*reads=*/true, /*writes=*/true);
  Stmt nest = block_realize(iter_values, PrimExpr(), Block(block));
  for (size_t d = shape.size(); d-- > 0;) {
    nest = for_loop(loop_vars[d], int_imm(shape[d]->dtype, 0), shape[d], ForKind::Serial, nest);
  }
  return nest;
}

Stmt copy_nest(const std::string& name, const Buffer& src, const Buffer& dst,
               const std::vector<PrimExpr>& shape) {
  return store_nest(name, dst, shape, [&](const std::vector<PrimExpr>& indices) {
    return buffer_load(src, indices);
  });
}

std::string loop_name(const Var& loop_var) { return "loop '" + loop_var->name + "'"; }

}  // namespace relaxc::tir::schedule_internal
