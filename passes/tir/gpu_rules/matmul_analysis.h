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
#include <string>
#include <vector>

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

// The matmul rule's tiles: BM x BN outputs per thread block, BK of the reduction per step,
// TM x TN outputs per thread; BM / TM * BN / TN threads.
struct MatmulTiles {
  int64_t bm, bn, bk, tm, tn;
  int64_t threads() const { return (bm / tm) * (bn / tn); }
};

// The matmul rule's schedule of `func` (matched as `m`) with the given tiles (matmul.cc);
// tests use small tiles, which the reference interpreter runs quickly.
PrimFunc schedule_matmul(const PrimFunc& func, const MatmulMatch& m, const MatmulTiles& tiles);

// Puts the matched function's intermediates (C when an epilogue follows, every epilogue
// output but the last) in `scope`: each thread's registers ("local"), or the thread
// block's shared memory where the threads that use a value are not the one that computes it.
void set_intermediates_scope(Schedule& s, const MatmulMatch& m, const std::string& scope);

}  // namespace relaxc::tir
