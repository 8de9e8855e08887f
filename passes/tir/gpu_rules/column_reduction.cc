// The column reduction rule: a reduction over axes outside the innermost axis of its
// inputs, which the output keeps (R.sum(x, axis=0), a mean over the channels of NCHW
// data), becomes kernels whose threads read consecutive addresses.
//
// Recognized by its blocks, all directly in the root block: spatial blocks other than the
// last are inlined into their consumers (compute_inline; the rule declines where one
// cannot be). What remains must be one reduction R, perhaps followed by one spatial
// block L, the function's output:
// - R a perfect loop nest whose loop variables are its iteration values, p spatial ones
//   (an output element) first and then reduction ones, with an init; it stores
//   C[v_0, .., v_p-1] = C[..] op x (op +, *, max, min) and every other load in it has
//   the last spatial variable v_p-1 as its last index: outputs adjacent along v_p-1 read
//   adjacent addresses of every input at each reduction step;
// - L a perfect loop nest over R's p spatial extents, reading C only at its own
//   iteration variables (mean: the sum divided by the count); C is then no parameter.
// Threads: X adjacent outputs per thread block along threadIdx.x, X the subgroup size, at
// least kMinColumns (W, the output's innermost extent, where smaller), and Y along
// threadIdx.y over the reduction: Y a power of two, X * Y at most 256 and the target's
// thread limit, and no more than the power of two covering a constant K (the reduced
// extent). Where the outputs give fewer than kBlocksToFillGpu thread blocks of X outputs
// (sizes known), the reduction is split over blocks too, in two passes; otherwise one.
//
// One pass: the output's innermost loop (L's, or R's last spatial one) split
// [ceil(W / X), X] (L's after splitting off a unit loop), its outer part fused with the
// other output loops onto blockIdx.x and X onto threadIdx.x. With L, R moves under L's
// threadIdx.x loop (compute_at, C in "local" scope meanwhile, so that each thread
// computes only its own output). R's reduction loops are fused into one of extent K and
// split [ceil(K / Y), Y], the inner part on threadIdx.y: each thread accumulates every
// Y-th element of its column serially (the X threads of a row of the block read X
// consecutive addresses), and lower_cross_thread_reduction combines the Y partials of
// each output through shared memory. L's unit loop is split [1, Y] onto threadIdx.y with
// a guard, so that the thread holding the total runs it, and C moves to shared memory
// (set_scope): X + Y - 1 elements per block once compacted, indexed by the thread (the
// fused output index's quotients would leave a thread's local buffer no constant size).
// Tail guards come from split where X or Y does not divide W or K. The kernel reads each
// input element once and writes each output once. The rule declines where the partials
// do not fit in the target's shared memory, or where compute_at leaves R a loop over
// outputs.
//
// Two passes (schedule_column_slices, block_patterns.h), where the outputs give fewer than
// kBlocksToFillGpu thread blocks: a constant K split into S = B * Y slices of at least
// kMinSliceRows rows, S dividing K; a first kernel sums each slice of each output on one
// thread of X x Y into a workspace, a second sums each output's S partials and runs L.
// R.sum(x, axis=0) over 4096 x 1024 makes 32 blocks in one pass, a quarter of an H100's
// 132 multiprocessors; in two, 256 blocks of 64 rows per thread, the partials adding 3%
// to the traffic.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/tir/functor.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

constexpr int64_t kMaxThreads = 256;
// Adjacent outputs per thread block, where the subgroup is narrower: a row of the block
// reads at least 128 bytes of float32 (a GPU's cache line, two of a CPU's). With X =
// lavapipe's 8 lanes, a block read 32 bytes of each line, and the blocks reading the rest
// ran after it had left the cache: R.sum(x, axis=0) over 4096 x 1024 took 15.6 ms, with
// 32 columns 11 ms.
constexpr int64_t kMinColumns = 32;

