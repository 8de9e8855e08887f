// lower_cross_thread_reduction: reductions whose loops are bound to threads.
//
// Algorithm: a reduction block B needs a cross-thread reduction when a reduction iter
// var's binding uses a loop bound to threadIdx.*. Its reduction nest runs from the
// outermost loop any reduction binding uses down to B; it may hold only reduction loops
// and threadIdx-bound loops, each the only child of the one above. The nest is replaced:
//
//   for <the nest's threadIdx loops, in order>:         (N reducing threads, G groups)
//     partial[0] = identity                              ("local")
//     for <the nest's serial reduction loops>:
//       if <predicate>: partial[0] = combine(partial[0], x)
//     red[g * N + t] = partial[0]                        ("shared", G * N slots)
//     barrier
//     for s = P/2, P/4, ..., 1  (P: N rounded up to a power of two; unrolled):
//       if t < s and t + s < N: red[g*N + t] = combine(red[g*N + t], red[g*N + t + s])
//       barrier
//     if t == 0 and <spatial predicate>: C[i] = combine(<init value>, red[g * N])
//
// where t is the row-major index of the reducing threads and g of the other threads of
// the nest. The combiner comes from B's body (C[i] = C[i] + x, x + C[i], *, T.max, T.min)
// and its identity from the combiner; B's init value is combined with the total, as the
// serial semantics would. The predicate's conjuncts that use reduction loops guard the
// in-thread step; the others guard the in-thread step and the final write. Barriers stay
// outside any condition that depends on a thread. Where the reduction runs again (in a
// loop), insert_shared_barriers adds the barrier that keeps the next slot writes after
// the final read.
#include <cfloat>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "ir/structural_equal.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

using VarSet = std::unordered_set<const VarNode*>;

bool is_thread_loop(const ForNode* loop) {
  return loop->kind == ForKind::ThreadBinding && loop->thread_tag.rfind("threadIdx.", 0) == 0;
}

VarSet vars_in(const Ref<Object>& node) {
  VarSet vars;
  post_order_visit(node, [&](const Ref<Object>& n) {
    if (const auto* v = n.as<VarNode>()) vars.insert(v);
  });
  return vars;
}

bool uses_any(const Ref<Object>& node, const VarSet& vars) {
  bool found = false;
  post_order_visit(node, [&](const Ref<Object>& n) {
    if (const auto* v = n.as<VarNode>(); v != nullptr && vars.count(v) != 0) found = true;
  });
  return found;
}

// The conjuncts of a condition.
void split_conjuncts(const PrimExpr& cond, std::vector<PrimExpr>& out) {
  if (!cond.defined()) return;
  if (const auto* a = cond.as<AndNode>()) {
    split_conjuncts(a->a, out);
    split_conjuncts(a->b, out);
  } else if (!is_const_int(cond, 1)) {
    out.push_back(cond);
  }
}

PrimExpr conjunction(const std::vector<PrimExpr>& terms) {
  PrimExpr result;
  for (const PrimExpr& t : terms) result = result.defined() ? logical_and(result, t) : t;
  return result;
}

Stmt guarded(const PrimExpr& cond, Stmt body) {
  return cond.defined() ? if_then_else(cond, std::move(body)) : body;
}

enum class Combiner { Add, Mul, Max, Min };

PrimExpr combine(Combiner c, PrimExpr a, PrimExpr b) {
  switch (c) {
    case Combiner::Add:
      return add(a, b);
    case Combiner::Mul:
      return mul(a, b);
    case Combiner::Max:
      return max(a, b);
    case Combiner::Min:
      return min(a, b);
  }
  return add(a, b);
}

