// The geometry the reduction and normalization legalizations share: which axes of
// an input a stage folds, and how its spatial and reduction iterators index the input.
#pragma once

#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/tir/compute.h"

namespace relaxc::relax {

tir::PrimExpr element_count(const std::vector<tir::PrimExpr>& dims, DataType dtype);

struct ReductionAxes {
  std::vector<bool> reduced;  // one flag per input dimension
  bool keepdims = false;      // the output keeps a dimension of 1 for each reduced one

  // The input's dimensions the stage folds (its reduction extents).
  std::vector<tir::PrimExpr> extents(const tir::Tensor& x) const {
    std::vector<tir::PrimExpr> out;
    for (size_t d = 0; d < reduced.size(); ++d) {
      if (reduced[d]) out.push_back(x.shape()[d]);
    }
    return out;
  }
  // The input's dimensions it keeps (the output's shape without keepdims).
  std::vector<tir::PrimExpr> kept(const tir::Tensor& x) const {
    std::vector<tir::PrimExpr> out;
    for (size_t d = 0; d < reduced.size(); ++d) {
      if (!reduced[d]) out.push_back(x.shape()[d]);
    }
    return out;
  }
  // The input index of output index `out` and reduction index `r`.
  std::vector<tir::PrimExpr> input_index(const std::vector<tir::Var>& out,
                                         const std::vector<tir::Var>& r) const {
    std::vector<tir::PrimExpr> index;
    size_t o = 0, k = 0;
    for (bool folded : reduced) {
      if (folded) {
        index.push_back(r[k++]);
        o += keepdims ? 1 : 0;
      } else {
        index.push_back(out[o++]);
      }
    }
    return index;
  }
  // The output index (without keepdims) of input index `in`.
  std::vector<tir::PrimExpr> kept_index(const std::vector<tir::Var>& in) const {
    std::vector<tir::PrimExpr> index;
    for (size_t d = 0; d < reduced.size(); ++d) {
      if (!reduced[d]) index.push_back(in[d]);
    }
    return index;
  }
  // The product of the reduced dimensions, as a value of `dtype` (mean's divisor).
  tir::PrimExpr count(const tir::Tensor& x, DataType dtype) const {
    return element_count(extents(x), dtype);
  }
};

// The product of `dims` as a value of `dtype`: a constant where they are.
inline tir::PrimExpr element_count(const std::vector<tir::PrimExpr>& dims, DataType dtype) {
  tir::PrimExpr n = tir::make_const(DataType::Int(64), 1);
  for (const tir::PrimExpr& d : dims) n = tir::mul(n, d);
  arith::Analyzer analyzer;
  n = analyzer.simplify(n);
  const int64_t* c = tir::as_const_int(n);
  return c != nullptr ? tir::make_const(dtype, static_cast<double>(*c)) : tir::cast(dtype, n);
}

}  // namespace relaxc::relax
