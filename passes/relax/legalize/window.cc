// Window positions and guarded reads of the windowed operators' legalizations.
#include "passes/relax/legalize/window.h"

#include "ir/arith/analyzer.h"

namespace relaxc::relax {

void Guard::add(const tir::PrimExpr& condition) {
  condition_ = condition_.defined() ? tir::logical_and(condition_, condition) : condition;
}

tir::PrimExpr Guard::load(const tir::Tensor& tensor, std::vector<tir::PrimExpr> indices,
                          const tir::PrimExpr& otherwise) const {
  if (!condition_.defined()) return tensor(std::move(indices));
  return tir::load_if(condition_, tensor, std::move(indices), otherwise);
}

tir::PrimExpr window_position(const tir::PrimExpr& out, const tir::PrimExpr& k,
                              const tir::PrimExpr& extent, int64_t stride, int64_t dilation,
                              int64_t pad_before, bool may_pass_end, Guard& guard) {
  tir::PrimExpr position = arith::simplify(out * stride + k * dilation - pad_before);
  if (pad_before > 0) guard.add(tir::ge(position, tir::make_const(position->dtype, 0)));
  if (may_pass_end) guard.add(tir::lt(position, extent));
  return position;
}

std::vector<tir::PrimExpr> as_exprs(const std::vector<tir::Var>& vars) {
  return std::vector<tir::PrimExpr>(vars.begin(), vars.end());
}

}  // namespace relaxc::relax