PrimExpr identity_of(Combiner c, DataType dtype) {
  if (c == Combiner::Add) return make_const(dtype, 0);
  if (c == Combiner::Mul) return make_const(dtype, 1);
  bool lowest = c == Combiner::Max;
  if (dtype.is_float()) {
    double limit = dtype.bits() == 16 ? 65504.0 : dtype.bits() == 32 ? FLT_MAX : DBL_MAX;
    return float_imm(dtype, lowest ? -limit : limit);
  }
  int bits = dtype.bits();
  if (dtype.is_uint()) {
    uint64_t top = bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
    return int_imm(dtype, lowest ? 0 : static_cast<int64_t>(top));
  }
  int64_t top = bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  return int_imm(dtype, lowest ? -top - 1 : top);
}

// The reduction B's body performs: C[i] = combine(C[i], x).
struct Reduction {
  const BufferStoreNode* store = nullptr;
  Combiner combiner = Combiner::Add;
  PrimExpr operand;     // x
  PrimExpr init_value;  // what B's init stores
};

bool loads_target(const PrimExpr& e, const BufferStoreNode* store) {
  const auto* load = e.as<BufferLoadNode>();
  if (load == nullptr || !load->buffer.same_as(store->buffer) ||
      load->indices.size() != store->indices.size()) {
    return false;
  }
  for (size_t i = 0; i < load->indices.size(); ++i) {
    if (!structural_equal(load->indices[i], store->indices[i])) return false;
  }
  return true;
}

Reduction match_reduction(const BlockNode& block) {
  auto refuse = [&block]() {
    user_error(block.span) << "block '" << block.name
                           << "' has a reduction loop bound to threadIdx (a cross-thread "
                              "reduction), but its body is not a reduction of the form "
                              "C[i] = C[i] + x (or *, T.max, T.min) with an init that stores "
                              "C[i]";
  };
  Reduction r;
  r.store = block.body.as<BufferStoreNode>();
  const auto* init = block.init.as<BufferStoreNode>();
  if (r.store == nullptr || init == nullptr || !init->buffer.same_as(r.store->buffer)) refuse();
  for (size_t i = 0; i < init->indices.size() && i < r.store->indices.size(); ++i) {
    if (!structural_equal(init->indices[i], r.store->indices[i])) refuse();
  }
  r.init_value = init->value;
  const PrimExpr& v = r.store->value;
  PrimExpr a, b;
  if (const auto* n = v.as<AddNode>()) {
    r.combiner = Combiner::Add, a = n->a, b = n->b;
  } else if (const auto* n = v.as<MulNode>()) {
    r.combiner = Combiner::Mul, a = n->a, b = n->b;
  } else if (const auto* n = v.as<MaxNode>()) {
    r.combiner = Combiner::Max, a = n->a, b = n->b;
  } else if (const auto* n = v.as<MinNode>()) {
    r.combiner = Combiner::Min, a = n->a, b = n->b;
  } else {
    refuse();
  }
  if (loads_target(a, r.store)) {
    r.operand = b;
  } else if (loads_target(b, r.store)) {
    r.operand = a;
  } else {
    refuse();
  }
  return r;
}

// Row-major index of the loop vars of `loops` (each counted from its min).
PrimExpr linear_index(const std::vector<const ForNode*>& loops, DataType dtype) {
  PrimExpr index;
  for (const ForNode* loop : loops) {
    PrimExpr v = loop->loop_var;
    if (v->dtype != dtype) v = cast(dtype, v);
    if (!is_const_int(loop->min, 0)) v = sub(v, loop->min);
    index = index.defined() ? add(mul(index, loop->extent), v) : v;
  }
  return index.defined() ? index : int_imm(dtype, 0);
}

int64_t constant_extent(const ForNode* loop, const BlockNode& block) {
  const int64_t* e = as_const_int(loop->extent);
  if (e == nullptr || *e <= 0) {
    user_error(loop->span) << "loop '" << loop->loop_var->name << "' bound to " << loop->thread_tag
                           << " for the cross-thread reduction of block '" << block.name
                           << "' needs a constant extent";
  }
  return *e;
}

