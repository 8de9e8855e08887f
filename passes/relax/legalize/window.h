// What the legalizations of the windowed operators (convolution, pooling) share: the
// input position a window element reads, and the guard that keeps a read inside the
// input where padding can be reached.
#pragma once

#include <vector>

#include "ir/tir/compute.h"

namespace relaxc::relax {

// Conditions joined with `and`; an undefined PrimExpr stands for "always".
class Guard {
 public:
  void add(const tir::PrimExpr& condition);
  const tir::PrimExpr& condition() const { return condition_; }
  // `tensor` at `indices` under the guard: a plain read if it always holds, else
  // `otherwise` where it does not (tir::load_if).
  tir::PrimExpr load(const tir::Tensor& tensor, std::vector<tir::PrimExpr> indices,
                     const tir::PrimExpr& otherwise) const;

 private:
  tir::PrimExpr condition_;
};

// The input position of window element `k` for output position `out` along one
// spatial dimension of extent `extent`: out * stride + k * dilation - pad_before. The
// bounds it may cross (only where padding or ceil_mode lets it) are added to `guard`.
tir::PrimExpr window_position(const tir::PrimExpr& out, const tir::PrimExpr& k,
                              const tir::PrimExpr& extent, int64_t stride, int64_t dilation,
                              int64_t pad_before, bool may_pass_end, Guard& guard);

// The variables of a compute body as expressions.
std::vector<tir::PrimExpr> as_exprs(const std::vector<tir::Var>& vars);

}  // namespace relaxc::relax
