// compute_at and reverse_compute_at: move a block under a loop of its consumer (or
// producer), computing only the region needed (or produced) in one iteration of the loop.
//
// Algorithm.
// 1. The block and the loop share one block scope; every consumer of the block
//    (compute_at) or producer of it (reverse) lies under the loop, and no block between
//    the block's old and new places in program order writes what the block reads or
//    touches what it writes, so moving it keeps every value each block sees.
// 2. The insertion point in the loop's body: before the first child statement holding a
//    consumer (compute_at), after the last holding a producer (reverse).
// 3. The region: the hull of those blocks' read (write) regions of the buffers the block
//    writes (reads), with the loops between the loop and them relaxed to their ranges
//    and, for compute_at, the thread loops above the loop whose threads share the
//    buffer's scope relaxed too (region_analysis.h).
// 4. An iteration variable of the block that is a write (read) index of such a buffer
//    ranges over that dimension's bounds; the others keep their domains (reduction
//    variables always do). A new loop `axK` runs over each range whose extent is not
//    one, the iteration value becomes min + axK, and a predicate clips it where the
//    range may leave the domain (symbolic tails). reverse_compute_at also takes the
//    producers' guards that the loops around the new place decide (a split tail): where
//    they fail, nothing was produced to consume.
// 5. The loops that held only the block are removed and the new nest is inserted.
#include <algorithm>
#include <optional>
#include <unordered_set>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/region_analysis.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// The conjuncts of a predicate, left to right (a work list: a predicate may be long).
std::vector<PrimExpr> conjuncts_of(const PrimExpr& e) {
  std::vector<PrimExpr> out, pending{e};
  while (!pending.empty()) {
    PrimExpr next = pending.back();
    pending.pop_back();
    if (const auto* node = next.as<AndNode>()) {
      pending.push_back(node->b);
      pending.push_back(node->a);
    } else {
      out.push_back(next);
    }
  }
  return out;
}

class BlockMover {
 public:
  BlockMover(const PrimFunc& func, const BlockRef& block, const LoopRef& loop, bool reverse)
      : func_(func), reverse_(reverse), primitive_(reverse ? "reverse_compute_at" : "compute_at") {
    find_block_and_loop(block, loop);
  }

  PrimFunc run() {
    check_predicate_is_a_domain_guard();
    find_partners();
    find_insertion_point();
    check_program_order();
    compute_regions();
    Stmt nest = build_nest();
    return splice(nest);
  }

 private:
  std::string block_name() const { return "block '" + block_->name + "'"; }
  std::string partner_kind() const { return reverse_ ? "producer" : "consumer"; }

  void find_block_and_loop(const BlockRef& block, const LoopRef& loop) {
    block_path_ = find_block_path(func_->body, block.name);
    if (block_path_.empty()) {
      user_error(func_->span) << primitive_ << ": no block named '" << block.name
                              << "' in the function";
    }
    realize_ = block_path_.back().cast<BlockRealizeNode>();
    if (is_root(func_, realize_.get())) {
      user_error(func_->span) << primitive_ << " cannot move the root block";
    }
    block_ = realize_->block;
    if (!loop.var.defined()) user_error(func_->span) << primitive_ << ": a null loop handle";
    loop_path_ = find_loop_path(func_->body, loop.var);
    if (loop_path_.empty()) {
      user_error(loop.var->span) << primitive_ << ": " << loop_name(loop.var)
                                 << " no longer exists in the function";
    }
    loop_ = loop_path_.back().cast<ForNode>();
    for (const Stmt& s : block_path_) {
      if (s.same_as(loop_)) {
        user_error(block_->span) << primitive_ << ": " << block_name() << " is already under "
                                 << loop_name(loop_->loop_var) << "; pick a loop of its "
                                 << partner_kind() << " that does not enclose it";
      }
    }
    scope_ = innermost_block(block_path_);
    if (scope_ != innermost_block(loop_path_)) {
      user_error(loop_->span) << primitive_ << ": " << loop_name(loop_->loop_var)
                              << " is not in the block scope of " << block_name()
                              << " (one lies inside a block that the other is outside of)";
    }
    written_ = buffers_of(block_->writes);
    read_ = buffers_of(block_->reads);
  }

