// VM code generation: a module in VM form (the output of vm_lowering_pipeline) and its
// kernels compiled for each target become an executable.
#pragma once
#include <vector>

#include "codegen/target_backend.h"
#include "ir/module.h"
#include "ir/target/target.h"
#include "runtime/vm/executable.h"

namespace relaxc::codegen {

// The module's kernel PrimFuncs (those that are not host functions), in module order:
// what the kernel pipeline lowers for each target.
IRModule kernel_functions(const IRModule& module);

// The kernel functions compiled for one target, in kernel_functions() order.
struct CompiledKernels {
  Target target;
  std::vector<CompiledPrimFunc> funcs;
};

// - each Relax function becomes bytecode (registers for its variables, Call of the
//   builtins and functions, If/Goto for R.If, Ret); public functions are exported;
// - each host PrimFunc (attribute tir.is_host_func: heap[c] = expression of heap
//   loads) becomes a HostFunc of IntPrograms;
// - every other PrimFunc is a kernel function; `backends` holds them compiled for each
//   target, each becoming a Backend (kernel binaries and launch information as
//   IntPrograms over the function's shape variables);
// - constants (tensors, shapes, strings, PrimValues, dtypes) go to the constant pool.
// A construct the VM form does not allow is a UserError at its span, and so are kernel
// functions without any target.
runtime::vm::Executable vm_codegen(const IRModule& module,
                                   const std::vector<CompiledKernels>& backends);

}  // namespace relaxc::codegen
