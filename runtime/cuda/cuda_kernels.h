// Kernels on CUDA: PTX modules JIT-compiled by the driver (its error log kept for the
// message) and cached by content, their entry functions, the ABI checks, and launches.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/cuda/cuda_loader.h"
#include "runtime/kernel_checks.h"

namespace relaxc::runtime {

// One `.entry` of a PTX module: its name and, when every parameter declaration was
// understood, the size in bytes of each parameter.
struct PtxEntry {
  std::string name;
  std::optional<std::vector<size_t>> param_sizes;
};

// The entries a PTX text declares, found by a light scan that skips comments (the
// driver's JIT compiler is the one that parses PTX for real).
std::vector<PtxEntry> scan_ptx_entries(std::string_view ptx);

// The values of a launch's parameters and the pointers to them that cuLaunchKernel
// reads, kept between launches so that a warm launch allocates nothing.
struct CudaLaunchParams {
  std::vector<CUdeviceptr> addresses;
  std::vector<int32_t> narrow;
  std::vector<int64_t> wide;
  std::vector<void*> pointers;
};

struct CudaKernel {
  LaunchAbi abi;
  CUfunction function = nullptr;
  std::array<uint32_t, 3> block_size = {1, 1, 1};

  // Enqueues one launch on `stream` with `buffers` (device addresses, in ABI order) and
  // `scalars`, which the caller has checked against `abi` (check_launch), through
  // `params`. A grid with a zero dimension launches nothing.
  void launch(const CudaDriver& driver, CUstream stream, std::array<uint32_t, 3> grid_size,
              std::span<const CUdeviceptr> buffers, std::span<const int64_t> scalars,
              CudaLaunchParams& params) const;
};

// Loaded kernels. Modules are keyed by their PTX text (several kernels of one module
// share it); kernels by the text together with the entry point and ABI, so that loading
// a kernel twice returns the same id. Ids start at 1. The owner makes the device's
// context current around every call, the destructor included.
class CudaKernelCache {
 public:
  CudaKernelCache(const CudaDriver& driver, const DeviceLimits& limits);
  ~CudaKernelCache();
  CudaKernelCache(const CudaKernelCache&) = delete;
  CudaKernelCache& operator=(const CudaKernelCache&) = delete;

  // RuntimeError naming the kernel and what is wrong: not PTX, a block size or shared
  // memory above the device's limits, an entry whose parameters do not match the ABI, or
  // the driver's error (with the JIT log when compiling the PTX failed).
  KernelId load(const KernelBinary& binary);
  // RuntimeError for an id that load did not return.
  const CudaKernel& get(KernelId id) const;
  size_t module_count() const { return modules_.size(); }

 private:
  CUmodule module_for(const std::string& ptx, const std::string& kernel);

  const CudaDriver& driver_;
  const DeviceLimits& limits_;
  std::unordered_map<std::string, CUmodule> modules_;
  std::vector<CudaKernel> kernels_;
  std::unordered_map<std::string, KernelId> ids_;
};

}  // namespace relaxc::runtime
