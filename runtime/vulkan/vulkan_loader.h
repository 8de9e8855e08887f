// The Vulkan loader, opened at run time: function tables for the global, instance and
// device levels, and the check that turns a failed VkResult into a RuntimeError.
#pragma once
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <string>
#include <string_view>

#include "runtime/device.h"

namespace relaxc::runtime {

// Each list names the functions of one level; the tables below and the code that fills
// them come from these lists, so adding a function is one line.
#define RELAXC_VULKAN_GLOBAL_FUNCTIONS(X) \
  X(vkCreateInstance)                     \
  X(vkEnumerateInstanceLayerProperties)   \
  X(vkEnumerateInstanceExtensionProperties)

#define RELAXC_VULKAN_INSTANCE_FUNCTIONS(X)   \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceProperties2)           \
  X(vkGetPhysicalDeviceFeatures2)             \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkEnumerateDeviceExtensionProperties)     \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

// Present only when VK_EXT_debug_utils is enabled.
#define RELAXC_VULKAN_DEBUG_UTILS_FUNCTIONS(X) \
  X(vkCreateDebugUtilsMessengerEXT)            \
  X(vkDestroyDebugUtilsMessengerEXT)

#define RELAXC_VULKAN_DEVICE_FUNCTIONS(X) \
  X(vkDestroyDevice)                      \
  X(vkGetDeviceQueue)                     \
  X(vkDeviceWaitIdle)                     \
  X(vkQueueSubmit)                        \
  X(vkCreateBuffer)                       \
  X(vkDestroyBuffer)                      \
  X(vkGetBufferMemoryRequirements)        \
  X(vkAllocateMemory)                     \
  X(vkFreeMemory)                         \
  X(vkBindBufferMemory)                   \
  X(vkMapMemory)                          \
  X(vkUnmapMemory)                        \
  X(vkCreateShaderModule)                 \
  X(vkDestroyShaderModule)                \
  X(vkCreateDescriptorSetLayout)          \
  X(vkDestroyDescriptorSetLayout)         \
  X(vkCreatePipelineLayout)               \
  X(vkDestroyPipelineLayout)              \
  X(vkCreateComputePipelines)             \
  X(vkDestroyPipeline)                    \
  X(vkCreateDescriptorPool)               \
  X(vkDestroyDescriptorPool)              \
  X(vkResetDescriptorPool)                \
  X(vkAllocateDescriptorSets)             \
  X(vkUpdateDescriptorSets)               \
  X(vkCreateCommandPool)                  \
  X(vkDestroyCommandPool)                 \
  X(vkAllocateCommandBuffers)             \
  X(vkFreeCommandBuffers)                 \
  X(vkBeginCommandBuffer)                 \
  X(vkEndCommandBuffer)                   \
  X(vkResetCommandBuffer)                 \
  X(vkCmdBindPipeline)                    \
  X(vkCmdBindDescriptorSets)              \
  X(vkCmdPushConstants)                   \
  X(vkCmdDispatch)                        \
  X(vkCmdExecuteCommands)                 \
  X(vkCmdCopyBuffer)                      \
  X(vkCmdPipelineBarrier)                 \
  X(vkCreateQueryPool)                    \
  X(vkDestroyQueryPool)                   \
  X(vkCmdResetQueryPool)                  \
  X(vkCmdWriteTimestamp)                  \
  X(vkGetQueryPoolResults)                \
  X(vkCreateFence)                        \
  X(vkDestroyFence)                       \
  X(vkWaitForFences)                      \
  X(vkResetFences)                        \
  X(vkGetFenceStatus)

// Present only when VK_KHR_push_descriptor is enabled.
#define RELAXC_VULKAN_PUSH_DESCRIPTOR_FUNCTIONS(X) X(vkCmdPushDescriptorSetKHR)

#define RELAXC_VULKAN_DECLARE_FUNCTION(name) PFN_##name name = nullptr;

struct VulkanGlobalFunctions {
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  // Null on a Vulkan 1.0 loader.
  PFN_vkEnumerateInstanceVersion vkEnumerateInstanceVersion = nullptr;
  RELAXC_VULKAN_GLOBAL_FUNCTIONS(RELAXC_VULKAN_DECLARE_FUNCTION)
};

struct VulkanInstanceFunctions {
  RELAXC_VULKAN_INSTANCE_FUNCTIONS(RELAXC_VULKAN_DECLARE_FUNCTION)
  RELAXC_VULKAN_DEBUG_UTILS_FUNCTIONS(RELAXC_VULKAN_DECLARE_FUNCTION)

  // Resolves every function of the lists; RuntimeError naming a required one missing.
  void load(const VulkanGlobalFunctions& global, VkInstance instance, bool debug_utils);
};

struct VulkanDeviceFunctions {
  RELAXC_VULKAN_DEVICE_FUNCTIONS(RELAXC_VULKAN_DECLARE_FUNCTION)
  RELAXC_VULKAN_PUSH_DESCRIPTOR_FUNCTIONS(RELAXC_VULKAN_DECLARE_FUNCTION)

  void load(const VulkanInstanceFunctions& instance_functions, VkDevice device,
            bool push_descriptor);
};

#undef RELAXC_VULKAN_DECLARE_FUNCTION

// Opens libvulkan.so.1 (else libvulkan.so) once per process and keeps it open: the
// loader is process-wide, and closing it would hide the driver's allocations from
// leak checkers' suppressions. RuntimeError saying how to install it when missing.
const VulkanGlobalFunctions& vulkan_loader();

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", or "VkResult(-7)" for a code this build does not know.
std::string vk_result_name(VkResult result);

// Throws a RuntimeError unless `result` is VK_SUCCESS: "vkAllocateMemory failed with
// VK_ERROR_OUT_OF_DEVICE_MEMORY (the device is out of memory) while <context>".
void check_vk(VkResult result, std::string_view call, std::string_view context = {});

}  // namespace relaxc::runtime
