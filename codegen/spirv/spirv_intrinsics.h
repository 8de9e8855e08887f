// The TensorIR math intrinsics (T.exp, T.tanh, T.erf, ...) in SPIR-V, through GLSL.std.450.
#pragma once
#include <string>
#include <vector>

#include "codegen/spirv/spirv_builder.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {

// Whether emit_math_intrinsic handles the intrinsic `op` ("tir.exp").
bool is_math_intrinsic(const std::string& op);

// Emits op(args) for float arguments of one dtype (scalars or vectors); isnan / isinf give
// bools. A function that GLSL.std.450 lacks for the dtype (sin of float64) is a UserError
// at `span` naming the kernel.
SpirvValue emit_math_intrinsic(SpirvBuilder& builder, const std::string& op,
                               const std::vector<SpirvValue>& args, const std::string& kernel_name,
                               Span span);

}  // namespace relaxc::codegen
