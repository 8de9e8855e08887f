// The logical device every other Vulkan object belongs to: instance, chosen physical
// device, VkDevice with the optional features kernels may use, and its compute queue.
#pragma once
#include <memory>

#include "runtime/vulkan/vulkan_instance.h"
#include "runtime/vulkan/vulkan_physical_device.h"

namespace relaxc::runtime {

class VulkanContext {
 public:
  // Creates the VkDevice on `physical` (one compute queue; 16/8-bit storage, float16,
  // int8, int16, int64, float64 where present; VK_KHR_push_descriptor where present and
  // `allow_push_descriptors`).
  static std::unique_ptr<VulkanContext> create(VulkanInstance instance, PhysicalDeviceInfo physical,
                                               bool allow_push_descriptors);
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;
  // Destroys the device, then the instance; everything made from it must be gone.
  ~VulkanContext();

  const VulkanInstance& instance() const { return instance_; }
  const PhysicalDeviceInfo& physical() const { return physical_; }
  VkDevice device() const { return device_; }
  const VulkanDeviceFunctions& fn() const { return functions_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  bool push_descriptors() const { return push_descriptors_; }

 private:
  VulkanContext(VulkanInstance instance, PhysicalDeviceInfo physical);

  VulkanInstance instance_;
  PhysicalDeviceInfo physical_;
  VkDevice device_ = VK_NULL_HANDLE;
  VulkanDeviceFunctions functions_;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  bool push_descriptors_ = false;
};

}  // namespace relaxc::runtime
