// The default GPU schedule: binds every unscheduled block of a PrimFunc to GPU threads.
//
// A function no thread binding has touched is first offered to the rules of
// gpu_rules/ (matmul, reductions, ...), in order; the first that recognizes it schedules
// it whole. Otherwise, the generic schedule: each block directly under the root block,
// not under a thread-bound loop yet, whose loops form a perfect nest holding it alone, is
// scheduled with the loop primitives:
// - spatial block: its loops fused into one of extent E, split [ceil(E / T), T] with
//   T = min(256, max threads per block) (or E when smaller), bound to blockIdx.x and
//   threadIdx.x;
// - reduction block: its spatial loops (moved outside the reduction loops) fused and
//   bound to blockIdx.x, its reduction loops fused and split [None, R] with the inner
//   part on threadIdx.x (R a power of two, at most 256 and the thread limit), which the
//   kernel lowering turns into a cross-thread reduction; without an init (it adds to
//   what its output holds) its spatial loops are scheduled as above and its reduction
//   loops stay serial inside each thread.
// A block without loops (a one-element function, or opaque code) gets unit blockIdx.x /
// threadIdx.x loops; T.parallel loops inside it become serial. Symbolic extents work through
// split's tail guards. A grid above the target's limit, constant or symbolic, is
// split_host_device's to fit (an overflow axis or a grid-stride loop).
#include "passes/tir/default_gpu_schedule.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

namespace {

constexpr int64_t kDefaultThreads = 256;
// The axes the schedule binds: a one-dimensional grid of one-dimensional blocks.
const std::string kGridAxis{block_axis(0).tag};
const std::string kBlockAxis{thread_axis(0).tag};

PrimExpr index_const(const Var& like, int64_t value) { return int_imm(like->dtype, value); }

int64_t next_power_of_two(int64_t v) {
  int64_t p = 1;
  while (p < v) p *= 2;
  return p;
}

// The T.parallel loops of a statement that one thread runs, made serial: a parallel
// loop's iterations are independent, so running them in order is one of its meanings,
// and a kernel's only parallel work is its threads.
class SerializeParallelLoops final : public Mutator {
 protected:
  Stmt mutate_node(const ForNode* loop) override {
    Stmt rebuilt = Mutator::mutate_node(loop);
    const auto* f = rebuilt.as<ForNode>();
    if (f == nullptr || f->kind != ForKind::Parallel) return rebuilt;
    return for_loop(f->loop_var, f->min, f->extent, ForKind::Serial, f->body, {}, f->annotations,
                    f->span);
  }
};

// Wraps `stmt` (found at `path`) in unit loops bound to each of `axes`, outermost first;
// the single thread runs its parallel loops serially.
PrimFunc wrap_in_unit_loops(const PrimFunc& func, const StmtPath& path,
                            const std::vector<std::string>& axes) {
  SerializeParallelLoops serialize;
  Stmt body = serialize.mutate(path.back());
  for (size_t i = axes.size(); i-- > 0;) {
    std::string name = axes[i];
    std::replace(name.begin(), name.end(), '.', '_');
    body = for_loop(var(name, DataType::Int(32)), int_imm(DataType::Int(32), 0),
                    int_imm(DataType::Int(32), 1), ForKind::ThreadBinding, body, axes[i], {},
                    path.back()->span);
  }
  return with_body(func, replace_in_path(path, body));
}

// Checks that `block`'s loops are its own: a perfect chain from the outermost loop down
// to the block, holding no other block.
void check_own_loop_nest(const PrimFunc& func, const std::string& block_name) {
  StmtPath path = find_block_path(func->body, block_name);
  std::vector<For> loops = loops_on_path(StmtPath(path.begin(), path.end() - 1));
  if (loops.empty()) return;
  for (const BlockRealize& other : blocks_under(loops.front())) {
    if (other->block->name == block_name) continue;
    // Blocks nested inside this one move with it.
    if (!find_block_path(path.back(), other->block->name).empty()) continue;
    user_error(loops.front()->span)
        << "default_gpu_schedule: block '" << block_name << "' shares "
        << loop_name(loops.front()->loop_var) << " with block '" << other->block->name
        << "'; schedule blocks that share loops by hand";
  }
  for (size_t i = 0; i + 1 < loops.size(); ++i) {
    if (!loops[i]->body.same_as(loops[i + 1])) {
      user_error(loops[i]->span) << "default_gpu_schedule: the loops of block '" << block_name
                                 << "' are not a perfect nest below "
                                 << loop_name(loops[i]->loop_var);
    }
  }
  if (!loops.back()->body.same_as(path.back())) {
    user_error(loops.back()->span)
        << "default_gpu_schedule: the body of " << loop_name(loops.back()->loop_var)
        << " is not block '" << block_name << "' alone";
  }
}

void schedule_spatial(Schedule& s, const std::vector<LoopRef>& loops, const Target& target) {
  LoopRef fused = s.fuse(loops);
  int64_t threads = std::min(kDefaultThreads, target.max_threads_per_block);
  if (const int64_t* extent = as_const_int(s.get_for(fused)->extent)) {
    threads = std::max<int64_t>(1, std::min(threads, *extent));
  }
  std::vector<LoopRef> parts = s.split(fused, {PrimExpr(), index_const(fused.var, threads)});
  s.bind(parts[0], kGridAxis);
  s.bind(parts[1], kBlockAxis);
}

void schedule_reduction(Schedule& s, const std::vector<LoopRef>& spatial,
                        const std::vector<LoopRef>& reduce, const Target& target) {
  std::vector<LoopRef> order = spatial;
  order.insert(order.end(), reduce.begin(), reduce.end());
  s.reorder(order);
  LoopRef reduced = s.fuse(reduce);
  // A power of two: the cross-thread reduction halves the active threads each step.
  int64_t threads = 1;
  while (threads * 2 <= std::min(kDefaultThreads, target.max_threads_per_block)) threads *= 2;
  if (const int64_t* extent = as_const_int(s.get_for(reduced)->extent)) {
    threads = std::min(threads, next_power_of_two(*extent));
  }
  std::vector<LoopRef> parts = s.split(reduced, {PrimExpr(), index_const(reduced.var, threads)});
  s.bind(parts[1], kBlockAxis);
  if (spatial.empty()) {
    PrimFunc func = s.func();
    s = Schedule(wrap_in_unit_loops(func, find_loop_path(func->body, parts[0].var), {kGridAxis}));
  } else {
    s.bind(s.fuse(spatial), kGridAxis);
  }
}

// A reduction block without init adds to what its output holds: the threads cannot
// combine partial results from zero, so each runs its reduction loops serially.
void schedule_accumulation(Schedule& s, const std::vector<LoopRef>& spatial,
                           const std::vector<LoopRef>& reduce, const Target& target) {
  std::vector<LoopRef> order = spatial;
  order.insert(order.end(), reduce.begin(), reduce.end());
  s.reorder(order);
  if (!spatial.empty()) {
    schedule_spatial(s, spatial, target);
    return;
  }
  PrimFunc func = s.func();
  s = Schedule(wrap_in_unit_loops(func, find_loop_path(func->body, reduce.front().var),
                                  {kGridAxis, kBlockAxis}));
}

bool under_thread_binding(const StmtPath& path) {
  return std::any_of(path.begin(), path.end(), [](const Stmt& st) {
    const auto* loop = st.as<ForNode>();
    return loop != nullptr && loop->kind == ForKind::ThreadBinding;
  });
}

// Whether the block at `path` sits directly in the root block (no other block between).
bool directly_under_root(const StmtPath& path) {
  int blocks = 0;
  for (size_t i = 0; i + 1 < path.size(); ++i) blocks += path[i].is<BlockNode>() ? 1 : 0;
  return blocks == 1;
}

}  // namespace

