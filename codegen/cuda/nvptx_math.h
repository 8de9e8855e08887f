// The TensorIR math intrinsics (T.exp, T.tanh, T.erf, ...) in LLVM IR for NVPTX: libdevice
// calls where libdevice is installed, NVVM intrinsics and approximations where it is not.
#pragma once
#include <llvm/IR/IRBuilder.h>

#include <string>
#include <vector>

#include "ir/support/data_type.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {

// Whether emit_nvptx_math handles the intrinsic `op` ("tir.exp").
bool is_nvptx_math_intrinsic(const std::string& op);

// Emits op(args) for scalar float arguments of `dtype` (float16 and bfloat16 are computed
// in float32); isnan and isinf give an i1. With `libdevice`, the transcendental functions
// are calls of __nv_* functions declared in the builder's module, to be linked by
// link_libdevice. Without it, float64 transcendental functions are a UserError at `span`
// naming the kernel.
llvm::Value* emit_nvptx_math(llvm::IRBuilder<>& builder, const std::string& op,
                             const std::vector<llvm::Value*>& args, DataType dtype, bool libdevice,
                             const std::string& kernel_name, Span span);

}  // namespace relaxc::codegen
