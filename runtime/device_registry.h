// The device kinds the runtime can open, one per driver folder (runtime/vulkan,
// runtime/cuda): what open_device and the tools look up by name. Adding a device (Metal,
// ROCm, WebGPU) is a folder with its Device and a function returning its DeviceKind,
// plus one line in device_registry.cc's list.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/device.h"

namespace relaxc::runtime {

struct DeviceKind {
  std::string_view name;          // "vulkan": the kind in a device spec ("vulkan:1")
  std::string_view display_name;  // "Vulkan": in messages
  // What may follow "name:" in a spec ("INDEX", "NAME"), for the list of accepted specs.
  std::vector<std::string_view> selector_forms;
  KernelFormat kernel_format = KernelFormat::SpirV;  // the code its kernels are compiled to
  // "auto" tries kinds from the lowest rank up: GPU-only APIs (CUDA) before portable
  // ones that also run on the CPU (Vulkan with lavapipe).
  int auto_rank = 0;
  // The devices present, with their limits; RuntimeError saying why there can be none
  // (no driver library).
  std::vector<DeviceLimits> (*list)() = nullptr;
  // Opens the device `selector` chooses (empty: the driver's default choice);
  // RuntimeError naming what failed, without the spec (open_device adds it).
  std::unique_ptr<Device> (*open)(const std::string& selector) = nullptr;
};

// Every registered kind, in registration order (the order messages list them in).
std::span<const DeviceKind* const> device_kinds();
// The registered kinds in the order "auto" tries them (by auto_rank).
std::vector<const DeviceKind*> device_kinds_by_preference();
// The kind called `name`, or nullptr.
const DeviceKind* find_device_kind(std::string_view name);

}  // namespace relaxc::runtime
