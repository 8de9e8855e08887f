// The list of device kinds: one line per driver folder.
#include "runtime/device_registry.h"

#include <algorithm>

#include "runtime/cuda/cuda_device.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::runtime {

std::span<const DeviceKind* const> device_kinds() {
  // An explicit list rather than a static registrar in each folder: the runtime is a
  // static library, and the linker drops object files that nothing references.
  static const DeviceKind* const kinds[] = {
      &vulkan_device_kind(),
      &cuda_device_kind(),
  };
  return kinds;
}

std::vector<const DeviceKind*> device_kinds_by_preference() {
  std::span<const DeviceKind* const> kinds = device_kinds();
  std::vector<const DeviceKind*> ranked(kinds.begin(), kinds.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const DeviceKind* a, const DeviceKind* b) {
    return a->auto_rank < b->auto_rank;
  });
  return ranked;
}

const DeviceKind* find_device_kind(std::string_view name) {
  for (const DeviceKind* kind : device_kinds()) {
    if (kind->name == name) return kind;
  }
  return nullptr;
}

}  // namespace relaxc::runtime
