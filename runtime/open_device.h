// Opening a device by name, for the tools and embedding programs: "vulkan", "vulkan:1",
// "vulkan:llvmpipe" (index or name substring), "cuda", "cuda:0", or "" / "auto" for the
// best present (a CUDA GPU, else a discrete or integrated Vulkan GPU, else any Vulkan
// device such as lavapipe).
#pragma once
#include <memory>
#include <string>

#include "runtime/device.h"

namespace relaxc::runtime {

// RuntimeError naming the spec and the devices present when none matches.
std::unique_ptr<Device> open_device(const std::string& spec);

}  // namespace relaxc::runtime
