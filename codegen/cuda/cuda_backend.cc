// The CUDA back end's registration: CUDA targets, kernels as PTX text.
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/target_backend.h"

namespace relaxc::codegen {
namespace {

void compile_ptx(const tir::DeviceKernel& kernel, const Target& target,
                 runtime::KernelBinary& binary) {
  PtxKernel ptx = codegen_ptx(kernel, target);
  binary.name = ptx.entry_point;
  binary.code.assign(ptx.ptx.begin(), ptx.ptx.end());
}

// PTX is text already.
std::string ptx_text(const runtime::KernelBinary& binary) {
  return std::string(binary.code.begin(), binary.code.end());
}

// The architecture from the device's compute capability.
Target cuda_device_target(const runtime::DeviceLimits& limits) {
  return cuda_target(limits.compute_capability);
}

}  // namespace

TargetBackend cuda_backend() {
  return {TargetKind::Cuda, "cuda",   runtime::KernelFormat::Ptx, "// ",
          compile_ptx,      ptx_text, cuda_device_target};
}

}  // namespace relaxc::codegen
