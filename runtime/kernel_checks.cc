// The load-time and launch-time checks shared by the devices.
#include "runtime/kernel_checks.h"

#include <limits>

namespace relaxc::runtime {

std::string size_text(const std::array<uint32_t, 3>& size) {
  return "(" + std::to_string(size[0]) + ", " + std::to_string(size[1]) + ", " +
         std::to_string(size[2]) + ")";
}

std::string kernel_on_device(std::string_view kernel, const DeviceLimits& limits) {
  return "kernel '" + std::string(kernel) + "' on \"" + limits.name + "\": ";
}

void check_kernel_limits(const KernelBinary& binary, const DeviceLimits& limits) {
  const std::string where = kernel_on_device(binary.name, limits);
  int64_t threads = 1;
  for (int d = 0; d < 3; ++d) {
    if (binary.block_size[d] == 0 || binary.block_size[d] > limits.max_block_size[d]) {
      runtime_error() << where << "block size " << size_text(binary.block_size) << " has dimension "
                      << d << " outside [1, " << limits.max_block_size[d] << "]";
    }
    threads *= binary.block_size[d];
  }
  if (threads > limits.max_threads_per_block) {
    runtime_error() << where << "block size " << size_text(binary.block_size) << " has " << threads
                    << " threads, more than the device's " << limits.max_threads_per_block;
  }
  if (binary.shared_memory_bytes > limits.max_shared_memory_bytes) {
    runtime_error() << where << "uses " << binary.shared_memory_bytes
                    << " bytes of shared memory, more than the device's "
                    << limits.max_shared_memory_bytes;
  }
}

void check_launch(const LaunchAbi& kernel, const DeviceLimits& limits,
                  std::array<uint32_t, 3> grid_size, size_t buffer_count,
                  std::span<const int64_t> scalars) {
  // Built only for a message: a launch that passes its checks allocates nothing.
  auto where = [&] { return "kernel '" + kernel.name + "'"; };
  if (buffer_count != static_cast<size_t>(kernel.num_buffers)) {
    runtime_error() << where() << " takes " << kernel.num_buffers
                    << " buffer argument(s), but the launch passes " << buffer_count;
  }
  if (scalars.size() != kernel.scalars.size()) {
    runtime_error() << where() << " takes " << kernel.scalars.size()
                    << " scalar argument(s), but the launch passes " << scalars.size();
  }
  for (size_t i = 0; i < scalars.size(); ++i) {
    if (kernel.scalars[i] == ScalarType::Int32 &&
        (scalars[i] < std::numeric_limits<int32_t>::min() ||
         scalars[i] > std::numeric_limits<int32_t>::max())) {
      runtime_error() << where() << ": scalar argument " << i << " is int32 but its value "
                      << scalars[i] << " does not fit in int32";
    }
  }
  for (int d = 0; d < 3; ++d) {
    if (grid_size[d] > limits.max_grid_size[d]) {
      runtime_error() << where() << ": grid " << size_text(grid_size) << " has dimension " << d
                      << " above the device's maximum " << limits.max_grid_size[d];
    }
  }
}

}  // namespace relaxc::runtime