  // The realize's predicate refers to the loops being removed; it may only restate that
  // the iteration values stay in their domains (a split's tail guard), which the new
  // nest's own clipping restates.
  void check_predicate_is_a_domain_guard() {
    if (is_const_int(realize_->predicate, 1)) return;
    arith::Analyzer analyzer;
    for (const PrimExpr& c : conjuncts_of(realize_->predicate)) {
      if (!is_domain_guard(c, analyzer)) {
        user_error(realize_->span)
            << primitive_ << ": " << block_name() << " has the predicate " << text::print_node(c)
            << ", which is not a bound of an iteration value; it cannot "
               "be carried to the new loops";
      }
    }
  }

  bool is_domain_guard(const PrimExpr& c, arith::Analyzer& analyzer) const {
    const auto* lt = c.as<LTNode>();
    const auto* ge = c.as<GENode>();
    if (lt == nullptr && ge == nullptr) return false;
    const PrimExpr& value = lt != nullptr ? lt->a : ge->a;
    const PrimExpr& bound = lt != nullptr ? lt->b : ge->b;
    for (size_t i = 0; i < block_->iter_vars.size() && i < realize_->iter_values.size(); ++i) {
      const Range& dom = block_->iter_vars[i]->dom;
      if (!analyzer.can_prove_equal(value, realize_->iter_values[i])) continue;
      auto [first, count] = unify_int_dtypes(dom->min, dom->extent);
      PrimExpr limit = lt != nullptr ? first + count : dom->min;
      if (analyzer.can_prove_equal(bound, limit)) return true;
    }
    return false;
  }

  // The consumers (compute_at) or producers (reverse) of the block in its scope; all of
  // them must lie under the loop.
  void find_partners() {
    scope_blocks_ = child_blocks(scope_->body);
    children_ = stmts_of(loop_->body);
    std::unordered_set<const BlockNode*> under_loop;
    for (size_t i = 0; i < children_.size(); ++i) {
      for (const BlockRealize& r : child_blocks(children_[i])) {
        under_loop.insert(r->block.get());
        child_of_[r->block.get()] = i;
      }
    }
    for (const BlockRealize& r : scope_blocks_) {
      const BlockNode& other = *r->block;
      if (&other == block_.get()) continue;
      bool partner =
          reverse_ ? touches_any(other.writes, read_) : touches_any(other.reads, written_);
      if (!partner) continue;
      if (under_loop.count(&other) == 0) {
        user_error(block_->span) << primitive_ << ": " << block_name() << " has a "
                                 << partner_kind() << ", block '" << other.name << "', outside "
                                 << loop_name(loop_->loop_var) << "; all its " << partner_kind()
                                 << "s must be under the loop";
      }
      partners_.push_back(r);
    }
    if (partners_.empty()) {
      user_error(block_->span) << primitive_ << ": " << block_name() << " has no " << partner_kind()
                               << " under " << loop_name(loop_->loop_var);
    }
    if (!reverse_) {
      for (const auto& [param, buffer] : func_->buffer_map) {
        if (written_.count(buffer.get()) != 0) {
          user_error(block_->span)
              << "compute_at: " << block_name() << " writes '" << buffer->name
              << "', a parameter of the function; under " << loop_name(loop_->loop_var)
              << " it would compute only the part its consumers read";
        }
      }
    }
  }

  void find_insertion_point() {
    size_t first = children_.size(), last = 0;
    for (const BlockRealize& r : partners_) {
      size_t i = child_of_.at(r->block.get());
      first = std::min(first, i);
      last = std::max(last, i);
    }
    insert_at_ = reverse_ ? last + 1 : first;
  }

