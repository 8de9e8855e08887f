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
//     <the combination of the partials: a shared-memory tree, or warp shuffles>
//     if t == 0 and <spatial predicate>: C[i] = combine(<init value>, <the total>)
//
// where t is the row-major index of the reducing threads and g of the other threads (of
// the nest, and of the threadIdx loops around it: each group of threads reduces in its
// own slots). The shared-memory tree (every target):
//
//     red[g * N + t] = partial[0]                        ("shared", G * N slots)
//     barrier
//     for s = P/2, P/4, ..., 1  (P: N rounded up to a power of two; unrolled):
//       if t < s and t + s < N: red[g*N + t] = combine(red[g*N + t], red[g*N + t + s])
//       barrier
//     (the total: red[g * N])
//
// Warp shuffles, on CUDA (warps of 32) where the reducing threads are one threadIdx.x
// loop of a kernel with one thread axis (so that every thread of a warp reaches each
// shuffle), N a multiple of 32 (whole warps) or N <= 32 and the kernel's whole block (one
// warp, maybe partial), and the result a 32-bit scalar:
//
//     for s = P/2, ..., 1  (P: min(N, 32) rounded up to a power of two):
//       partial[0] = combine(partial[0], T.shuffle_down(partial[0], s))
//     if N > 32 (W = N / 32 warps):
//       if t % 32 == 0: red[t / 32] = partial[0]         ("shared", W slots)
//       barrier
//       if t < 32:
//         partial[0] = red[t] if t < W else identity
//         for s = P'/2, ..., 1 (P': W rounded up to a power of two): as above
//     (the total: thread 0's partial[0])
//
// After the step with offset s, lane l < s holds the combination of lanes l, l + s, ...
// below the previous offset; lane 0 reads only partners below 2s <= 32, so the shuffle's
// out-of-warp case (a lane gets its own value back) never reaches it. A partner at or
// past N (a partial warp whose lanes do not exist) is replaced by the identity. Vulkan
// keeps the tree: its subgroup size varies between devices (and even between dispatches
// on some), so a shuffle sequence fixed at compile time would not be correct everywhere.
//
// The combiner comes from B's body (C[i] = C[i] + x, x + C[i], *, T.max, T.min) and its
// identity from the combiner; B's init value is combined with the total, as the serial
// semantics would. The predicate's conjuncts that use reduction loops guard the
// in-thread step; the others guard the in-thread step and the final write. Barriers and
// shuffles stay outside any condition that depends on a thread (`t < 32` keeps whole
// warps together). Where the reduction runs again (in a loop), insert_shared_barriers
// adds the barrier that keeps the next slot writes after the final read.
#include <algorithm>
#include <cfloat>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "ir/structural_equal.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

using VarSet = std::unordered_set<const VarNode*>;

bool is_thread_loop(const ForNode* loop) {
  return loop->kind == ForKind::ThreadBinding && is_thread_index(loop->thread_tag);
}

