// The Vulkan entry of the device registry: "vulkan", "vulkan:INDEX", "vulkan:NAME".
#include "runtime/device_registry.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::runtime {

const DeviceKind& vulkan_device_kind() {
  static const DeviceKind kind = {
      .name = "vulkan",
      .display_name = "Vulkan",
      .selector_forms = {"INDEX", "NAME"},
      .kernel_format = KernelFormat::SpirV,
      .auto_rank = 1,
      .list = list_vulkan_devices,
      .open = [](const std::string& selector) -> std::unique_ptr<Device> {
        VulkanOptions options;
        options.device = selector;
        return open_vulkan_device(options);
      },
  };
  return kind;
}

}  // namespace relaxc::runtime