  // Between the old and the new place, no block may write what the block reads, or read
  // or write what it writes.
  void check_program_order() {
    auto index_of = [&](const BlockNode* b) {
      for (size_t i = 0; i < scope_blocks_.size(); ++i) {
        if (scope_blocks_[i]->block.get() == b) return i;
      }
      RELAXC_UNREACHABLE() << "a block of the scope is missing from it";
      return size_t{0};
    };
    size_t old_index = index_of(block_.get());
    size_t new_index = 0;  // the block's index once moved, before removal from the old place
    if (reverse_) {
      new_index = index_of(child_blocks(children_[insert_at_ - 1]).back()->block.get()) + 1;
    } else {
      new_index = index_of(child_blocks(children_[insert_at_]).front()->block.get());
    }
    bool moves_later = old_index < new_index;
    if (moves_later == reverse_) {
      const BlockRealize& partner = partners_.front();
      user_error(block_->span) << primitive_ << ": " << block_name() << " comes "
                               << (reverse_ ? "before" : "after") << " its " << partner_kind()
                               << ", block '" << partner->block->name << "'";
    }
    size_t from = moves_later ? old_index + 1 : new_index;
    size_t to = moves_later ? new_index : old_index;
    for (size_t i = from; i < to; ++i) {
      const BlockNode& other = *scope_blocks_[i]->block;
      if (touches_any(other.writes, read_) || touches_any(other.writes, written_) ||
          touches_any(other.reads, written_)) {
        user_error(block_->span) << primitive_ << ": " << block_name()
                                 << " cannot move past block '" << other.name
                                 << "', which accesses the buffers it "
                                 << (touches_any(other.writes, read_) ? "reads" : "writes");
      }
    }
  }

  // The loops whose variables range over their domains within one iteration of the
  // loop, for accesses to `buffer` by `partner`.
  RelaxedVars relaxed_for(const BlockRealize& partner, const Buffer& buffer) const {
    RelaxedVars relaxed;
    StmtPath path = find_block_path(loop_->body, partner->block->name);
    for (const Stmt& s : path) {
      if (const auto* inner = s.as<ForNode>()) {
        relaxed[inner->loop_var] = range(inner->min, inner->extent);
      }
    }
    if (reverse_) return relaxed;  // a consumer uses what this thread produced, only
    for (const For& outer : loops_on_path(loop_path_)) {
      if (outer->kind == ForKind::ThreadBinding &&
          threads_share_scope(outer->thread_tag, buffer->scope)) {
        relaxed[outer->loop_var] = range(outer->min, outer->extent);
      }
    }
    return relaxed;
  }

  void compute_regions() {
    for (const For& outer : loops_on_path(loop_path_)) {
      analyzer_.bind(outer->loop_var, range(outer->min, outer->extent));
      enclosing_loops_[outer->loop_var] = range(outer->min, outer->extent);
    }
    const BufferSet& targets = reverse_ ? read_ : written_;
    for (const BlockRealize& partner : partners_) {
      const auto& accesses = reverse_ ? partner->block->writes : partner->block->reads;
      for (const BufferRegion& access : accesses) {
        if (targets.count(access->buffer.get()) == 0) continue;
        RelaxedVars relaxed = relaxed_for(partner, access->buffer);
        unite_bounds(regions_[access->buffer.get()],
                     access_bounds(access, *partner, relaxed, analyzer_), analyzer_);
      }
    }
  }

  // The range the iteration variable `i` must cover: the hull of the region dimensions
  // it indexes directly, or nullopt to keep its whole domain.
  std::optional<IntBounds> needed_bounds(size_t i) {
    const IterVar& iv = block_->iter_vars[i];
    const auto& own = reverse_ ? block_->reads : block_->writes;
    std::optional<std::vector<IntBounds>> hull;
    for (const BufferRegion& access : own) {
      auto it = regions_.find(access->buffer.get());
      if (it == regions_.end()) continue;
      for (size_t d = 0; d < access->region.size() && d < it->second.size(); ++d) {
        const Range& r = access->region[d];
        bool direct = r->min.same_as(iv->var) && is_const_int(r->extent, 1);
        if (direct) {
          std::vector<IntBounds> dim{it->second[d]};
          if (!hull) hull.emplace();
          unite_bounds(*hull, dim, analyzer_);
        } else if (reverse_ && (uses_var(r->min, iv->var) || uses_var(r->extent, iv->var))) {
          user_error(block_->span)
              << "reverse_compute_at: " << block_name() << " reads '" << access->buffer->name
              << "' at " << text::print_node(r->min) << " in dimension " << d
              << "; only an index that is an iteration variable can be matched to the region "
                 "produced under "
              << loop_name(loop_->loop_var);
        }
      }
    }
    if (!hull) return std::nullopt;
    return hull->front();
  }

