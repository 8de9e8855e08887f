// The row reduction rule: reductions over the trailing axes of each row and the spatial
// block that consumes their results per row (softmax: max, sum of exp, divide;
// layer_norm; rms_norm; instance_norm) become one kernel, one thread block per row.
//
// Recognized by its blocks, all directly in the root block: spatial blocks other than
// the last are inlined into their consumers (compute_inline; the rule declines where one
// cannot be). What remains must be reductions R1..Rm, then one spatial block L, the
// function's output:
// - each Ri a perfect loop nest whose loop variables are its iteration values, p spatial
//   ones first (the row) and then reduction ones; it writes a buffer of the row's shape
//   at its spatial iteration variables;
// - L a perfect loop nest whose loop variables are its iteration values, whose first p
//   loops have the extents of the row and which reads each Ri's buffer at its first p
//   iteration variables (so row r of L needs row r of every reduction alone). L may
//   have no loop past the p (one output per row: argmax, argmin, mean): its last loop
//   is split by 1 to give it one, which runs on one thread of the row's block.
// - or, for short rows (below), no L: a reduction that nothing follows writes into a
//   register copy
//   (cache_write), and that copy is L. Over long rows the generic schedule's
//   cross-thread reduction is this rule's without the copy; the rule declines them.
// Schedule: L's first p loops fused into the row loop (but for up to two leading loops
// of extent 1, bound to blockIdx.y and z: compute_at cannot bound the quotients of a
// fused index like (0 * s + r) / s), every Ri moved under it (compute_at, last first),
// the row loop bound to blockIdx.x; below it, each block's
// loops fused and split [ceil(C / T), T] with the inner part bound to threadIdx.x (for
// Ri a reduction loop bound to threadIdx: lower_cross_thread_reduction makes it a
// shared-memory tree or subgroup reduction) and a tail guard where T does not divide C.
// The rule declines where compute_at leaves a reduction a loop over rows below the row
// loop (a fused row index it cannot bound). Short rows (every block's at most 32
// elements, constant: windows that the window rule does not take) are one thread's each
// instead: the row loop split [ceil(R / 256), 256] onto blockIdx.x and threadIdx.x,
// every block's loops below it serial and unrolled, the per-row intermediates in
// registers; an input that several blocks read (layer_norm's x) is staged in registers
// (a "local" copy computed at the row, loaded 4 elements at a time, as the output row is
// stored), and the parameters that every row reads alike (gamma, beta) are copied to
// shared memory once per thread block: each input is then read once. T is a power of two:
// the smallest covering the longest row, at most 256 and the target's thread limit. Each Ri's
// buffer moves to "shared" memory (set_scope): one element per row, shared by the row's threads, so
// that the intermediates never reach global memory. An input that several of the blocks read
// (softmax's x: the max, the sum of exp and the output) is staged in shared memory, one row per
// thread block (cache_read with every reader as a consumer, compute_at under the row loop, its
// loops on the row's threads), where the rows of all such inputs fit in half the target's shared
// memory and have constant lengths: the kernel then reads each input once and writes its output
// once, the compulsory traffic. Where a row's length is a symbolic m (attention's scores
// over a sequence), the function is specialized by shape: where m <= B, the largest power of
// two of float32 elements in half the shared memory, the loops over m run to min(m, B) (the
// same iterations there) and the staged row is a constant B elements; otherwise the unstaged
// schedule; the two under one `if` (branch_on). Where no input can be staged, the kernel
// reads such an input once per block that reads it.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

constexpr int64_t kMaxThreads = 256;
// Rows of at most this many elements (constant) are one thread's each, reduced serially
// (windows that are not an image's): a thread block per row would leave most of its
// threads idle.
constexpr int64_t kShortRow = 32;
// A short row's inputs that several blocks read are staged in registers, at most this
// many bytes of them per thread (two rows of 32 float32).
constexpr int64_t kRegisterRowBytes = 2 * kShortRow * 4;
constexpr int64_t kVectorLanes = 4;

int64_t thread_count(const std::vector<PrimExpr>& row_extents, const Target& target) {
  int64_t limit = std::min(kMaxThreads, target.max_threads_per_block);
  int64_t longest = 1;
  for (const PrimExpr& e : row_extents) {
    const int64_t* c = as_const_int(e);
    longest = c == nullptr ? limit : std::max(longest, *c);
  }
  int64_t threads = 1;
  while (threads < longest && threads * 2 <= limit) threads *= 2;
  return threads;
}

