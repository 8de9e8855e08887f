// Creating the logical device: the feature chain mirrors what the physical device
// reported, so kernels may use any of it and nothing it lacks is requested.
#include "runtime/vulkan/vulkan_context.h"

#include <utility>
#include <vector>

namespace relaxc::runtime {

VulkanContext::VulkanContext(VulkanInstance instance, PhysicalDeviceInfo physical)
    : instance_(std::move(instance)), physical_(std::move(physical)) {}

std::unique_ptr<VulkanContext> VulkanContext::create(VulkanInstance instance,
                                                     PhysicalDeviceInfo physical,
                                                     bool allow_push_descriptors) {
  std::unique_ptr<VulkanContext> context(
      new VulkanContext(std::move(instance), std::move(physical)));
  const PhysicalDeviceInfo& info = context->physical_;
  if (!info.compute_queue_family) {
    runtime_error() << "Vulkan device \"" << info.limits.name
                    << "\" has no queue that runs compute shaders";
  }
  context->queue_family_ = *info.compute_queue_family;
  context->push_descriptors_ = allow_push_descriptors && info.max_push_descriptors > 0;

  std::vector<const char*> extensions;
  if (context->push_descriptors_) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
  if (info.use_8bit_storage_extension) extensions.push_back("VK_KHR_8bit_storage");
  if (info.use_float16_int8_extension) extensions.push_back("VK_KHR_shader_float16_int8");

  VkPhysicalDevice16BitStorageFeatures storage16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  storage16.storageBuffer16BitAccess = info.storage_buffer_16bit ? VK_TRUE : VK_FALSE;
  VkPhysicalDevice8BitStorageFeatures storage8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  storage8.storageBuffer8BitAccess = info.storage_buffer_8bit ? VK_TRUE : VK_FALSE;
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  float16_int8.shaderFloat16 = info.shader_float16 ? VK_TRUE : VK_FALSE;
  float16_int8.shaderInt8 = info.shader_int8 ? VK_TRUE : VK_FALSE;
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  features.features.shaderInt16 = info.shader_int16 ? VK_TRUE : VK_FALSE;
  features.features.shaderInt64 = info.shader_int64 ? VK_TRUE : VK_FALSE;
  features.features.shaderFloat64 = info.shader_float64 ? VK_TRUE : VK_FALSE;
  // Structures of features the device cannot have stay out of the chain: naming one of
  // an absent extension is invalid even when all its members are false.
  void** tail = &features.pNext;
  *tail = &storage16;
  tail = &storage16.pNext;
  if (info.storage_buffer_8bit) {
    *tail = &storage8;
    tail = &storage8.pNext;
  }
  if (info.shader_float16 || info.shader_int8) *tail = &float16_int8;

  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = context->queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo create_info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  create_info.pNext = &features;
  create_info.queueCreateInfoCount = 1;
  create_info.pQueueCreateInfos = &queue_info;
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  const VulkanInstanceFunctions& ifn = context->instance_.functions();
  check_vk(ifn.vkCreateDevice(info.handle, &create_info, nullptr, &context->device_),
           "vkCreateDevice", "opening \"" + info.limits.name + "\"");
  context->functions_.load(ifn, context->device_, context->push_descriptors_);
  context->functions_.vkGetDeviceQueue(context->device_, context->queue_family_, 0,
                                       &context->queue_);
  return context;
}

VulkanContext::~VulkanContext() {
  if (device_ != VK_NULL_HANDLE && functions_.vkDestroyDevice != nullptr) {
    functions_.vkDestroyDevice(device_, nullptr);
  }
}

}  // namespace relaxc::runtime
