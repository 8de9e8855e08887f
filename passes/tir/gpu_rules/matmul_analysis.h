// Recognizing a (batched) matmul and its elementwise epilogue in a PrimFunc, by its
// blocks alone: what the matmul and GEMV rules share.
//
// The shape recognized: a reduction block C[b.., i, j] (+)= A[..] * B[..] (either product
// operand possibly cast) first under the root block, then any number of spatial blocks that
// each read the matmul's result (or an earlier epilogue's) elementwise, at their own
// output index, plus other parameters (a bias broadcast along rows, ...). A reads i and
// k but not j, B reads j and k but not i; each of their indices is an iteration variable
// or a constant (a broadcast batch dimension). Every block sits in its own perfect loop
// nest, one loop per iteration variable.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/target/target.h"
#include "ir/tir/stmt.h"
#include "passes/tir/schedule/schedule.h"

namespace relaxc::tir {

struct MatmulMatch {
  std::string block;  // the reduction block
  Buffer a, b, c;     // C += A * B
  // Positions of the row (i), column (j) and reduction (k) iteration variables among the
  // block's, which are also the positions of their loops; the rest are batch dimensions.
  size_t i = 0, j = 0, k = 0;
  std::vector<size_t> batch;
  PrimExpr rows, cols, depth;  // the extents of i, j and k
  bool b_along_k = false;      // B's last index is k (B[.., j, k]): its k values are contiguous
  // The epilogue blocks, in program order.
  std::vector<std::string> epilogue;
};

std::optional<MatmulMatch> match_matmul(const PrimFunc& func);

// The pieces match_matmul is made of, which the convolution rule (conv_gemm.h) shares.
//
// The blocks directly under the root block when each sits in its own perfect loop nest
// (one loop from 0 per iteration variable, unpredicated) and nothing else is there.
std::optional<std::vector<BlockRealize>> top_level_nests(const PrimFunc& func);
// `block` as C[s] = C[s] + lhs * rhs with T.init C[s] = 0, s its spatial iteration
// variables in order and C float32 or float16; its other iteration variables reduce.
struct SumOfProducts {
  Buffer c;
  std::vector<Var> spatial;
  PrimExpr lhs, rhs;
};
std::optional<SumOfProducts> match_sum_of_products(const BlockNode& block);
// The names of top[1], top[2], ... when they are an elementwise epilogue of top[0], which
// writes `c` from `operands`: each reads what the blocks before it produced at its own
// output index (over C's shape) and parameters otherwise, and writes none of `operands`;
// the last writes a parameter, the others buffers of the function.
std::optional<std::vector<std::string>> match_epilogue(const PrimFunc& func,
                                                       const std::vector<BlockRealize>& top,
                                                       const Buffer& c,
                                                       std::span<const Buffer> operands);
// The load that `e` is, or casts, when it loads one floating-point element.
const BufferLoadNode* operand_load(const PrimExpr& e);

// The matmul rule's tiles: BM x BN outputs per thread block, BK of the reduction per step,
// TM x TN outputs per thread; BM / TM * BN / TN threads. With `split_k` S > 1 the
// reduction is split into S equal parts, each its own thread block's (split-K): S
// partial results per output, summed by a second kernel that also runs the epilogue.
struct MatmulTiles {
  int64_t bm, bn, bk, tm, tn;
  int64_t split_k = 1;
  int64_t threads() const { return (bm / tm) * (bn / tn); }
};

// The tiles the matmul rule uses for `m` on `target`; nullopt where the matmul is too
// small for them (few rows, a small output, an extent below the tile). Split-K where the
// output's warps (at batch 1 where the batch is symbolic) are too few to keep a large GPU
// busy and the constant reduction divides into parts of at least 64 (256 where
// the batch is symbolic).
std::optional<MatmulTiles> choose_matmul_tiles(const MatmulMatch& m, const Target& target);

// The matmul rule's schedule of `func` (matched as `m`) with the given tiles (matmul.cc);
// tests use small tiles, which the reference interpreter runs quickly.
PrimFunc schedule_matmul(const PrimFunc& func, const MatmulMatch& m, const MatmulTiles& tiles);

// Puts the matched function's intermediates (C when an epilogue follows, every epilogue
// output but the last) in `scope`: each thread's registers ("local"), or the thread
// block's shared memory where the threads that use a value are not the one that computes it.
void set_intermediates_scope(Schedule& s, const MatmulMatch& m, const std::string& scope);

}  // namespace relaxc::tir