// The function's input buffers that more than one of `blocks` reads, each reader loading
// it only at its first `row_dims` iteration variables (its row) and any trailing indices,
// with their readers. Empty when a row of one of them has no constant size (a symbolic
// trailing extent, a Var, counts as `row_bound` where that is not 0), or when their rows
// do not fit in `budget` bytes together.
struct SharedInput {
  Buffer buffer;
  std::vector<BlockRef> readers;
};
std::vector<SharedInput> inputs_to_stage(const Schedule& s, const std::vector<BlockRef>& blocks,
                                         size_t row_dims, int64_t budget, int64_t row_bound) {
  std::vector<SharedInput> out;
  int64_t total = 0;
  for (const auto& entry : s.func()->buffer_map) {
    const Buffer& buffer = entry.second;  // not a structured binding: lambdas capture it
    if (buffer->shape.size() <= row_dims) continue;
    SharedInput input{buffer, {}};
    bool row_local = true;
    for (const BlockRef& b : blocks) {
      const Block& block = s.get_block_realize(b)->block;
      if (!std::any_of(block->reads.begin(), block->reads.end(),
                       [&](const BufferRegion& r) { return r->buffer.same_as(buffer); })) {
        continue;
      }
      input.readers.push_back(b);
      post_order_visit(block->body, [&](const Ref<Object>& node) {
        const auto* load = node.as<BufferLoadNode>();
        if (load == nullptr || !load->buffer.same_as(buffer)) return;
        for (size_t d = 0; row_local && d < row_dims; ++d) {
          row_local = load->indices[d].same_as(block->iter_vars[d]->var);
        }
      });
    }
    if (input.readers.size() < 2 || !row_local) continue;
    int64_t bytes = buffer->dtype.bytes();
    for (size_t d = row_dims; d < buffer->shape.size(); ++d) {
      const int64_t* extent = as_const_int(buffer->shape[d]);
      if (extent == nullptr && (row_bound == 0 || buffer->shape[d].as<VarNode>() == nullptr)) {
        return {};
      }
      bytes *= extent != nullptr ? *extent : row_bound;
    }
    total += bytes;
    if (total > budget) return {};
    out.push_back(std::move(input));
  }
  return out;
}

// How apply_staged treats the inputs that several blocks read: not staged; staged where
// their rows have constant sizes; or staged with each symbolic trailing extent e (a Var)
// bounded: the function's loops over e become loops over min(e, B), equal where e <= B,
// so that a row's copy has a constant size (B elements), and the schedule holds where
// e <= B alone (the caller branches on that condition).
enum class Staging { None, ConstantRows, BoundedRows };

// `func` with each loop whose variable is in `loops` (extent e) running to min(e, bound)
// instead, and the block iteration variables bound to those loops given that domain.
class BoundLoopExtents final : public Mutator {
 public:
  BoundLoopExtents(std::vector<const VarNode*> loops, int64_t bound)
      : loops_(std::move(loops)), bound_(bound) {}

 protected:
  Stmt mutate_node(const ForNode* node) override {
    For loop = Mutator::mutate_node(node).cast<ForNode>();
    if (!bounded(loop->loop_var.get())) return loop;
    auto* copy = copy_node(*loop);
    copy->extent = bounded_extent(copy->extent);
    return For(copy);
  }
  Stmt mutate_node(const BlockRealizeNode* node) override {
    BlockRealize realize = Mutator::mutate_node(node).cast<BlockRealizeNode>();
    BlockNode* block = nullptr;
    Block owner;  // holds the copy
    for (size_t i = 0; i < realize->iter_values.size(); ++i) {
      const auto* value = realize->iter_values[i].as<VarNode>();
      if (value == nullptr || !bounded(value)) continue;
      if (block == nullptr) owner = Block(block = copy_node(*realize->block));
      auto* iter = copy_node(*block->iter_vars[i]);
      iter->dom = range(iter->dom->min, bounded_extent(iter->dom->extent));
      block->iter_vars[i] = IterVar(iter);
    }
    if (block == nullptr) return realize;
    auto* copy = copy_node(*realize);
    copy->block = owner;
    return BlockRealize(copy);
  }

 private:
  bool bounded(const VarNode* loop_var) const {
    return std::find(loops_.begin(), loops_.end(), loop_var) != loops_.end();
  }
  PrimExpr bounded_extent(const PrimExpr& extent) const {
    return min(extent, int_imm(extent->dtype, bound_));
  }
  std::vector<const VarNode*> loops_;
  int64_t bound_;
};

