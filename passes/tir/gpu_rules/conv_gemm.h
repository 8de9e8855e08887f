// A convolution and its elementwise epilogue rewritten as a batched matmul (an implicit
// GEMM), which the matmul rule's tiles then schedule (conv_gemm.cc).
#pragma once
#include <optional>
#include <string>

#include "passes/tir/gpu_rules/matmul_analysis.h"

namespace relaxc::tir {

// The rewritten function: two spatial blocks that define the matmul's operands, which
// are never stored (they are inlined into the copies of the tiles), the matmul, and the
// epilogue over the matmul's iteration space.
struct ConvGemm {
  PrimFunc func;
  MatmulMatch match;
  std::string weight_matrix;  // A[oc, k]: the weights, one row per output channel
  std::string input_matrix;   // B[n, k, p]: the input patch of output pixel p (im2col)
};

// `func` as an implicit GEMM when it is a convolution
//   C[n, oc, p0, .., pm] += X(n, p0, .., pm, r0, .., rq) * W[oc, r0, .., rq]
// (output channels second, as in NCHW; the weights indexed by the output channel, then by
// every reduction variable in order, as in OIHW; X any expression of the batch, pixel
// and reduction variables: padding, strides, dilation) followed by the epilogue that
// match_epilogue accepts, with no scalar parameters. Grouped and depthwise convolutions
// (whose input depends on the output channel) are not. The matmul is
//   C'[n, oc, p] += A[oc, k] * B[n, k, p]
// with p the pixels flattened (row-major) and k the reduction variables flattened in the
// weights' order, so that A is the weights' own layout.
std::optional<ConvGemm> conv_as_matmul(const PrimFunc& func);

// The matmul rule's schedule of the rewritten function with `tiles`, the operand blocks
// inlined into the tile copies; tests use small tiles.
PrimFunc schedule_conv_gemm(const ConvGemm& conv, const MatmulTiles& tiles);

}  // namespace relaxc::tir