// Whether `store` is C[i] = op(C[i], x) or op(x, C[i]), x free of C, with op one that
// lower_cross_thread_reduction combines across threads.
bool is_combining_store(const BufferStoreNode& store) {
  PrimExpr a, b;
  if (const auto* n = store.value.as<AddNode>()) {
    a = n->a, b = n->b;
  } else if (const auto* n = store.value.as<MulNode>()) {
    a = n->a, b = n->b;
  } else if (const auto* n = store.value.as<MaxNode>()) {
    a = n->a, b = n->b;
  } else if (const auto* n = store.value.as<MinNode>()) {
    a = n->a, b = n->b;
  } else {
    return false;
  }
  auto is_target = [&](const PrimExpr& e) {
    const auto* load = e.as<BufferLoadNode>();
    if (load == nullptr || !load->buffer.same_as(store.buffer) ||
        load->indices.size() != store.indices.size()) {
      return false;
    }
    for (size_t d = 0; d < store.indices.size(); ++d) {
      if (!load->indices[d].same_as(store.indices[d])) return false;
    }
    return true;
  };
  const Var& data = store.buffer->data;
  return (is_target(a) && !uses_var(b, data)) || (is_target(b) && !uses_var(a, data));
}

// Whether every load in `body` but those of `own` has `column` as its last index.
bool loads_along(const Stmt& body, const BufferNode* own, const Var& column) {
  bool ok = true;
  post_order_visit(body, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr || load->buffer.get() == own) return;
    ok = ok && !load->indices.empty() && load->indices.back().same_as(column);
  });
  return ok;
}

// The thread blocks of one pass (W's tiles of X times the other output extents), or -1
// where an extent is not constant.
int64_t one_pass_blocks(const std::vector<For>& output_loops, int64_t x) {
  int64_t blocks = 1;
  for (size_t d = 0; d < output_loops.size(); ++d) {
    const int64_t* extent = as_const_int(output_loops[d]->extent);
    if (extent == nullptr) return -1;
    blocks *= d + 1 == output_loops.size() ? (*extent + x - 1) / x : *extent;
  }
  return blocks;
}