// Short rows: the parameters that `blocks` read alike for every row (a layer norm's gamma
// and beta) are copied to shared memory once per thread block (cache_read, compute_at
// at `row_block`, spread over its `threads`), instead of each thread loading them for its
// row. False where those copies would take over half the target's shared memory.
bool stage_row_invariant_params(Schedule& s, const std::vector<BlockRef>& blocks, size_t row_dims,
                                const LoopRef& row_block, int64_t threads, const Target& target) {
  std::vector<SharedInput> params;
  for (const BlockRef& b : blocks) {
    const Block& block = s.get_block_realize(b)->block;
    std::vector<Var> row_vars;
    for (size_t d = 0; d < row_dims; ++d) row_vars.push_back(block->iter_vars[d]->var);
    for (const Buffer& buffer : block_invariant_params(s.func(), *block, row_vars, Buffer())) {
      auto it = std::find_if(params.begin(), params.end(),
                             [&](const SharedInput& p) { return p.buffer.same_as(buffer); });
      if (it == params.end()) it = params.insert(params.end(), {buffer, {}});
      it->readers.push_back(b);
    }
  }
  int64_t shared_bytes = 0;
  for (const SharedInput& param : params) {
    BlockRef copy =
        s.cache_read(param.readers.front(), read_index(s, param.readers.front(), param.buffer),
                     "shared", {param.readers.begin() + 1, param.readers.end()});
    s.compute_at(copy, row_block);
    std::optional<int64_t> bytes = tile_bytes(s, copy, row_block);
    if (!bytes) return false;
    shared_bytes += *bytes;
    cooperative_copy(s, copy, row_block, 1, threads);
  }
  return 2 * shared_bytes <= target.max_shared_memory_bytes;
}