PrimFunc default_gpu_schedule(const PrimFunc& func, const Target& target) {
  if (root_block(func) == nullptr) return func;  // opaque code: nothing to schedule
  std::vector<BlockRealize> blocks = blocks_under(func->body);
  bool untouched = std::none_of(blocks.begin(), blocks.end(), [&](const BlockRealize& realize) {
    return under_thread_binding(find_block_path(func->body, realize->block->name));
  });
  if (untouched) {
    for (const GpuScheduleRule& rule : gpu_schedule_rules()) {
      if (std::optional<PrimFunc> scheduled = rule.apply(func, target)) return *scheduled;
    }
  }
  Schedule s(func);
  for (const BlockRef& block : s.get_blocks()) {
    StmtPath path = find_block_path(s.func()->body, block.name);
    if (!directly_under_root(path) || under_thread_binding(path)) continue;
    check_own_loop_nest(s.func(), block.name);
    std::vector<LoopRef> loops = s.get_loops(block);
    if (loops.empty()) {
      s = Schedule(wrap_in_unit_loops(s.func(), path, {kGridAxis, kBlockAxis}));
      continue;
    }
    std::vector<LoopRef> spatial, reduce;
    for (const LoopRef& loop : loops) {
      For header = s.get_for(loop);
      LoopIterUse use = loop_iter_use(header);
      // A loop no iteration variable depends on repeats the block: running those
      // repetitions on parallel threads could race (an accumulation written opaquely).
      if (!use.spatial && !use.reduce && !is_const_int(header->extent, 1)) {
        user_error(header->span) << "default_gpu_schedule: no iteration variable of block '"
                                 << block.name << "' depends on " << loop_name(loop.var)
                                 << "; bind the block's iteration variables to its loops";
      }
      (use.reduce ? reduce : spatial).push_back(loop);
    }
    if (reduce.empty()) {
      schedule_spatial(s, spatial, target);
    } else if (!s.get_block_realize(block)->block->init.defined()) {
      schedule_accumulation(s, spatial, reduce, target);
    } else {
      schedule_reduction(s, spatial, reduce, target);
    }
  }
  return s.func();
}

IRModule default_gpu_schedule(const IRModule& mod, const Target& target) {
  IRModule result = mod;
  for (const auto& [name, func] : mod->functions) {
    if (const auto* prim = func.as<PrimFuncNode>()) {
      PrimFunc scheduled = default_gpu_schedule(PrimFunc(prim), target);
      if (!scheduled.same_as(func)) result = module_with(result, name, scheduled);
    }
  }
  return result;
}

}  // namespace relaxc::tir
