// relaxc inspect --verify: each kernel of an executable checked by its format's own tool
// where it is installed (spirv-val for SPIR-V, ptxas for PTX).
#pragma once
#include <string>

#include "runtime/vm/executable.h"

namespace relaxc::tools {

// One line per kernel: "backend 0 (vulkan -profile=desktop), kernel 'dense_kernel0':
// spirv-val: valid", or "...: spirv-val: invalid" followed by the tool's messages
// (indented), or "...: not verified: spirv-val is not installed". Returns whether no
// kernel was found invalid (a missing tool is reported, not an error).
bool verify_kernels(const runtime::vm::Executable& exe, std::string* report);

}  // namespace relaxc::tools
