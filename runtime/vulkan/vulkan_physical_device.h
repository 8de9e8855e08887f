// Physical devices: their limits and features read from the driver, and the choice of
// one by index, name or kind.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/vulkan/vulkan_instance.h"

namespace relaxc::runtime {

// What the device layer needs beyond DeviceLimits: queue, memory, descriptor limits and
// which optional features and extensions to enable at device creation.
struct PhysicalDeviceInfo {
  VkPhysicalDevice handle = VK_NULL_HANDLE;
  DeviceLimits limits;
  uint32_t api_version = 0;  // min(device, instance)
  std::optional<uint32_t> compute_queue_family;
  VkPhysicalDeviceMemoryProperties memory{};
  uint64_t max_storage_buffer_range = 0;
  uint64_t max_memory_allocation_size = 0;
  uint32_t max_storage_buffers_per_stage = 0;
  uint32_t max_push_descriptors = 0;  // 0: no VK_KHR_push_descriptor
  // Timestamps on the compute queue (kernel timing): nanoseconds per tick, and the
  // queue's timestampValidBits (0: the queue has no timestamps).
  float timestamp_period_ns = 0;
  uint32_t timestamp_valid_bits = 0;

  // Features the device has; device creation enables exactly these.
  bool shader_int16 = false, shader_int64 = false, shader_float64 = false;
  bool storage_buffer_16bit = false, storage_buffer_8bit = false;
  bool shader_float16 = false, shader_int8 = false;
  // Before Vulkan 1.2 the 8-bit storage and float16/int8 features are extensions.
  bool use_8bit_storage_extension = false, use_float16_int8_extension = false;
};

// Every physical device the instance reports, in the loader's order.
std::vector<PhysicalDeviceInfo> query_physical_devices(const VulkanInstance& instance);

// The index of the device that `request` names (see VulkanOptions::device: an index, a
// case-insensitive substring of the name, or empty for the best kind). `origin` says
// where the request came from, for messages. RuntimeError listing the devices when none
// matches, or when the chosen one has no compute queue.
size_t choose_physical_device(const std::vector<PhysicalDeviceInfo>& devices,
                              const std::string& request, const std::string& origin);

}  // namespace relaxc::runtime
