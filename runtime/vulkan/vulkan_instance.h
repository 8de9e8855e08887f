// A Vulkan instance, optionally with the Khronos validation layer and a debug messenger
// that collects its warnings and errors.
#pragma once
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "runtime/vulkan/vulkan_loader.h"

namespace relaxc::runtime {

class VulkanInstance {
 public:
  // RuntimeError when the loader is missing, the layer is missing (with validation) or
  // the instance cannot be created.
  static VulkanInstance create(bool validation);

  VulkanInstance(VulkanInstance&& other) noexcept;
  VulkanInstance& operator=(VulkanInstance&& other) noexcept;
  VulkanInstance(const VulkanInstance&) = delete;
  VulkanInstance& operator=(const VulkanInstance&) = delete;
  ~VulkanInstance();

  VkInstance handle() const { return instance_; }
  const VulkanInstanceFunctions& functions() const { return functions_; }
  // The version the instance was created for: min(loader, 1.3).
  uint32_t api_version() const { return api_version_; }
  std::vector<VkPhysicalDevice> physical_devices() const;
  // What the validation layer reported (warnings and errors), in order.
  std::vector<std::string> validation_messages() const;

 private:
  // The messenger's callback writes here from any thread; held by pointer so that its
  // address survives moves of the instance.
  struct MessageLog {
    mutable std::mutex mutex;
    std::vector<std::string> messages;
  };
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT types,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* user_data);

  VulkanInstance() = default;
  // Destroys the instance. The driver and layer libraries that the loader opened for it
  // stay loaded until the process exits (see keep_libraries_loaded in the .cc).
  void destroy();

  VkInstance instance_ = VK_NULL_HANDLE;
  VulkanInstanceFunctions functions_;
  uint32_t api_version_ = 0;
  std::unique_ptr<MessageLog> log_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  // The shared objects loaded before the loader was first asked anything for this
  // instance: those it opens later are the drivers and layers, kept at destroy().
  std::set<std::string> libraries_before_;
};

}  // namespace relaxc::runtime
