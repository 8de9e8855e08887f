// decompose_reduction: splits a reduction block's T.init into a block of its own, so that
// the initialization can be scheduled apart from the update (placed outside a loop bound
// to threads, say).
//
// Given reduction block R and one of its loops L: the new block `R_init` has R's spatial
// iteration variables (bound to R's values for them), R's writes, and R's init as its
// body. It goes right before L, in copies (fresh variables, same kind and extent) of the
// loops from L down to R that those values use. Conjuncts of R's predicate that use
// only loops above L or copied loops guard it too (the tail guards of split spatial
// loops); the others concern reduction loops, which the init does not run over. R loses
// its init and then reads what it writes. Every loop above L must carry no reduction
// (the init would run once per iteration of it, resetting partial results), and no loop
// from L down may bind both a spatial and a reduction iteration variable.
#include <string>
#include <vector>

#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

}  // namespace

BlockRef Schedule::decompose_reduction(const BlockRef& block, const LoopRef& loop) {
  BlockRealize realize = get_block_realize(block);
  const BlockNode& r = *realize->block;
  if (!r.init.defined()) {
    user_error(r.span) << "decompose_reduction: block '" << block.name
                       << "' has no T.init to decompose";
  }
  StmtPath path = find_block_path(func_->body, block.name);
  std::vector<For> loops = loops_on_path(StmtPath(path.begin(), path.end() - 1));
  size_t at = loops.size();
  for (size_t i = 0; i < loops.size(); ++i) {
    if (loops[i]->loop_var.same_as(loop.var)) at = i;
  }
  if (at == loops.size()) {
    user_error(get_for(loop)->span)
        << "decompose_reduction: " << loop_name(loop.var) << " is not a loop of block '"
        << block.name << "' (in its block scope)";
  }
  // Which loops the reduction and the spatial iteration variables use.
  auto uses = [&](const For& f, bool spatial) {
    for (size_t i = 0; i < r.iter_vars.size(); ++i) {
      bool is_spatial = r.iter_vars[i]->kind == IterKind::Spatial;
      if (is_spatial == spatial && uses_var(realize->iter_values[i], f->loop_var)) return true;
    }
    return false;
  };
  for (size_t i = 0; i < at; ++i) {
    if (uses(loops[i], /*spatial=*/false)) {
      user_error(loops[i]->span) << "decompose_reduction: " << loop_name(loops[i]->loop_var)
                                 << ", above " << loop_name(loop.var)
                                 << ", is a reduction loop of block '" << block.name
                                 << "'; the init would run in every iteration of it";
    }
  }
  VarMap copies;
  std::vector<For> copied;
  for (size_t i = at; i < loops.size(); ++i) {
    bool spatial = uses(loops[i], true);
    if (spatial && uses(loops[i], false)) {
      user_error(loops[i]->span) << "decompose_reduction: " << loop_name(loops[i]->loop_var)
                                 << " binds both spatial and reduction iteration variables of "
                                    "block '"
                                 << block.name << "'";
    }
    if (!spatial) continue;
    Var fresh = var(loops[i]->loop_var->name + "_init", loops[i]->loop_var->dtype);
    copies[loops[i]->loop_var] = fresh;
    copied.push_back(loops[i]);
  }
  std::vector<PrimExpr> conjuncts;
  if (!is_true_predicate(realize->predicate)) split_conjuncts(realize->predicate, conjuncts);
  PrimExpr predicate;
  for (const PrimExpr& c : conjuncts) {
    bool uses_dropped = false;
    for (size_t i = at; i < loops.size(); ++i) {
      uses_dropped = uses_dropped ||
                     (copies.count(loops[i]->loop_var) == 0 && uses_var(c, loops[i]->loop_var));
    }
    if (uses_dropped) continue;
    PrimExpr kept = substitute(c, copies);
    predicate = predicate.defined() ? logical_and(predicate, kept) : kept;
  }
  // The init block, over R's spatial iteration variables.
  auto* init = make_node<BlockNode>();
  init->name = block.name + "_init";
  init->span = r.span;
  std::vector<PrimExpr> values;
  VarMap fresh_iters;
  for (size_t i = 0; i < r.iter_vars.size(); ++i) {
    if (r.iter_vars[i]->kind != IterKind::Spatial) continue;
    auto* iv = copy_node(*r.iter_vars[i]);
    iv->var = var(r.iter_vars[i]->var->name, r.iter_vars[i]->var->dtype);
    fresh_iters[r.iter_vars[i]->var] = iv->var;
    init->iter_vars.emplace_back(iv);
    values.push_back(substitute(realize->iter_values[i], copies));
  }
  init->body = substitute(r.init, fresh_iters);
  complete_block_regions(init, /*reads=*/true, /*writes=*/true);
  Stmt nest = block_realize(values, predicate, Block(init), realize->span);
  for (size_t i = copied.size(); i-- > 0;) {
    const For& f = copied[i];
    nest = for_loop(copies.at(f->loop_var).cast<VarNode>(), f->min, f->extent, f->kind, nest,
                    f->thread_tag, f->annotations, f->span);
  }
  // The update block, without its init.
  auto* update = copy_node(r);
  update->init = Stmt();
  update->reads.clear();
  complete_block_regions(update, /*reads=*/true, /*writes=*/false);
  auto* new_realize = copy_node(*realize);
  new_realize->block = Block(update);
  Stmt body = replace_in_path(path, Stmt(new_realize));
  StmtPath loop_path = find_loop_path(body, loop.var);
  body = replace_in_path(loop_path, seq_stmt({nest, loop_path.back()}));
  func_ = with_body(func_, body);
  return BlockRef{init->name};
}

}  // namespace relaxc::tir
