// The device interface that the VM, the tools and the tests run kernels through; one
// implementation per driver (Vulkan, CUDA), each loading its driver library at run time.
// Part of the runtime: depends on nothing in the compiler.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/runtime_error.h"

namespace relaxc::runtime {

// What a device can do, read from the driver; the compiler turns it into a Target.
struct DeviceLimits {
  std::string name;     // "NVIDIA H100 80GB HBM3", "llvmpipe (LLVM 15.0.7, 256 bits)"
  bool is_cpu = false;  // lavapipe / software rasterizers
  bool is_discrete = false;
  int64_t max_threads_per_block = 0;
  std::array<int64_t, 3> max_block_size = {0, 0, 0};
  std::array<int64_t, 3> max_grid_size = {0, 0, 0};
  int64_t max_shared_memory_bytes = 0;
  int64_t max_push_constant_bytes = 0;
  int subgroup_size = 0;
  bool supports_fp16 = false;  // arithmetic and 16-bit storage buffer access
  bool supports_fp64 = false;
  bool supports_int8 = false;  // arithmetic and 8-bit storage buffer access
  bool supports_int16 = false;
  bool supports_int64 = false;
  bool supports_subgroup_arithmetic = false;
  int api_version_major = 0, api_version_minor = 0;  // Vulkan 1.3, CUDA 12.4
  int compute_capability = 0;  // CUDA: 10 * major + minor (90 for sm_90); 0 elsewhere
  // Memory, for the storage pool that sub-allocates tensors from large allocations.
  uint64_t buffer_offset_alignment = 0;  // a kernel buffer's offset divides by it; 0: any
  uint64_t max_allocation_bytes = 0;     // the largest single allocation; 0: no known limit
  uint64_t pool_block_bytes = 0;  // the pool's allocation size; 0: one allocation per request
};

// The size of the allocations a device's storage pool sub-allocates from (where the
// device allows one this large): few enough driver allocations for a model's tensors.
inline constexpr uint64_t kPoolBlockBytes = uint64_t{64} << 20;

// A device memory allocation, or the range [offset, offset + bytes) of one (what a
// storage pool hands out); owned by the device that made it. Offsets given to upload,
// download and copy count from `offset`, and a kernel sees the range as its buffer.
struct DeviceBuffer {
  uint64_t id = 0;  // 0: none
  size_t bytes = 0;
  size_t offset = 0;  // into the allocation `id`
};

enum class KernelFormat : uint8_t { SpirV, Ptx };
const char* kernel_format_name(KernelFormat format);  // "SPIR-V", "PTX"
enum class ScalarType : uint8_t { Int32, Int64 };

// A compiled kernel and its ABI: `num_buffers` buffer arguments, then the scalars.
struct KernelBinary {
  std::string name;  // the entry point
  KernelFormat format = KernelFormat::SpirV;
  std::vector<uint8_t> code;  // SPIR-V words (little-endian bytes) or PTX text
  std::array<uint32_t, 3> block_size = {1, 1, 1};
  int num_buffers = 0;
  std::vector<ScalarType> scalars;
  uint32_t shared_memory_bytes = 0;
  bool operator==(const KernelBinary&) const = default;
};

using KernelId = uint32_t;

// The device time of one launch, measured while kernel timing is on.
struct KernelTiming {
  std::string kernel;  // the kernel's entry point
  double device_us = 0;
};

// How a device's launches reached it since it was opened: `recorded` were encoded
// (recorded into a command buffer, or launched one by one), `replayed` ran again from
// an earlier recording of the same launches (Vulkan: a kept run of dispatches).
struct LaunchStats {
  uint64_t recorded = 0;
  uint64_t replayed = 0;
};

class Device {
 public:
  virtual ~Device() = default;
  virtual const DeviceLimits& limits() const = 0;
  // The kernel format the device runs (SPIR-V on Vulkan, PTX on CUDA).
  virtual KernelFormat kernel_format() const = 0;

  // A whole allocation (offset 0); release takes it whole.
  virtual DeviceBuffer allocate(size_t bytes) = 0;
  virtual void release(DeviceBuffer buffer) = 0;
  // Ordered after the work already submitted; `src` may be reused when this returns.
  virtual void upload(DeviceBuffer dst, size_t dst_offset, const void* src, size_t bytes) = 0;
  // Waits for the work that writes `src`, then copies to host memory.
  virtual void download(void* dst, DeviceBuffer src, size_t src_offset, size_t bytes) = 0;
  virtual void copy(DeviceBuffer dst, size_t dst_offset, DeviceBuffer src, size_t src_offset,
                    size_t bytes) = 0;

  // Loads (or finds in the cache) a kernel; RuntimeError if the driver refuses it.
  virtual KernelId load_kernel(const KernelBinary& kernel) = 0;
  // Enqueues one launch: `buffers.size()` must be the kernel's num_buffers and
  // `scalars.size()` its number of scalars (an int32 scalar must fit in int32), else a
  // RuntimeError that names the kernel and the argument. Returns without waiting.
  virtual void launch(KernelId kernel, std::array<uint32_t, 3> grid_size,
                      std::span<const DeviceBuffer> buffers, std::span<const int64_t> scalars) = 0;
  // Waits until everything enqueued has finished.
  virtual void synchronize() = 0;
  // Launches with an empty grid are not counted.
  virtual LaunchStats launch_stats() const = 0;

  // Per-launch device timing (CUDA events, Vulkan timestamp queries) for `relaxc bench`;
  // off by default, so that launches pay nothing for it. Turning it on returns false
  // (and leaves it off) where the device cannot time kernels; turning it off drops the
  // timings not yet taken.
  virtual bool set_kernel_timing(bool on) { return !on; }
  // Waits for the work enqueued, then returns the timings of the launches made since
  // timing was turned on or last taken, in launch order (launches with an empty grid
  // are not timed).
  virtual std::vector<KernelTiming> take_kernel_timings() { return {}; }
};

}  // namespace relaxc::runtime
