// Opening a device from a spec string ("vulkan:1", "cuda", "auto") for the tools.
#include "runtime/open_device.h"

#include <cstdlib>

#include "runtime/cuda/cuda_device.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::runtime {
namespace {

constexpr const char* kAccepted =
    "expected 'auto', 'vulkan', 'vulkan:INDEX', 'vulkan:NAME', 'cuda' or 'cuda:INDEX'";

std::unique_ptr<Device> open_cuda(const std::string& spec, const std::string& selector) {
  CudaOptions options;
  if (!selector.empty()) {
    char* end = nullptr;
    long ordinal = std::strtol(selector.c_str(), &end, 10);
    if (*end != '\0' || selector[0] == '-' || selector[0] == '+' || ordinal > 1 << 20) {
      runtime_error() << "device '" << spec << "': '" << selector
                      << "' is not a CUDA device index (0, 1, ...)";
    }
    options.device = static_cast<int>(ordinal);
  }
  try {
    return open_cuda_device(options);
  } catch (const RuntimeError& e) {
    runtime_error() << "device '" << spec << "': " << e.what();
  }
}

std::unique_ptr<Device> open_vulkan(const std::string& spec, const std::string& selector) {
  VulkanOptions options;
  options.device = selector;
  try {
    return open_vulkan_device(options);
  } catch (const RuntimeError& e) {
    runtime_error() << "device '" << spec << "': " << e.what();
  }
}

// The best device present: a CUDA GPU, else the Vulkan device open_vulkan_device
// prefers (a discrete GPU, then an integrated one, then a CPU device such as lavapipe).
std::unique_ptr<Device> open_best(const std::string& spec) {
  std::string cuda_failure;
  try {
    return open_cuda_device();
  } catch (const RuntimeError& e) {
    cuda_failure = e.what();
  }
  try {
    return open_vulkan_device();
  } catch (const RuntimeError& e) {
    runtime_error() << "device '" << spec << "': no device present. CUDA: " << cuda_failure
                    << ". Vulkan: " << e.what();
  }
}

}  // namespace

std::unique_ptr<Device> open_device(const std::string& spec) {
  if (spec.empty() || spec == "auto") return open_best(spec.empty() ? "auto" : spec);
  size_t colon = spec.find(':');
  std::string kind = spec.substr(0, colon);
  std::string selector = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (colon != std::string::npos && selector.empty()) {
    runtime_error() << "device '" << spec << "': nothing after ':'; " << kAccepted;
  }
  if (kind == "cuda") return open_cuda(spec, selector);
  if (kind == "vulkan") return open_vulkan(spec, selector);
  runtime_error() << "device '" << spec << "': unknown device kind '" << kind << "'; " << kAccepted;
}

}  // namespace relaxc::runtime
