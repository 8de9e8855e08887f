// The GPU back-end registry: one line per back end, and compiling a kernel through it.
#include "codegen/target_backend.h"

#include "codegen/cuda/cuda_codegen.h"
#include "codegen/spirv/spirv_codegen.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

std::string known_backend_names() {
  std::string names;
  for (const TargetBackend& backend : all_backends()) {
    names += (names.empty() ? "" : ", ") + std::string(backend.name);
  }
  return names;
}

}  // namespace

const std::vector<TargetBackend>& all_backends() {
  static const std::vector<TargetBackend> backends = {cuda_backend(), spirv_backend()};
  return backends;
}

const TargetBackend& backend_for(TargetKind kind) {
  for (const TargetBackend& backend : all_backends()) {
    if (backend.kind == kind) return backend;
  }
  user_error(Span{}) << "no back end is registered for target kind " << static_cast<int>(kind)
                     << "; registered back ends: " << known_backend_names();
}

const TargetBackend& backend_for(runtime::KernelFormat format) {
  for (const TargetBackend& backend : all_backends()) {
    if (backend.format == format) return backend;
  }
  user_error(Span{}) << "no back end produces kernel format " << static_cast<int>(format)
                     << "; registered back ends: " << known_backend_names();
}

runtime::KernelBinary compile_kernel(const tir::DeviceKernel& kernel, const Target& target) {
  const TargetBackend& backend = backend_for(target.kind);
  runtime::KernelBinary binary;
  binary.format = backend.format;
  backend.compile(kernel, target, binary);
  for (int axis = 0; axis < 3; ++axis) {
    binary.block_size[axis] = static_cast<uint32_t>(kernel.block_size[axis]);
  }
  binary.num_buffers = kernel.num_buffer_params();
  const auto& params = kernel.func->params;
  for (size_t i = static_cast<size_t>(binary.num_buffers); i < params.size(); ++i) {
    binary.scalars.push_back(params[i]->dtype.bits() == 64 ? runtime::ScalarType::Int64
                                                           : runtime::ScalarType::Int32);
  }
  binary.shared_memory_bytes = static_cast<uint32_t>(kernel.shared_memory_bytes);
  return binary;
}

CompiledPrimFunc compile_lowered(tir::LoweredFunc lowered, const Target& target) {
  CompiledPrimFunc compiled;
  for (const tir::KernelLaunch& launch : lowered.launches) {
    compiled.binaries.push_back(compile_kernel(launch.kernel, target));
  }
  compiled.lowered = std::move(lowered);
  return compiled;
}

}  // namespace relaxc::codegen
