// The host side of compiled TensorIR functions in an executable: a kernel function's
// binding, checks and launches (from a tir::LoweredFunc), and a shape function (a host
// PrimFunc) as IntPrograms.
#pragma once
#include <cstdint>
#include <span>
#include <string>

#include "ir/tir/lowered_func.h"
#include "ir/tir/stmt.h"
#include "runtime/vm/executable.h"

namespace relaxc::codegen {

// The launch information of `lowered` as the VM runs it. Host vars get slots: the scalar
// params (call_tir's tir_vars) first, in parameter order, then the shape variables of
// the buffer params in the order they first occur as a whole dimension (which defines
// them). Every dimension is then checked against its expression; workspaces, grid sizes
// and scalar arguments are programs over the slots (a launch's condition folded into its
// grid: an empty grid where it fails, which the VM skips). `kernel_indices[i]` is the index in
// Backend::kernels of the binary of launches[i]. A host var that no buffer dimension or
// scalar param binds is a UserError naming it.
runtime::vm::KernelFunc kernel_func_codegen(const tir::LoweredFunc& lowered,
                                            std::span<const int64_t> kernel_indices);

// A shape function (attribute tir.is_host_func): one parameter, a 1-D int64 buffer (the
// shape heap H), and a body of stores H[c] = <integer expression of H[c'] loads and
// constants>, which become the HostFunc's stores in order. Anything else is a UserError.
runtime::vm::HostFunc host_func_codegen(const tir::PrimFunc& func, const std::string& name);

}  // namespace relaxc::codegen
