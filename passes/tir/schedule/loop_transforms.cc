// Schedule primitives that restructure loop nests: split, fuse, reorder, add_unit_loop.
//
// Each rewrites one loop nest in place and substitutes the old loop variables by
// expressions of the new ones (in block iteration values and anywhere else they occur):
// - split: i = min + i_0 * (f_1 * ... * f_k) + ... + i_k; when the product of the
//   factors may exceed the extent, the outermost blocks below get `fused < extent`;
// - fuse: i_k = (fused // stride_k) % extent_k with stride_k the product of the
//   extents inside loop k;
// - reorder: the loop headers of a perfect nest are permuted, bodies stay;
// - add_unit_loop: a loop of extent 1 around a block realize, which nothing reads.
// Legality is checked before anything is built, so a refused request leaves the
// schedule as it was.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>

#include "ir/arith/analyzer.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

namespace {

// `e` as an index of type `t`: integer constants take the type, other expressions must
// already have it.
PrimExpr as_index_type(const PrimExpr& e, DataType t, const Var& loop_var, Span span) {
  if (const int64_t* v = as_const_int(e)) return int_imm(t, *v);
  if (e->dtype != t) {
    user_error(span) << "split of " << loop_name(loop_var) << ": the factor " << text::print_node(e)
                     << " is " << e->dtype.str() << ", the loop " << t.str();
  }
  return e;
}

// The product of `factors`, folding constants.
PrimExpr product(const std::vector<PrimExpr>& factors, DataType t) {
  int64_t constant = 1;
  PrimExpr symbolic;
  for (const PrimExpr& f : factors) {
    if (const int64_t* v = as_const_int(f)) {
      constant *= *v;
    } else {
      symbolic = symbolic.defined() ? mul(symbolic, f) : f;
    }
  }
  if (!symbolic.defined()) return int_imm(t, constant);
  return constant == 1 ? symbolic : mul(symbolic, int_imm(t, constant));
}

// ceil(extent / divisor), constant when both are.
PrimExpr ceil_div(const PrimExpr& extent, const PrimExpr& divisor) {
  const int64_t* e = as_const_int(extent);
  const int64_t* d = as_const_int(divisor);
  DataType t = extent->dtype;
  if (e != nullptr && d != nullptr) return int_imm(t, (*e + *d - 1) / *d);
  if (d != nullptr && *d == 1) return extent;
  if (d != nullptr) return floordiv(add(extent, int_imm(t, *d - 1)), divisor);
  return floordiv(sub(add(extent, divisor), int_imm(t, 1)), divisor);
}

// a * b + c with the trivial cases (b == 1, a missing) written plainly.
PrimExpr mul_add(const PrimExpr& acc, const PrimExpr& stride, const PrimExpr& term) {
  PrimExpr scaled = is_const_int(stride, 1) ? acc : mul(acc, stride);
  return add(scaled, term);
}

// The variables of the loops `loops`.
std::unordered_set<const VarNode*> loop_vars_of(const std::vector<For>& loops) {
  std::unordered_set<const VarNode*> vars;
  for (const For& l : loops) vars.insert(l->loop_var.get());
  return vars;
}

void require_unbound(const For& loop, const char* primitive) {
  if (loop->kind == ForKind::ThreadBinding) {
    user_error(loop->span) << primitive << " of " << loop_name(loop->loop_var)
                           << ": the loop is bound to " << loop->thread_tag << "; " << primitive
                           << " before binding";
  }
}

// How a message names a statement that breaks a perfect nest.
std::string describe_statement(const Stmt& s) {
  if (s.is<SeqStmtNode>()) return "a sequence of statements";
  if (const auto* realize = s.as<BlockRealizeNode>()) return "block '" + realize->block->name + "'";
  if (const auto* block = s.as<BlockNode>()) return "block '" + block->name + "'";
  if (s.is<IfThenElseNode>()) return "an if statement";
  if (s.is<LetStmtNode>()) return "a let statement";
  if (s.is<AllocateNode>()) return "an allocation";
  return "a statement";
}

// A copy of `header`'s loop (variable, range, kind, annotations) around `body`.
Stmt with_loop_body(const For& header, Stmt body) {
  auto* copy = copy_node(*header);
  copy->body = std::move(body);
  return Stmt(copy);
}

}  // namespace

