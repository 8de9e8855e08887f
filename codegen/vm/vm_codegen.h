// VM code generation: a module in VM form (the output of vm_lowering_pipeline) becomes
// an executable.
#pragma once
#include <vector>

#include "ir/module.h"
#include "ir/target/target.h"
#include "runtime/vm/executable.h"

namespace relaxc::codegen {

// - each Relax function becomes bytecode (registers for its variables, Call of the
//   builtins and functions, If/Goto for R.If, Ret); public functions are exported;
// - each host PrimFunc (attribute tir.is_host_func: heap[c] = expression of heap
//   loads) becomes a HostFunc of IntPrograms;
// - every other PrimFunc gets the default GPU schedule when unscheduled, and is lowered
//   and compiled for each target into a Backend (kernel binaries and launch
//   information as IntPrograms over the function's shape variables);
// - constants (tensors, shapes, strings, PrimValues, dtypes) go to the constant pool.
// A construct the VM form does not allow is a UserError at its span.
runtime::vm::Executable vm_codegen(const IRModule& module, const std::vector<Target>& targets);

}  // namespace relaxc::codegen