std::optional<PrimFunc> apply(const PrimFunc& func, const Target& target) {
  const BlockNode* root = root_block(func);
  if (root == nullptr) return std::nullopt;
  std::vector<BlockRealize> blocks = child_blocks(root->body);
  if (blocks.empty() || blocks.size() + 1 != blocks_under(func->body).size()) return std::nullopt;
  Schedule s(func);
  if (!inline_spatial_producers(s)) return std::nullopt;
  std::vector<BlockRef> rest = s.get_blocks();
  if (rest.empty() || rest.size() > 2) return std::nullopt;
  BlockRef reduction = rest.front();
  std::optional<BlockRef> epilogue;
  if (rest.size() == 2) epilogue = rest.back();

  // R: p spatial loops, then reduction loops; a combining store at the spatial variables.
  std::optional<std::vector<For>> loops = simple_nest(s.func(), reduction.name);
  const Block& block = s.get_block_realize(reduction)->block;
  if (!loops || !block->init.defined() || block->writes.size() != 1) return std::nullopt;
  size_t p = 0;
  while (p < block->iter_vars.size() && block->iter_vars[p]->kind == IterKind::Spatial) ++p;
  if (p == 0 || p == block->iter_vars.size()) return std::nullopt;
  for (size_t i = p; i < block->iter_vars.size(); ++i) {
    if (block->iter_vars[i]->kind != IterKind::Reduce) return std::nullopt;
  }
  const auto* store = block->body.as<BufferStoreNode>();
  if (store == nullptr || store->indices.size() != p || !is_combining_store(*store)) {
    return std::nullopt;
  }
  for (size_t d = 0; d < p; ++d) {
    if (!store->indices[d].same_as(block->iter_vars[d]->var)) return std::nullopt;
  }
  if (!loads_along(block->body, store->buffer.get(), block->iter_vars[p - 1]->var)) {
    return std::nullopt;  // a row reduction, or an input read across its columns
  }
  const Buffer& partial = store->buffer;
  bool partial_is_param =
      std::any_of(s.func()->buffer_map.begin(), s.func()->buffer_map.end(),
                  [&](const auto& entry) { return entry.second.same_as(partial); });
  arith::Analyzer analyzer;
  PrimExpr reduced = int_imm(DataType::Int(64), 1);
  for (size_t d = p; d < loops->size(); ++d) reduced = reduced * (*loops)[d]->extent;
  reduced = analyzer.simplify(reduced);

  // L: the output, over R's spatial extents, reading C at its own iteration variables.
  if (epilogue) {
    std::optional<std::vector<For>> out_loops = simple_nest(s.func(), epilogue->name);
    const Block& out = s.get_block_realize(*epilogue)->block;
    if (!out_loops || !is_spatial(*out) || out_loops->size() != p || partial_is_param) {
      return std::nullopt;
    }
    std::vector<PrimExpr> out_vars;
    for (size_t d = 0; d < p; ++d) {
      if (!analyzer.can_prove_equal((*out_loops)[d]->extent, (*loops)[d]->extent)) {
        return std::nullopt;
      }
      out_vars.push_back(out->iter_vars[d]->var);
    }
    if (!loads_only_at(out->body, partial.get(), out_vars)) return std::nullopt;
  } else if (!partial_is_param) {
    return std::nullopt;
  }

  int64_t limit = std::min({kMaxThreads, target.max_threads_per_block, target.max_block_size[0]});
  int64_t x = std::min(std::max(int64_t{target.subgroup_size}, kMinColumns), limit);
  if (const int64_t* columns = as_const_int((*loops)[p - 1]->extent)) {
    x = std::max<int64_t>(1, std::min(x, *columns));
  }
  const int64_t* reduced_extent = as_const_int(reduced);
  int64_t y = 1;
  while (x * y * 2 <= limit && y * 2 <= target.max_block_size[1] &&
         (reduced_extent == nullptr || y < *reduced_extent)) {
    y *= 2;
  }
  const std::vector<For> output_loops(loops->begin(),
                                      loops->begin() + static_cast<std::ptrdiff_t>(p));
  if (const int64_t b = slice_blocks(one_pass_blocks(output_loops, x), reduced_extent, y); b > 1) {
    std::vector<std::string> after;
    if (epilogue) after.push_back(epilogue->name);
    schedule_column_slices(s, reduction, p, {x, y, b * y}, after);
    return s.func();
  }
  // lower_cross_thread_reduction's slots, one per thread, and C's X + Y - 1 elements.
  if ((x * y + x + y) * partial->dtype.bytes() > target.max_shared_memory_bytes) {
    return std::nullopt;
  }

  // The output's loops (L's, or R's spatial ones): the innermost split [ceil(W / X), X]
  // (after a unit loop split off for L), its outer part fused with the other loops onto
  // blockIdx.x.
  std::vector<LoopRef> out_refs = s.get_loops(epilogue ? *epilogue : reduction);
  out_refs.resize(p);
  DataType t = out_refs.back().var->dtype;
  LoopRef columns = out_refs.back();
  std::optional<LoopRef> unit;
  if (epilogue) {
    // Split off first, so that the tail guard of the columns does not involve it.
    std::vector<LoopRef> halves = s.split(columns, {PrimExpr(), int_imm(t, 1)});
    columns = halves[0];
    unit = halves[1];
  }
  std::vector<LoopRef> parts = s.split(columns, {PrimExpr(), int_imm(t, x)});
  out_refs.back() = parts[0];
  s.bind(s.fuse(out_refs), "blockIdx.x");
  s.bind(parts[1], "threadIdx.x");
  if (unit) {
    try {
      // In registers while it moves: compute_at computes a shared buffer for every thread
      // of the block.
      s.set_scope(reduction, 0, "local");
      s.compute_at(reduction, parts[1]);
    } catch (const UserError&) {
      return std::nullopt;
    }
    s.bind(s.split(*unit, {PrimExpr(), int_imm(t, y)})[1], "threadIdx.y");
    s.set_scope(reduction, 0, "shared");
  }
  std::vector<LoopRef> reduction_loops = loops_below(s, reduction, parts[1]);
  if (reduction_loops.empty()) return std::nullopt;
  for (const LoopRef& l : reduction_loops) {
    // Where compute_at could not pin R's output to the thread's, a loop below it would
    // still range over outputs.
    if (loop_iter_use(s.get_for(l)).spatial) return std::nullopt;
  }
  LoopRef fused = s.fuse(reduction_loops);
  s.bind(s.split(fused, {PrimExpr(), int_imm(fused.var->dtype, y)})[1], "threadIdx.y");
  return s.func();
}

}  // namespace

GpuScheduleRule column_reduction_rule() { return {"column reduction", &apply}; }

}  // namespace relaxc::tir
