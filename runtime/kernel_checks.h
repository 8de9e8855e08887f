// The checks every device makes on a kernel when it loads it and on each launch, with
// one wording: the messages name the kernel, the device or argument, and the limit.
// Device-specific checks (Vulkan's storage buffers per stage, CUDA's parameter space and
// threads per compiled function) stay with their devices and use the same phrases.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/device.h"

namespace relaxc::runtime {

// "(x, y, z)": a block or grid size in messages.
std::string size_text(const std::array<uint32_t, 3>& size);

// "kernel 'name' on \"device\": ", the start of a message about a kernel that exceeds a
// limit of the device.
std::string kernel_on_device(std::string_view kernel, const DeviceLimits& limits);

// At load: each block dimension in [1, max_block_size], the block's threads at most
// max_threads_per_block, the shared memory at most max_shared_memory_bytes.
// RuntimeError naming the kernel, the device and the limit.
void check_kernel_limits(const KernelBinary& binary, const DeviceLimits& limits);

// The code of a kernel, checked as far as is cheap so that a damaged or mismatched
// kernel is a RuntimeError ("kernel 'k': ...") and never reaches a driver (which may
// crash on it). SPIR-V: a whole number of words; the header (magic, version 1.x, an id
// bound in 1 .. 4194303, schema 0); every instruction's length inside the module, the
// last one OpFunctionEnd; a GLCompute entry point named `binary.name`, its LocalSize (if
// declared) equal to `block_size`; every DescriptorSet decoration 0 and every Binding
// below `num_buffers` (the kernel ABI: buffer i is binding i of set 0). PTX: text (no
// NUL or other control bytes except at the end) with a `.entry` named `binary.name`
// whose parameters, where the scan understands them, are the ABI's (8-byte buffers,
// then 4- or 8-byte scalars).
// The executable's loader and each device run it.
void check_kernel_code(const KernelBinary& binary);

// What a launch is checked against: the ABI part of the KernelBinary a kernel was
// loaded from.
struct LaunchAbi {
  std::string name;
  int num_buffers = 0;
  std::vector<ScalarType> scalars;
};

// At launch, in this order: the number of buffers and of scalars against the ABI, each
// int32 scalar's range, each grid dimension at most max_grid_size (0 is allowed: such a
// launch does nothing). RuntimeError naming the kernel and the argument. The buffers
// themselves are the device's to look up (BufferTable::argument).
void check_launch(const LaunchAbi& kernel, const DeviceLimits& limits,
                  std::array<uint32_t, 3> grid_size, size_t buffer_count,
                  std::span<const int64_t> scalars);

}  // namespace relaxc::runtime
