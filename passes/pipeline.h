// Pipelines: plain C++ lists of passes, in order. Each can print the module after every
// pass and time every pass.
#pragma once
#include <iosfwd>

#include "ir/module.h"

namespace relaxc {

struct PipelineOptions {
  std::ostream* print_after_each = nullptr;  // the module after each pass, with its name
  std::ostream* timing = nullptr;            // one line per pass: name, milliseconds
};

// The minimum build's Relax lowering (relax_rfc.md 4.3): lambda-lift, to-non-dataflow,
// remove-purity-checking, call-tir-rewrite, vm-builtin-lower, vm-shape-lower. Any
// well-formed module comes out in the form codegen/vm/vm_codegen.h reads.
IRModule vm_lowering_pipeline(const IRModule& module, const PipelineOptions& options = {});

}  // namespace relaxc
