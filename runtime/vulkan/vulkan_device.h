// The Vulkan device: loads the Vulkan loader at run time, so a program that links the
// runtime starts on a machine without one.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace relaxc::runtime {

struct VulkanOptions {
  // Chooses the physical device: an index into list_vulkan_devices(), or a substring of
  // its name. Empty: the environment variable RELAXC_VULKAN_DEVICE, else the first
  // discrete GPU, else an integrated GPU, else lavapipe (a CPU device).
  std::string device;
  // Enables the Khronos validation layer (also when RELAXC_VULKAN_VALIDATION=1); its
  // messages are collected, see VulkanDevice::validation_messages.
  bool validation = false;
  // Binds kernel buffers with VK_KHR_push_descriptor where the device has it; false
  // binds descriptor sets from pools instead (the path of devices without it).
  bool push_descriptors = true;
  // Keeps runs of dispatches recorded and replays a run that repeats (see
  // vulkan_commands.h); false records every dispatch anew, as does the environment
  // variable RELAXC_VULKAN_REPLAY=0.
  bool replay = true;
};

// The physical devices the loader reports, with their limits.
// RuntimeError if the Vulkan loader cannot be loaded or has no device.
std::vector<DeviceLimits> list_vulkan_devices();

class VulkanDevice : public Device {
 public:
  // Messages the validation layer reported since the device was opened (warnings and
  // errors), empty when validation is off or nothing was reported.
  virtual std::vector<std::string> validation_messages() const = 0;
};

// Opens the chosen device. RuntimeError naming what failed (no loader, no device
// matching `options.device`, a device that cannot run compute shaders).
std::unique_ptr<VulkanDevice> open_vulkan_device(const VulkanOptions& options = {});

// The registry entry of Vulkan devices (vulkan_device_kind.cc).
struct DeviceKind;
const DeviceKind& vulkan_device_kind();

}  // namespace relaxc::runtime