  // The conjuncts of the producers' predicates that only the loops around the block's
  // new place (the loop and those above it) decide: where one fails, that producer
  // produced nothing in the iteration, so the block has nothing to consume there (the
  // threads past a split tail of the outputs, where the region alone reads as an index
  // that wraps around).
  std::vector<PrimExpr> producer_guards() const {
    std::unordered_set<const VarNode*> around;
    for (const For& outer : loops_on_path(loop_path_)) around.insert(outer->loop_var.get());
    std::vector<PrimExpr> guards;
    for (const BlockRealize& partner : partners_) {
      for (const PrimExpr& c : conjuncts_of(partner->predicate)) {
        if (is_const_int(c, 1) ||
            uses_var_if(c, [&](const VarNode* v) { return around.count(v) == 0; })) {
          continue;
        }
        bool seen = std::any_of(guards.begin(), guards.end(),
                                [&](const PrimExpr& g) { return structural_equal(g, c); });
        if (!seen) guards.push_back(c);
      }
    }
    return guards;
  }

  Stmt build_nest() {
    std::unordered_set<std::string> taken;
    for (const Stmt& s : loop_path_) {
      if (const auto* outer = s.as<ForNode>()) taken.insert(outer->loop_var->name);
    }
    int next_name = 0;
    auto fresh_name = [&] {
      std::string name;
      do {
        name = "ax" + std::to_string(next_name++);
      } while (taken.count(name) != 0);
      return name;
    };

    std::vector<PrimExpr> values;
    std::vector<std::pair<Var, PrimExpr>> loops;  // (loop var, extent), outermost first
    PrimExpr predicate;
    auto add_condition = [&](const PrimExpr& c) {
      predicate = predicate.defined() ? logical_and(predicate, c) : c;
    };
    for (size_t i = 0; i < block_->iter_vars.size(); ++i) {
      const IterVar& iv = block_->iter_vars[i];
      DataType dtype = iv->var->dtype;
      PrimExpr dom_min = to_dtype(iv->dom->min, dtype);
      PrimExpr dom_extent = to_dtype(iv->dom->extent, dtype);
      std::optional<IntBounds> needed = needed_bounds(i);
      if (needed && iv->kind != IterKind::Spatial) {
        if (!reverse_) {
          needed.reset();  // a reduction producer keeps its whole reduction
        } else if (!covers_domain(*needed, dom_min, dom_extent)) {
          user_error(block_->span)
              << "reverse_compute_at: " << block_name() << " reduces over '" << iv->var->name
              << "', but under " << loop_name(loop_->loop_var)
              << " its producers have produced only part of that range; pick an outer loop";
        }
      }
      PrimExpr start = dom_min, extent = dom_extent;
      bool clip = false;
      if (needed) {
        start = to_dtype(needed->min, dtype);
        extent = analyzer_.simplify(to_dtype(needed->max, dtype) - start + 1);
        const int64_t* ext = as_const_int(extent);
        const int64_t* dom_ext = as_const_int(dom_extent);
        if (ext != nullptr && dom_ext != nullptr && *ext >= *dom_ext) {
          start = dom_min;  // the whole domain is no larger: no clipping needed
          extent = dom_extent;
        } else {
          clip = true;
        }
      }
      PrimExpr value = start;
      if (!is_const_int(extent, 1)) {
        Var ax = var(fresh_name(), dtype);
        analyzer_.bind(ax, range(int_imm(dtype, 0), extent));
        enclosing_loops_[ax] = range(int_imm(dtype, 0), extent);
        loops.emplace_back(ax, extent);
        value = is_const_int(start, 0) ? PrimExpr(ax) : start + ax;
      }
      values.push_back(value);
      if (!clip) continue;
      if (!provably(value, dom_min, /*below=*/false)) add_condition(ge(value, dom_min));
      PrimExpr end = analyzer_.simplify(dom_min + dom_extent);
      if (!provably(value, end, /*below=*/true)) add_condition(lt(value, end));
    }
    if (reverse_) {
      for (const PrimExpr& guard : producer_guards()) add_condition(guard);
    }
    Stmt nest = block_realize(values, predicate, block_, realize_->span);
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      nest = for_loop(it->first, int_imm(it->first->dtype, 0), it->second, ForKind::Serial, nest);
    }
    return nest;
  }

  // Whether `value` < `limit` (below) or `value` >= `limit` (not below) for every
  // iteration of the enclosing loops. The analyzer does not use symbolic loop extents,
  // so the loops are also swept over their ranges and the extreme values compared.
  bool provably(const PrimExpr& value, const PrimExpr& limit, bool below) {
    auto holds = [&](const PrimExpr& v) {
      PrimExpr x = to_dtype(v, limit->dtype);
      return analyzer_.can_prove(below ? lt(x, limit) : ge(x, limit));
    };
    if (holds(value)) return true;
    std::optional<IntBounds> bounds = relax_expr(value, enclosing_loops_, analyzer_);
    return bounds && holds(below ? bounds->max : bounds->min);
  }

  bool covers_domain(const IntBounds& b, const PrimExpr& dom_min, const PrimExpr& dom_extent) {
    PrimExpr lo = to_dtype(b.min, dom_min->dtype), hi = to_dtype(b.max, dom_min->dtype);
    return analyzer_.can_prove(le(lo, dom_min)) &&
           analyzer_.can_prove(ge(hi, dom_min + dom_extent - 1));
  }

  // Removes the loops that held only the block, then inserts `nest` into the loop.
  PrimFunc splice(const Stmt& nest) {
    size_t top = block_path_.size() - 1;
    while (top > 0) {
      const auto* parent = block_path_[top - 1].as<ForNode>();
      if (parent == nullptr || !parent->body.same_as(block_path_[top])) break;
      --top;
    }
    if (top == 0 || !block_path_[top - 1].is<SeqStmtNode>()) {
      user_error(block_->span) << primitive_ << ": " << block_name()
                               << " sits under a statement other than loops (an if, a let, an "
                                  "allocation); it cannot be moved out of it";
    }
    StmtPath old_nest(block_path_.begin(), block_path_.begin() + static_cast<long>(top) + 1);
    Stmt body = replace_in_path(old_nest, Stmt());
    StmtPath loop_path = find_loop_path(body, loop_->loop_var);
    RELAXC_ICHECK(!loop_path.empty()) << "the target loop vanished while moving a block";
    const auto* loop = loop_path.back().as<ForNode>();
    std::vector<Stmt> children = stmts_of(loop->body);
    children.insert(children.begin() + static_cast<long>(insert_at_), nest);
    auto* copy = copy_node(*loop);
    copy->body = seq_stmt(std::move(children));
    return with_body(func_, replace_in_path(loop_path, Stmt(copy)));
  }

  const PrimFunc& func_;
  bool reverse_;
  const char* primitive_;

  StmtPath block_path_, loop_path_;
  BlockRealize realize_;
  Block block_;
  For loop_;
  const BlockNode* scope_ = nullptr;
  BufferSet written_, read_;

  std::vector<BlockRealize> scope_blocks_;
  std::vector<Stmt> children_;  // the statements of the loop's body
  std::unordered_map<const BlockNode*, size_t> child_of_;
  std::vector<BlockRealize> partners_;
  size_t insert_at_ = 0;

  arith::Analyzer analyzer_;
  std::unordered_map<const BufferNode*, std::vector<IntBounds>> regions_;
  RelaxedVars enclosing_loops_;  // the loops around the new nest, and its own
};

}  // namespace

void Schedule::compute_at(const BlockRef& block, const LoopRef& loop) {
  func_ = BlockMover(func_, block, loop, /*reverse=*/false).run();
}

void Schedule::reverse_compute_at(const BlockRef& block, const LoopRef& loop) {
  func_ = BlockMover(func_, block, loop, /*reverse=*/true).run();
}

}  // namespace relaxc::tir