std::vector<LoopRef> Schedule::split(const LoopRef& loop_ref,
                                     const std::vector<PrimExpr>& factors) {
  For loop = get_for(loop_ref);
  const Var& v = loop->loop_var;
  DataType t = v->dtype;
  require_unbound(loop, "split");
  if (factors.size() < 2) {
    user_error(loop->span) << "split of " << loop_name(v) << ": expected at least 2 factors, got "
                           << factors.size();
  }
  int null_index = -1;
  std::vector<PrimExpr> extents;
  for (size_t i = 0; i < factors.size(); ++i) {
    if (!factors[i].defined()) {
      if (null_index >= 0) {
        user_error(loop->span) << "split of " << loop_name(v)
                               << ": at most one factor may be None (inferred), got more";
      }
      null_index = static_cast<int>(i);
      extents.emplace_back();
      continue;
    }
    const int64_t* c = as_const_int(factors[i]);
    if (c != nullptr && *c <= 0) {
      user_error(loop->span) << "split of " << loop_name(v) << ": factor " << *c
                             << " is not positive";
    }
    if (c == nullptr && !factors[i]->dtype.is_int()) {
      user_error(loop->span) << "split of " << loop_name(v) << ": the factor "
                             << text::print_node(factors[i]) << " is not an integer";
    }
    extents.push_back(as_index_type(factors[i], t, v, loop->span));
  }
  if (null_index >= 0) {
    std::vector<PrimExpr> known;
    for (const PrimExpr& e : extents) {
      if (e.defined()) known.push_back(e);
    }
    // Simplified, so that a padded extent, (n + 127) // 128 * 128, splits into
    // (n + 127) // 128 tiles of 128.
    extents[null_index] = arith::Analyzer().simplify(ceil_div(loop->extent, product(known, t)));
  }

  // The new loop variables and the old variable's value in terms of them.
  std::vector<Var> vars;
  PrimExpr fused;
  for (size_t i = 0; i < extents.size(); ++i) {
    vars.push_back(var(v->name + "_" + std::to_string(i), t, v->span));
    fused = fused.defined() ? mul_add(fused, extents[i], vars.back()) : PrimExpr(vars.back());
  }
  PrimExpr value = is_const_int(loop->min, 0) ? fused : add(loop->min, fused);
  Stmt body = substitute(loop->body, VarMap{{v, value}});

  arith::Analyzer analyzer;
  if (!analyzer.can_prove_equal(product(extents, t), loop->extent)) {
    body = add_predicate(body, lt(fused, loop->extent));
  }
  for (size_t i = extents.size(); i-- > 0;) {
    body = for_loop(vars[i], int_imm(t, 0), extents[i], ForKind::Serial, body, {}, {}, loop->span);
  }
  func_ = with_body(func_, replace_in_path(find_loop_path(func_->body, v), body));
  std::vector<LoopRef> result;
  for (const Var& nv : vars) result.push_back(LoopRef{nv});
  return result;
}

LoopRef Schedule::fuse(const std::vector<LoopRef>& loop_refs) {
  if (loop_refs.empty()) user_error(func_->span) << "fuse: no loops given";
  std::vector<For> loops;
  for (const LoopRef& ref : loop_refs) loops.push_back(get_for(ref));
  if (loops.size() == 1) return loop_refs[0];
  DataType t = loops[0]->loop_var->dtype;
  for (size_t i = 0; i < loops.size(); ++i) {
    const For& l = loops[i];
    require_unbound(l, "fuse");
    if (!is_const_int(l->min, 0)) {
      user_error(l->span) << "fuse: " << loop_name(l->loop_var) << " starts at "
                          << text::print_node(l->min) << ", not 0";
    }
    if (l->loop_var->dtype.bits() > t.bits()) t = l->loop_var->dtype;
    if (i == 0) continue;
    const For& outer = loops[i - 1];
    if (!outer->body.same_as(l)) {
      user_error(l->span) << "fuse: " << loop_name(l->loop_var)
                          << " is not the only statement in the body of "
                          << loop_name(outer->loop_var)
                          << " (the loops must form a perfect chain, outermost first)";
    }
    std::vector<For> enclosing(loops.begin(), loops.begin() + static_cast<int64_t>(i));
    if (uses_any_var(l->extent, loop_vars_of(enclosing))) {
      user_error(l->span) << "fuse: the extent of " << loop_name(l->loop_var)
                          << " depends on an outer loop being fused";
    }
  }
  auto widened = [&](const PrimExpr& e) { return e->dtype == t ? e : cast(t, e); };

  std::string name;
  std::vector<PrimExpr> extents;
  for (const For& l : loops) {
    name += l->loop_var->name + "_";
    extents.push_back(widened(l->extent));
  }
  Var fused = var(name + "fused", t, loops[0]->loop_var->span);
  VarMap values;
  PrimExpr stride = int_imm(t, 1);
  for (size_t i = loops.size(); i-- > 0;) {
    PrimExpr value = is_const_int(stride, 1) ? PrimExpr(fused) : floordiv(fused, stride);
    if (i > 0) value = floormod(value, extents[i]);
    const Var& old = loops[i]->loop_var;
    values[old] = old->dtype == t ? value : cast(old->dtype, value);
    stride = product({stride, extents[i]}, t);
  }
  Stmt body = substitute(loops.back()->body, values);
  Stmt fused_loop = for_loop(fused, int_imm(t, 0), product(extents, t), ForKind::Serial, body, {},
                             {}, loops[0]->span);
  func_ = with_body(func_,
                    replace_in_path(find_loop_path(func_->body, loops[0]->loop_var), fused_loop));
  return LoopRef{fused};
}

