// The GPU back ends, keyed by target kind: each registers once (codegen/target_backend.cc)
// what differs between them, and every place that depends on the kind looks it up here.
// Adding a back end: a folder under codegen/ with its code generator and a function
// returning its TargetBackend, and one line in target_backend.cc's list.
#pragma once
#include <string>
#include <vector>

#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"
#include "runtime/device.h"

namespace relaxc::codegen {

struct TargetBackend {
  TargetKind kind;
  const char* name;  // "vulkan": the target's and the runtime device's name
  runtime::KernelFormat format;
  const char* comment;  // what starts a comment line in the disassembled text: "; ", "// "
  // Sets binary.name (the entry point) and binary.code; the caller fills in the ABI.
  void (*compile)(const tir::DeviceKernel& kernel, const Target& target,
                  runtime::KernelBinary& binary);
  // The kernel's code as text: assembly, or the code itself where it is text.
  std::string (*disassemble)(const runtime::KernelBinary& binary);
  // The target for a device of this kind, with what only this kind has set from the
  // device's limits (the CUDA architecture, the Vulkan version); the limits every kind
  // shares are the caller's to copy.
  Target (*device_target)(const runtime::DeviceLimits& limits);
};

// Every back end, in registration order.
const std::vector<TargetBackend>& all_backends();
// The back end of `kind`; a UserError names the kind and the known back ends otherwise.
const TargetBackend& backend_for(TargetKind kind);
// The back end whose kernels are in `format`; a UserError otherwise.
const TargetBackend& backend_for(runtime::KernelFormat format);

// The kernel compiled by its target's back end, with the ABI the runtime launches it by
// (block size, buffer count, scalar types, shared memory).
runtime::KernelBinary compile_kernel(const tir::DeviceKernel& kernel, const Target& target);

// A lowered PrimFunc and its kernels compiled for a target.
struct CompiledPrimFunc {
  tir::LoweredFunc lowered;
  std::vector<runtime::KernelBinary> binaries;  // one per lowered.launches[i]
};
CompiledPrimFunc compile_lowered(tir::LoweredFunc lowered, const Target& target);

}  // namespace relaxc::codegen