Stmt lower_one(const std::vector<const ForNode*>& nest, const BlockRealizeNode& realize,
               const VarSet& reduction_loop_vars) {
  const BlockNode& block = *realize.block;
  if (!block.alloc_buffers.empty() || !block.match_buffers.empty()) {
    user_error(block.span) << "block '" << block.name
                           << "' allocates or matches buffers; a cross-thread reduction needs "
                              "a block with one reduction statement";
  }
  Reduction red = match_reduction(block);
  VarMap bindings;
  for (size_t i = 0; i < block.iter_vars.size() && i < realize.iter_values.size(); ++i) {
    bindings[block.iter_vars[i]->var] = realize.iter_values[i];
  }
  std::vector<PrimExpr> target_indices;
  for (const PrimExpr& i : red.store->indices) target_indices.push_back(substitute(i, bindings));
  PrimExpr operand = substitute(red.operand, bindings);
  PrimExpr init_value = substitute(red.init_value, bindings);
  DataType dtype = red.store->buffer->dtype;

  std::vector<const ForNode*> reducing, grouping, serial;
  int64_t num_reducing = 1, num_groups = 1;
  for (const ForNode* loop : nest) {
    if (is_thread_loop(loop)) {
      bool reduces = reduction_loop_vars.count(loop->loop_var.get()) != 0;
      int64_t extent = constant_extent(loop, block);
      (reduces ? reducing : grouping).push_back(loop);
      (reduces ? num_reducing : num_groups) *= extent;
    } else {
      serial.push_back(loop);
    }
  }
  DataType index_type = reducing.front()->loop_var->dtype;
  PrimExpr t = linear_index(reducing, index_type);
  PrimExpr base = mul(linear_index(grouping, index_type), int_imm(index_type, num_reducing));
  auto slot = [&](int64_t offset) { return add(add(base, t), int_imm(index_type, offset)); };

  std::vector<PrimExpr> conjuncts, reduce_guard, spatial_guard;
  split_conjuncts(realize.predicate, conjuncts);
  for (const PrimExpr& c : conjuncts) {
    (uses_any(c, reduction_loop_vars) ? reduce_guard : spatial_guard).push_back(c);
  }
  std::vector<PrimExpr> step_guard = reduce_guard;
  step_guard.insert(step_guard.end(), spatial_guard.begin(), spatial_guard.end());

  Buffer partial = buffer(block.name + "_partial", dtype, {int_imm(index_type, 1)}, "local");
  Buffer red_buf = buffer(block.name + "_shared", dtype,
                          {int_imm(index_type, num_groups * num_reducing)}, "shared");
  PrimExpr zero = int_imm(index_type, 0);
  Stmt step =
      buffer_store(partial, combine(red.combiner, buffer_load(partial, {zero}), operand), {zero});
  step = guarded(conjunction(step_guard), step);
  for (auto it = serial.rbegin(); it != serial.rend(); ++it) {
    const ForNode* loop = *it;
    step = for_loop(loop->loop_var, loop->min, loop->extent, loop->kind, step, loop->thread_tag,
                    loop->annotations, loop->span);
  }
  std::vector<Stmt> body;
  body.push_back(buffer_store(partial, identity_of(red.combiner, dtype), {zero}));
  body.push_back(step);
  body.push_back(buffer_store(red_buf, buffer_load(partial, {zero}), {slot(0)}));
  body.push_back(storage_sync());
  int64_t power = 1;
  while (power < num_reducing) power *= 2;
  for (int64_t s = power / 2; s >= 1; s /= 2) {
    PrimExpr active = lt(t, int_imm(index_type, s));
    if (2 * s > num_reducing) {
      active = logical_and(active,
                           lt(add(t, int_imm(index_type, s)), int_imm(index_type, num_reducing)));
    }
    PrimExpr combined =
        combine(red.combiner, buffer_load(red_buf, {slot(0)}), buffer_load(red_buf, {slot(s)}));
    body.push_back(if_then_else(active, buffer_store(red_buf, combined, {slot(0)})));
    body.push_back(storage_sync());
  }
  std::vector<PrimExpr> final_guard = {eq(t, zero)};
  final_guard.insert(final_guard.end(), spatial_guard.begin(), spatial_guard.end());
  PrimExpr total = buffer_load(red_buf, {add(base, zero)});
  body.push_back(guarded(conjunction(final_guard),
                         buffer_store(red.store->buffer, combine(red.combiner, init_value, total),
                                      target_indices, red.store->span)));
  Stmt result = allocate(partial, allocate(red_buf, seq_stmt(body)));
  for (auto it = nest.rbegin(); it != nest.rend(); ++it) {
    const ForNode* loop = *it;
    if (!is_thread_loop(loop)) continue;
    result = for_loop(loop->loop_var, loop->min, loop->extent, loop->kind, result, loop->thread_tag,
                      loop->annotations, loop->span);
  }
  return result;
}