VarSet vars_in(const Ref<Object>& node) {
  VarSet vars;
  post_order_visit(node, [&](const Ref<Object>& n) {
    if (const auto* v = n.as<VarNode>()) vars.insert(v);
  });
  return vars;
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

// What decides between the shared-memory tree and warp shuffles: the target and where
// the reduction sits in its kernel.
//
// Every thread of a warp reaches the shuffles when the kernel has one thread axis: no
// condition or loop bound above the nest can depend on the thread, since the nest holds
// the threadIdx.x loop (unify_thread_bindings merged any other loop of that axis into it).
struct Placement {
  const Target* target = nullptr;
  int64_t kernel_threads_x = -1;  // the kernel's largest threadIdx.x extent; -1: not constant
  bool one_thread_axis = true;    // no threadIdx.y/z loop of more than one thread
};

constexpr int64_t kWarpSize = 32;

int64_t round_up_to_power_of_two(int64_t n) {
  int64_t power = 1;
  while (power < n) power *= 2;
  return power;
}

// The state shared by the two ways of combining the partial results.
struct Combination {
  Combiner combiner;
  DataType dtype;
  DataType index_type;
  PrimExpr t;  // the reducing thread's index
  int64_t num_reducing = 1;
  Buffer partial;
  PrimExpr zero;

  PrimExpr partial_value() const { return buffer_load(partial, {zero}); }
  PrimExpr index(int64_t value) const { return int_imm(index_type, value); }
};

bool warp_shuffles_apply(const Placement& placement, const std::vector<const ForNode*>& reducing,
                         int64_t num_groups, int64_t num_reducing, DataType dtype) {
  const Target& target = *placement.target;
  if (target.kind != TargetKind::Cuda || target.subgroup_size != kWarpSize) return false;
  // The shuffles move 32-bit scalars.
  if (dtype.lanes() != 1 || dtype.bits() != 32 || dtype.is_bool()) return false;
  if (reducing.size() != 1 || reducing.front()->thread_tag != thread_axis(0).tag) return false;
  if (num_groups != 1 || !placement.one_thread_axis) return false;
  if (num_reducing % kWarpSize == 0) return true;
  // Fewer threads than a warp: only as the whole block, so that no other thread of the
  // warp skips the shuffles.
  return num_reducing < kWarpSize && num_reducing == placement.kernel_threads_x;
}

// Combines the values of the first `lanes` threads of each warp into its lane 0 (the
// unrolled shuffle steps); lanes past `lanes` hold the identity, or do not exist when
// `guard` (their shuffled value is replaced by the identity).
void shuffle_steps(const Combination& c, int64_t lanes, bool guard, std::vector<Stmt>& body) {
  for (int64_t s = std::min(round_up_to_power_of_two(lanes), kWarpSize) / 2; s >= 1; s /= 2) {
    PrimExpr shuffled =
        call(c.dtype, "tir.shuffle_down", {c.partial_value(), int_imm(DataType::Int(32), s)});
    if (guard && 2 * s > lanes) {
      shuffled = select(lt(add(c.t, c.index(s)), c.index(lanes)), shuffled,
                        identity_of(c.combiner, c.dtype));
    }
    body.push_back(
        buffer_store(c.partial, combine(c.combiner, c.partial_value(), shuffled), {c.zero}));
  }
}

// The warp shuffles (one group of threads); returns the total, which thread 0 holds, and
// the shared buffer of the warps' results if there are several warps.
PrimExpr warp_reduce(const Combination& c, const std::string& name, std::vector<Stmt>& body,
                     Buffer& warp_results) {
  int64_t n = c.num_reducing;
  shuffle_steps(c, std::min(n, kWarpSize), n < kWarpSize, body);
  if (n <= kWarpSize) return c.partial_value();
  int64_t warps = n / kWarpSize;
  warp_results = buffer(name + "_shared", c.dtype, {c.index(warps)}, "shared");
  PrimExpr warp_size = c.index(kWarpSize);
  body.push_back(
      if_then_else(eq(floormod(c.t, warp_size), c.zero),
                   buffer_store(warp_results, c.partial_value(), {floordiv(c.t, warp_size)})));
  body.push_back(storage_sync());
  std::vector<Stmt> first_warp;
  Stmt load = buffer_store(c.partial, buffer_load(warp_results, {c.t}), {c.zero});
  if (warps < kWarpSize) {
    load = if_then_else(lt(c.t, c.index(warps)), load,
                        buffer_store(c.partial, identity_of(c.combiner, c.dtype), {c.zero}));
  }
  first_warp.push_back(load);
  shuffle_steps(c, warps, false, first_warp);
  body.push_back(if_then_else(lt(c.t, warp_size), seq_stmt(first_warp)));
  return c.partial_value();
}

// The shared-memory tree over `groups` groups of threads; returns the total of the
// group at `base` and the buffer of the slots.
PrimExpr tree_reduce(const Combination& c, const std::string& name, int64_t groups,
                     const PrimExpr& base, std::vector<Stmt>& body, Buffer& slots) {
  int64_t n = c.num_reducing;
  slots = buffer(name + "_shared", c.dtype, {c.index(groups * n)}, "shared");
  auto slot = [&](int64_t offset) { return add(add(base, c.t), c.index(offset)); };
  body.push_back(buffer_store(slots, c.partial_value(), {slot(0)}));
  body.push_back(storage_sync());
  for (int64_t s = round_up_to_power_of_two(n) / 2; s >= 1; s /= 2) {
    PrimExpr active = lt(c.t, c.index(s));
    if (2 * s > n) active = logical_and(active, lt(add(c.t, c.index(s)), c.index(n)));
    PrimExpr combined =
        combine(c.combiner, buffer_load(slots, {slot(0)}), buffer_load(slots, {slot(s)}));
    body.push_back(if_then_else(active, buffer_store(slots, combined, {slot(0)})));
    body.push_back(storage_sync());
  }
  return buffer_load(slots, {add(base, c.zero)});
}

// `outer_threads`: the threadIdx loops around the nest; their threads are groups too,
// each with its own slots.
Stmt lower_one(const std::vector<const ForNode*>& outer_threads,
               const std::vector<const ForNode*>& nest, const BlockRealizeNode& realize,
               const VarSet& reduction_loop_vars, const Placement& placement) {
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
  for (const ForNode* loop : outer_threads) {
    grouping.push_back(loop);
    num_groups *= constant_extent(loop, block);
  }
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
  Combination c;
  c.combiner = red.combiner;
  c.dtype = dtype;
  c.index_type = reducing.front()->loop_var->dtype;
  c.t = linear_index(reducing, c.index_type);
  c.num_reducing = num_reducing;
  c.partial = buffer(block.name + "_partial", dtype, {c.index(1)}, "local");
  c.zero = c.index(0);
  PrimExpr base = mul(linear_index(grouping, c.index_type), c.index(num_reducing));

  std::vector<PrimExpr> conjuncts, reduce_guard, spatial_guard;
  split_conjuncts(realize.predicate, conjuncts);
  for (const PrimExpr& cond : conjuncts) {
    (uses_any_var(cond, reduction_loop_vars) ? reduce_guard : spatial_guard).push_back(cond);
  }
  std::vector<PrimExpr> step_guard = reduce_guard;
  step_guard.insert(step_guard.end(), spatial_guard.begin(), spatial_guard.end());

  Stmt step = buffer_store(c.partial, combine(red.combiner, c.partial_value(), operand), {c.zero});
  step = guarded(conjunction(step_guard), step);
  for (auto it = serial.rbegin(); it != serial.rend(); ++it) {
    const ForNode* loop = *it;
    step = for_loop(loop->loop_var, loop->min, loop->extent, loop->kind, step, loop->thread_tag,
                    loop->annotations, loop->span);
  }
  std::vector<Stmt> body;
  body.push_back(buffer_store(c.partial, identity_of(red.combiner, dtype), {c.zero}));
  body.push_back(step);
  Buffer shared;
  PrimExpr total = warp_shuffles_apply(placement, reducing, num_groups, num_reducing, dtype)
                       ? warp_reduce(c, block.name, body, shared)
                       : tree_reduce(c, block.name, num_groups, base, body, shared);
  std::vector<PrimExpr> final_guard = {eq(c.t, c.zero)};
  final_guard.insert(final_guard.end(), spatial_guard.begin(), spatial_guard.end());
  body.push_back(guarded(conjunction(final_guard),
                         buffer_store(red.store->buffer, combine(red.combiner, init_value, total),
                                      target_indices, red.store->span)));
  Stmt result = seq_stmt(body);
  if (shared.defined()) result = allocate(shared, result);
  result = allocate(c.partial, result);
  for (auto it = nest.rbegin(); it != nest.rend(); ++it) {
    const ForNode* loop = *it;
    if (!is_thread_loop(loop)) continue;
    result = for_loop(loop->loop_var, loop->min, loop->extent, loop->kind, result, loop->thread_tag,
                      loop->annotations, loop->span);
  }
  return result;
}

// The largest constant threadIdx.x extent of a kernel region, and whether it binds
// threadIdx.y or threadIdx.z to more than one thread.
void describe_region(const ForNode* region, Placement& placement) {
  placement.kernel_threads_x = 1;
  placement.one_thread_axis = true;
  post_order_visit(Ref<Object>(region), [&](const Ref<Object>& n) {
    const auto* loop = n.as<ForNode>();
    if (loop == nullptr || !is_thread_loop(loop)) return;
    const int64_t* extent = as_const_int(loop->extent);
    if (loop->thread_tag == thread_axis(0).tag) {
      if (extent == nullptr) {
        placement.kernel_threads_x = -1;
      } else if (placement.kernel_threads_x >= 0) {
        placement.kernel_threads_x = std::max(placement.kernel_threads_x, *extent);
      }
    } else if (extent == nullptr || *extent != 1) {
      placement.one_thread_axis = false;
    }
  });
}

// Finds the cross-thread reductions and builds their replacements, keyed by the nest's
// outermost loop, knowing the kernel region (the outermost thread-bound loop) each sits in.
class ReductionFinder final : public Visitor {
 public:
  explicit ReductionFinder(const Target& target) { placement_.target = &target; }

  std::unordered_map<const ForNode*, Stmt> replacements;

 private:
  void visit_node(const ForNode* node) override {
    bool region_root = node->kind == ForKind::ThreadBinding && !in_region_;
    if (region_root) {
      describe_region(node, placement_);
      in_region_ = true;
    }
    loops_.push_back(node);
    Visitor::visit_node(node);
    loops_.pop_back();
    if (region_root) in_region_ = false;
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
    std::vector<const ForNode*> outer_threads;
    for (size_t i = 0; i < top; ++i) {
      if (is_thread_loop(loops_[i])) outer_threads.push_back(loops_[i]);
    }
    replacements[nest.front()] = lower_one(outer_threads, nest, *node, reduction_vars, placement_);
  }

  Placement placement_;
  bool in_region_ = false;
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

PrimFunc lower_cross_thread_reduction(const PrimFunc& func, const Target& target) {
  ReductionFinder finder(target);
  finder.visit(func->body);
  if (finder.replacements.empty()) return func;
  NestReplacer replacer(finder.replacements);
  auto* result = copy_node(*func);
  result->body = replacer.mutate(func->body);
  return PrimFunc(result);
}

}  // namespace relaxc::tir