// The rule's schedule of `func`, its inputs staged as `staging` says; for BoundedRows,
// `condition` receives the condition under which the schedule holds.
std::optional<PrimFunc> apply_staged(const PrimFunc& func, const Target& target, Staging staging,
                                     PrimExpr* condition = nullptr) {
  const bool stage_inputs = staging != Staging::None;
  const BlockNode* root = root_block(func);
  if (root == nullptr) return std::nullopt;
  std::vector<BlockRealize> blocks = child_blocks(root->body);
  if (blocks.empty() || blocks.size() + 1 != blocks_under(func->body).size()) return std::nullopt;
  Schedule s(func);
  const Block& final_block = blocks.back()->block;
  bool bare_reduction = !is_spatial(*final_block);
  if (bare_reduction) {
    // A reduction that nothing follows (a pooling window): its result goes through a
    // register copy, which becomes the spatial block the rows end in.
    if (!final_block->init.defined() || final_block->writes.size() != 1) return std::nullopt;
    s.cache_write(s.get_blocks().back(), 0, "local");
  }
  if (!inline_spatial_producers(s)) return std::nullopt;
  std::vector<BlockRef> reductions = s.get_blocks();
  BlockRef last = reductions.back();
  reductions.pop_back();
  if (reductions.empty()) return std::nullopt;
  std::optional<std::vector<For>> out_loops = simple_nest(s.func(), last.name);
  if (!out_loops) return std::nullopt;
  const Block& out = s.get_block_realize(last)->block;
  size_t row_dims = 0;
  arith::Analyzer analyzer;
  std::vector<PrimExpr> row_extents;  // per block, the elements of one row
  for (const BlockRef& r : reductions) {
    std::optional<std::vector<For>> loops = simple_nest(s.func(), r.name);
    const Block& block = s.get_block_realize(r)->block;
    if (!loops || !block->init.defined() || block->writes.size() != 1) return std::nullopt;
    size_t p = 0;
    while (p < block->iter_vars.size() && block->iter_vars[p]->kind == IterKind::Spatial) ++p;
    for (size_t i = p; i < block->iter_vars.size(); ++i) {
      if (block->iter_vars[i]->kind != IterKind::Reduce) return std::nullopt;
    }
    if (p == 0 || p == block->iter_vars.size() || (row_dims != 0 && p != row_dims) ||
        p > out_loops->size()) {
      return std::nullopt;
    }
    row_dims = p;
    const auto* store = block->body.as<BufferStoreNode>();
    if (store == nullptr || store->indices.size() != p) return std::nullopt;
    PrimExpr elements = int_imm(DataType::Int(64), 1);
    for (size_t d = 0; d < p; ++d) {
      if (!store->indices[d].same_as(block->iter_vars[d]->var) ||
          !analyzer.can_prove_equal((*loops)[d]->extent, (*out_loops)[d]->extent)) {
        return std::nullopt;
      }
    }
    for (size_t d = p; d < loops->size(); ++d) elements = elements * (*loops)[d]->extent;
    row_extents.push_back(analyzer.simplify(elements));
    std::vector<PrimExpr> row_vars;
    for (size_t d = 0; d < p; ++d) row_vars.push_back(out->iter_vars[d]->var);
    if (!loads_only_at(out->body, store->buffer.get(), row_vars)) return std::nullopt;
  }
  PrimExpr out_elements = int_imm(DataType::Int(64), 1);
  for (size_t d = row_dims; d < out_loops->size(); ++d) {
    out_elements = out_elements * (*out_loops)[d]->extent;
  }
  row_extents.push_back(analyzer.simplify(out_elements));
  int64_t threads = thread_count(row_extents, target);
  bool short_rows = std::all_of(row_extents.begin(), row_extents.end(), [](const PrimExpr& e) {
    const int64_t* c = as_const_int(e);
    return c != nullptr && *c <= kShortRow;
  });
  // A bare reduction over long rows is the generic schedule's cross-thread reduction
  // already, without the copy.
  if (bare_reduction && !short_rows) return std::nullopt;
  int64_t row_bound = 0;
  std::vector<PrimExpr> bounded_extents;
  if (staging == Staging::BoundedRows) {
    // The largest power of two of float32 elements in half the shared memory.
    row_bound = 1;
    while (row_bound * 2 * 4 <= target.max_shared_memory_bytes / 2) row_bound *= 2;
    std::vector<const VarNode*> bounded_loops;
    std::vector<std::vector<For>> nests = {*out_loops};
    for (const BlockRef& r : reductions) nests.push_back(*simple_nest(s.func(), r.name));
    for (const std::vector<For>& loops : nests) {
      for (size_t d = row_dims; d < loops.size(); ++d) {
        const PrimExpr& extent = loops[d]->extent;
        if (as_const_int(extent) != nullptr) continue;
        if (extent.as<VarNode>() == nullptr) return std::nullopt;
        bounded_loops.push_back(loops[d]->loop_var.get());
        if (std::none_of(bounded_extents.begin(), bounded_extents.end(),
                         [&](const PrimExpr& e) { return e.same_as(extent); })) {
          bounded_extents.push_back(extent);
        }
      }
    }
    if (bounded_extents.empty()) return std::nullopt;  // ConstantRows' case
    *condition = PrimExpr();
    for (const PrimExpr& e : bounded_extents) {
      PrimExpr fits = le(e, int_imm(e->dtype, row_bound));
      *condition = condition->defined() ? logical_and(*condition, fits) : fits;
    }
    s = Schedule(
        with_body(s.func(), BoundLoopExtents(bounded_loops, row_bound).mutate(s.func()->body)));
  }

  std::vector<LoopRef> out_refs = s.get_loops(last);
  if (out_refs.size() == row_dims) {
    // One output per row (argmax, mean): a unit loop below the row, which one thread runs.
    s.split(out_refs.back(), {PrimExpr(), int_imm(out_refs.back().var->dtype, 1)});
    out_refs = s.get_loops(last);
  }
  // Leading row axes of extent 1 (a batch of one) stay out of the fused row index, whose
  // quotients compute_at could not bound; they are bound to blockIdx.y and z.
  size_t unit = 0;
  while (unit + 1 < row_dims && unit < 2 && is_const_int(s.get_for(out_refs[unit])->extent, 1)) {
    ++unit;
  }
  std::vector<BlockRef> all = reductions;
  all.push_back(last);
  std::vector<BlockRef> copies;
  if (stage_inputs) {
    int64_t budget = short_rows ? kRegisterRowBytes : target.max_shared_memory_bytes / 2;
    for (const SharedInput& input : inputs_to_stage(s, all, row_dims, budget, row_bound)) {
      copies.push_back(s.cache_read(
          input.readers.front(), read_index(s, input.readers.front(), input.buffer),
          short_rows ? "local" : "shared", {input.readers.begin() + 1, input.readers.end()}));
    }
    if (copies.empty()) return std::nullopt;  // the unstaged schedule is the same
  }
  LoopRef row = s.fuse(std::vector<LoopRef>(out_refs.begin() + unit, out_refs.begin() + row_dims));
  std::optional<LoopRef> row_block;
  const int64_t rows_per_block = std::min(kMaxThreads, target.max_threads_per_block);
  if (short_rows) {
    std::vector<LoopRef> parts =
        s.split(row, {PrimExpr(), int_imm(row.var->dtype, rows_per_block)});
    row_block = parts[0];
    row = parts[1];
  }
  try {
    for (size_t i = reductions.size(); i-- > 0;) s.compute_at(reductions[i], row);
    for (const BlockRef& copy : copies) s.compute_at(copy, row);
  } catch (const UserError&) {
    return std::nullopt;  // the rows depend on each other after all
  }
  if (row_block) {
    if (!stage_row_invariant_params(s, all, row_dims, *row_block, rows_per_block, target))
      return std::nullopt;
    s.bind(*row_block, "blockIdx.x");
    s.bind(row, "threadIdx.x");
  } else {
    s.bind(row, "blockIdx.x");
  }
  for (size_t i = 0; i < unit; ++i) s.bind(out_refs[i], i == 0 ? "blockIdx.y" : "blockIdx.z");
  all.insert(all.begin(), copies.begin(), copies.end());
  for (const BlockRef& b : all) {
    std::vector<LoopRef> loops = s.get_loops(b);
    auto at = std::find_if(loops.begin(), loops.end(),
                           [&](const LoopRef& l) { return l.var.same_as(row.var); });
    std::vector<LoopRef> inner(at + 1, loops.end());
    if (inner.empty()) return std::nullopt;
    // Where compute_at could not pin a reduction's row to the row loop's (a fused index
    // it cannot bound, as rows (1, s) give), a loop below it would still range over
    // rows: the threads would reduce across rows. The generic schedule takes it.
    bool is_copy = std::any_of(copies.begin(), copies.end(),
                               [&](const BlockRef& c) { return c.name == b.name; });
    for (const LoopRef& l : inner) {
      if (b.name != last.name && !is_copy && loop_iter_use(s.get_for(l)).spatial) {
        return std::nullopt;
      }
    }
    // A copy's loops below the row must cover one row alone, as for the reductions.
    if (is_copy) {
      PrimExpr copied = int_imm(DataType::Int(64), 1);
      for (const LoopRef& l : inner) copied = copied * s.get_for(l)->extent;
      const Block& block = s.get_block_realize(b)->block;
      const Buffer& source = block->reads.front()->buffer;
      PrimExpr row_elements = int_imm(DataType::Int(64), 1);
      for (size_t d = row_dims; d < source->shape.size(); ++d) {
        const PrimExpr& extent = source->shape[d];
        const bool bounded = std::any_of(bounded_extents.begin(), bounded_extents.end(),
                                         [&](const PrimExpr& e) { return e.same_as(extent); });
        row_elements =
            row_elements * (bounded ? min(extent, int_imm(extent->dtype, row_bound)) : extent);
      }
      if (!analyzer.can_prove_equal(copied, row_elements)) return std::nullopt;
    }
    if (short_rows) {
      // Serial in the row's thread and unrolled: the staged row's indices are constants,
      // so that it lives in registers. The staged row is loaded, and the output row
      // stored, 4 elements at a time where the innermost extent allows.
      const int64_t* innermost = as_const_int(s.get_for(inner.back())->extent);
      if ((is_copy || b.name == last.name) && innermost != nullptr &&
          *innermost % kVectorLanes == 0) {
        std::vector<LoopRef> lanes =
            s.split(inner.back(), {PrimExpr(), int_imm(inner.back().var->dtype, kVectorLanes)});
        inner.back() = lanes[0];
        s.vectorize(lanes[1]);
      }
      for (const LoopRef& l : inner) s.unroll(l);
      continue;
    }
    LoopRef fused = s.fuse(inner);
    std::vector<LoopRef> parts = s.split(fused, {PrimExpr(), int_imm(fused.var->dtype, threads)});
    s.bind(parts[1], "threadIdx.x");
  }
  for (const BlockRef& r : reductions) s.set_scope(r, 0, short_rows ? "local" : "shared");
  return s.func();
}

// With the inputs that several blocks read staged in shared memory where their rows fit;
// where a row's length is symbolic, staged where it is at most the bound that fits and
// not staged otherwise, the two schedules under an `if`; else without.
std::optional<PrimFunc> apply(const PrimFunc& func, const Target& target) {
  if (std::optional<PrimFunc> staged = apply_staged(func, target, Staging::ConstantRows)) {
    return staged;
  }
  std::optional<PrimFunc> unstaged = apply_staged(func, target, Staging::None);
  if (!unstaged) return std::nullopt;
  PrimExpr condition;
  if (std::optional<PrimFunc> bounded =
          apply_staged(func, target, Staging::BoundedRows, &condition)) {
    return branch_on(condition, *bounded, *unstaged);
  }
  return unstaged;
}

}  // namespace

GpuScheduleRule row_reduction_rule() { return {"row reduction", &apply}; }

}  // namespace relaxc::tir
