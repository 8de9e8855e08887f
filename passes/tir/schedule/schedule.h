// Schedule: the primitives that transform a TensorIR PrimFunc's loop nest (split, fuse,
// reorder, bind, caching, compute_at, ...) while keeping what it computes.
//
// A Schedule owns the current PrimFunc and replaces it after every primitive; the result
// is an ordinary PrimFunc that prints in the text format. Loops are named by their loop
// variable (a Var is unique), blocks by their name (unique within a PrimFunc). A handle
// stays valid while the loop or block exists; a primitive that removes a loop (fuse,
// split) returns the handles of the loops that replace it.
//
// Every primitive checks that the request is legal and otherwise throws a UserError that
// names the loop or block and says why (the loop is not a single child chain, a
// reduction loop cannot be bound to blockIdx, a producer is not found, ...); the
// schedule is unchanged after a refused request.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/tir/stmt.h"

namespace relaxc::tir {

struct LoopRef {
  Var var;  // the loop's variable
};
struct BlockRef {
  std::string name;
};
// The blocks pad_einsum adds.
struct PaddedEinsum {
  std::vector<BlockRef> inputs;    // each fills the padded copy of a buffer the block reads
  std::optional<BlockRef> output;  // copies the padded result back, where it is padded
};

class Schedule {
 public:
  explicit Schedule(PrimFunc func);

  const PrimFunc& func() const { return func_; }

  // The block named `name`; UserError if there is none.
  BlockRef get_block(const std::string& name) const;
  // Every block of the function except the root block, in program order.
  std::vector<BlockRef> get_blocks() const;
  // The loops above `block`, outermost first.
  std::vector<LoopRef> get_loops(const BlockRef& block) const;
  // The loop statement `loop` names; UserError if it is gone.
  For get_for(const LoopRef& loop) const;
  BlockRealize get_block_realize(const BlockRef& block) const;

  // Splits `loop` into nested loops whose extents are `factors` (outermost first). At
  // most one factor may be null: it is inferred as ceildiv(extent, product of the
  // others). Extents may be symbolic; where the product does not provably equal the
  // extent, the blocks below get the predicate `fused index < extent` (the tail guard).
  std::vector<LoopRef> split(const LoopRef& loop, const std::vector<PrimExpr>& factors);
  // Fuses perfectly nested loops (each the only child of the previous, outermost first,
  // all starting at 0) into one loop whose extent is the product of theirs.
  LoopRef fuse(const std::vector<LoopRef>& loops);
  // Wraps `block` in a new loop of extent 1 (TVM's add_unit_loop), for instance to bind
  // one thread to a block that every thread would otherwise run.
  LoopRef add_unit_loop(const BlockRef& block);
  // Reorders loops of one perfect nest into the given order (they need not be adjacent;
  // loops between them keep their places).
  void reorder(const std::vector<LoopRef>& loops);
  // Binds `loop` to a thread axis: "blockIdx.x/y/z", "threadIdx.x/y/z". A loop over a
  // reduction may be bound to threadIdx.* only: that asks for a cross-thread reduction,
  // which the kernel lowering implements (shared memory, or subgroup operations where
  // the target has them).
  void bind(const LoopRef& loop, const std::string& thread_axis);
  // The loop must have a constant extent.
  void unroll(const LoopRef& loop);
  // The loop must have a constant extent, be innermost, and carry no reduction.
  void vectorize(const LoopRef& loop);
  // Sets the annotation `key` of `loop` to `value` (TVM's annotate): a request to the
  // kernel lowering, such as "prefetch_tile_copies" (passes/tir/kernel_lowering_steps.h).
  void annotate(const LoopRef& loop, const std::string& key, AttrValue value);

  // Adds a block that copies the `read_index`-th buffer that `block` reads into a new
  // buffer in `scope` ("shared", "local"), and makes `block` read the copy, and also
  // `consumers` (other blocks directly under the root that read the buffer, as TVM's
  // consumer_blocks), so that they share one copy. The copy block sits at the root,
  // before the first reader; move it with compute_at.
  BlockRef cache_read(const BlockRef& block, int read_index, const std::string& scope,
                      const std::vector<BlockRef>& consumers = {});
  // Makes `block` write its `write_index`-th buffer into a new buffer in `scope`, and
  // adds a block after it that copies the result back; move it with reverse_compute_at.
  BlockRef cache_write(const BlockRef& block, int write_index, const std::string& scope);
  // Moves producer `block` under `loop` (of one of its consumers), computing only the
  // region the consumers below `loop` need for one iteration of it.
  void compute_at(const BlockRef& block, const LoopRef& loop);
  // Moves consumer `block` under `loop` (of its producer), computing what the producer
  // below `loop` has produced in one iteration of it.
  void reverse_compute_at(const BlockRef& block, const LoopRef& loop);

  // Substitutes spatial `block` (one store `B[v...] = value`, its indices its iteration
  // variables) into every load of B, and removes the block, its loops and B's allocation.
  void compute_inline(const BlockRef& block);
  // Folds spatial `block` (one store whose value reads the buffer of its single producer
  // at its iteration variables) into that producer, which then writes `block`'s output;
  // removes `block`, its loops and the producer's buffer.
  void reverse_compute_inline(const BlockRef& block);
  // Reorders the dimensions of the `write_index`-th buffer that `block` writes (one the
  // function allocates, without explicit strides): dimension d of the result is dimension
  // permutation[d] of the buffer; every access and region follows (TVM's
  // transform_layout, for index maps that permute the indices).
  void transform_layout(const BlockRef& block, int write_index,
                        const std::vector<int>& permutation);
  // Gives the `write_index`-th buffer `block` writes (allocated by a block, not a
  // parameter) the storage scope `scope` ("global", "shared", "local").
  void set_scope(const BlockRef& block, int write_index, const std::string& scope);
  // Moves the init of reduction `block` into a new block `<block>_init` right before
  // `loop` (one of `block`'s loops, none above it a reduction loop), in copies of the
  // loops below `loop` that its spatial iteration variables use; returns the new block.
  BlockRef decompose_reduction(const BlockRef& block, const LoopRef& loop);
  // Factors reduction `loop` of the reduction block under it into partial results (a
  // buffer with a dimension of the loop's extent inserted at `factor_axis`, negative
  // counting from the end), computed by the block `<block>_rf` in place of the block and
  // reduced by a new block of the block's name after its loops; returns the first.
  BlockRef rfactor(const LoopRef& loop, int factor_axis);
  // Rounds the extent of each iteration variable of `block` up to a multiple of its factor
  // in `padding` (one positive factor per iteration variable; 1 keeps the extent), so that
  // tiles divide the loops without tail guards (TVM's pad_einsum). `block` must be one
  // store alone in a perfect loop nest under the root block (a loop from 0 per iteration
  // variable, bound to it, no predicate) that indexes its buffers by iteration variables
  // or by expressions of unpadded ones alone; a padded reduction variable needs
  // C = C + x * y * ... with an init of 0, every factor a load that reads it. Each buffer
  // X it reads along a padded variable is read from a padded copy X_pad, filled by a new
  // block `X_pad` before the nest (X inside X's extents, 0 past them); it writes C_pad,
  // which a new block `C_crop` after the nest copies into C. Returns those blocks; none
  // where no extent changes.
  PaddedEinsum pad_einsum(const BlockRef& block, const std::vector<int64_t>& padding);

 private:
  PrimFunc func_;
};

}  // namespace relaxc::tir