void Schedule::reorder(const std::vector<LoopRef>& loop_refs) {
  if (loop_refs.empty()) return;
  std::vector<For> loops;
  std::unordered_set<const VarNode*> seen;
  for (const LoopRef& ref : loop_refs) {
    loops.push_back(get_for(ref));
    if (!seen.insert(ref.var.get()).second) {
      user_error(loops.back()->span)
          << "reorder: " << loop_name(ref.var) << " is given more than once";
    }
  }
  // The deepest loop's path holds every other loop when they share one nest.
  std::vector<StmtPath> paths;
  size_t deepest = 0;
  for (size_t i = 0; i < loops.size(); ++i) {
    paths.push_back(find_loop_path(func_->body, loops[i]->loop_var));
    if (paths[i].size() > paths[deepest].size()) deepest = i;
  }
  const StmtPath& path = paths[deepest];
  std::vector<size_t> depths;  // each given loop's index on `path`
  for (size_t i = 0; i < loops.size(); ++i) {
    auto it =
        std::find_if(path.begin(), path.end(), [&](const Stmt& s) { return s.same_as(loops[i]); });
    if (it == path.end()) {
      user_error(loops[i]->span) << "reorder: " << loop_name(loops[i]->loop_var) << " and "
                                 << loop_name(loops[deepest]->loop_var)
                                 << " are not in one loop nest";
    }
    depths.push_back(static_cast<size_t>(it - path.begin()));
  }
  size_t outer = *std::min_element(depths.begin(), depths.end());
  size_t inner = *std::max_element(depths.begin(), depths.end());
  std::vector<For> chain;
  for (size_t d = outer; d <= inner; ++d) {
    const auto* l = path[d].as<ForNode>();
    if (l == nullptr) {
      user_error(path[d]->span) << "reorder: " << loop_name(path[outer].as<ForNode>()->loop_var)
                                << " and " << loop_name(path[inner].as<ForNode>()->loop_var)
                                << " do not form a perfect nest (" << describe_statement(path[d])
                                << " stands between them)";
    }
    chain.emplace_back(l);
  }
  // The given loops take the chain positions the given loops held, in the given order.
  std::vector<size_t> positions;
  for (size_t d : depths) positions.push_back(d - outer);
  std::sort(positions.begin(), positions.end());
  std::vector<For> order = chain;
  for (size_t i = 0; i < loops.size(); ++i) order[positions[i]] = loops[i];
  for (size_t p = 0; p < order.size(); ++p) {
    for (size_t q = p; q < order.size(); ++q) {
      const Var& moved = order[q]->loop_var;
      if (uses_var(order[p]->min, moved) || uses_var(order[p]->extent, moved)) {
        user_error(order[p]->span)
            << "reorder: the range of " << loop_name(order[p]->loop_var) << " depends on "
            << loop_name(moved) << ", which the new order puts inside it";
      }
    }
  }
  Stmt body = chain.back()->body;
  for (size_t p = order.size(); p-- > 0;) body = with_loop_body(order[p], body);
  StmtPath nest(path.begin(), path.begin() + static_cast<int64_t>(outer) + 1);
  func_ = with_body(func_, replace_in_path(nest, body));
}

LoopRef Schedule::add_unit_loop(const BlockRef& block) {
  StmtPath path = find_block_path(func_->body, get_block(block.name).name);
  Var unit = var(block.name + "_unit", DataType::Int(32), path.back()->span);
  Stmt loop = for_loop(unit, int_imm(unit->dtype, 0), int_imm(unit->dtype, 1), ForKind::Serial,
                       path.back(), {}, {}, path.back()->span);
  func_ = with_body(func_, replace_in_path(path, loop));
  return LoopRef{unit};
}

}  // namespace relaxc::tir
