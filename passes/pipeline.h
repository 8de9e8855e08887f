// The build's pipeline as data: the registered passes (passes/pass_registry.h) it runs, in
// order, and the runner that prints the IR after each pass and times each on request.
#pragma once
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"
#include "passes/pass_registry.h"

namespace relaxc {

struct PipelineOptions {
  std::ostream* print_after_each = nullptr;  // the IR after each pass, with its name
  std::ostream* timing = nullptr;            // one line per pass: name, milliseconds
  std::set<std::string> disabled;            // passes to skip; each one PassInfo::may_disable
};

// The Relax lowering for the VM, run once on the whole module: lambda-lift,
// to-non-dataflow, remove-purity-checking, call-tir-rewrite, vm-builtin-lower,
// vm-shape-lower. Any well-formed module comes out in the form codegen/vm/vm_codegen.h reads.
const std::vector<std::string>& vm_lowering_passes();

// The kernel pipeline, run once per target on the module's kernel PrimFuncs:
// default-gpu-schedule, then the kernel lowering (kernel_lowering_passes()).
const std::vector<std::string>& kernel_passes();
// The kernel pipeline after the schedule: unify-thread-bindings,
// lower-cross-thread-reduction, lower-blocks, split-host-device, insert-shared-barriers,
// compact-buffer-allocations, flatten-buffers, narrow-to-int32, simplify-kernel,
// legalize-vector-loops, check-kernel-limits. Each PrimFunc comes out as the kernels the back ends compile.
const std::vector<std::string>& kernel_lowering_passes();

// Runs the registered passes `names` in order on `state`, skipping options.disabled.
void run_passes(const std::vector<std::string>& names, PassState& state, const PassContext& context,
                const PipelineOptions& options);

// Why `name` may not be given to --disable-pass (an unknown pass, one outside the build's
// pipeline, or one the build needs), or empty when it may.
std::string disable_pass_error(const std::string& name);

// vm_lowering_passes() on `module`.
IRModule vm_lowering_pipeline(const IRModule& module, const PipelineOptions& options = {});

// kernel_passes() on `kernels` (a module of PrimFuncs) for `target`: each PrimFunc
// lowered, in module order.
std::vector<tir::LoweredFunc> kernel_pipeline(const IRModule& kernels, const Target& target,
                                              const PipelineOptions& options = {});

}  // namespace relaxc