// Finds the cross-thread reductions and builds their replacements, keyed by the nest's
// outermost loop.
class ReductionFinder final : public Visitor {
 public:
  std::unordered_map<const ForNode*, Stmt> replacements;

 private:
  void visit_node(const ForNode* node) override {
    loops_.push_back(node);
    Visitor::visit_node(node);
    loops_.pop_back();
  }

  void visit_node(const BlockRealizeNode* node) override {
    const BlockNode& block = *node->block;
    VarSet reduction_vars;
    for (size_t i = 0; i < block.iter_vars.size() && i < node->iter_values.size(); ++i) {
      if (block.iter_vars[i]->kind != IterKind::Reduce) continue;
      VarSet used = vars_in(node->iter_values[i]);
      reduction_vars.insert(used.begin(), used.end());
    }
    size_t top = loops_.size();
    bool on_threads = false;
    for (size_t i = 0; i < loops_.size(); ++i) {
      if (reduction_vars.count(loops_[i]->loop_var.get()) == 0) continue;
      top = std::min(top, i);
      on_threads = on_threads || is_thread_loop(loops_[i]);
    }
    if (!on_threads) {
      Visitor::visit_node(node);
      return;
    }
    std::vector<const ForNode*> nest(loops_.begin() + static_cast<ptrdiff_t>(top), loops_.end());
    for (size_t i = 0; i < nest.size(); ++i) {
      const ForNode* loop = nest[i];
      bool reduces = reduction_vars.count(loop->loop_var.get()) != 0;
      if (!reduces && !is_thread_loop(loop)) {
        user_error(loop->span) << "loop '" << loop->loop_var->name
                               << "' lies between the reduction loops of block '" << block.name
                               << "', whose cross-thread reduction needs them together; move it "
                                  "outside the reduction loops";
      }
      const StmtNode* child = loop->body.get();
      const StmtNode* expected =
          i + 1 < nest.size() ? static_cast<const StmtNode*>(nest[i + 1]) : node;
      if (child != expected) {
        user_error(loop->span) << "loop '" << loop->loop_var->name << "' holds more than block '"
                               << block.name << "', whose reduction loops are bound to threads; "
                               << "a cross-thread reduction needs the block alone under them";
      }
    }
    replacements[nest.front()] = lower_one(nest, *node, reduction_vars);
  }

  std::vector<const ForNode*> loops_;
};

class NestReplacer final : public Mutator {
 public:
  explicit NestReplacer(const std::unordered_map<const ForNode*, Stmt>& replacements)
      : replacements_(replacements) {}

 private:
  Stmt mutate_node(const ForNode* node) override {
    auto it = replacements_.find(node);
    return it != replacements_.end() ? it->second : Mutator::mutate_node(node);
  }

  const std::unordered_map<const ForNode*, Stmt>& replacements_;
};

}  // namespace

PrimFunc lower_cross_thread_reduction(const PrimFunc& func) {
  ReductionFinder finder;
  finder.visit(func->body);
  if (finder.replacements.empty()) return func;
  NestReplacer replacer(finder.replacements);
  auto* result = copy_node(*func);
  result->body = replacer.mutate(func->body);
  return PrimFunc(result);
}

}  // namespace relaxc::tir
