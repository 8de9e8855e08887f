// The CUDA entry of the device registry: "cuda", "cuda:INDEX".
#include <cstdlib>

#include "runtime/cuda/cuda_device.h"
#include "runtime/device_registry.h"

namespace relaxc::runtime {

const DeviceKind& cuda_device_kind() {
  static const DeviceKind kind = {
      .name = "cuda",
      .display_name = "CUDA",
      .selector_forms = {"INDEX"},
      .kernel_format = KernelFormat::Ptx,
      .auto_rank = 0,
      .list = list_cuda_devices,
      .open = [](const std::string& selector) -> std::unique_ptr<Device> {
        CudaOptions options;
        if (!selector.empty()) {
          char* end = nullptr;
          long ordinal = std::strtol(selector.c_str(), &end, 10);
          if (*end != '\0' || selector[0] == '-' || selector[0] == '+' || ordinal > 1 << 20) {
            runtime_error() << "'" << selector << "' is not a CUDA device index (0, 1, ...)";
          }
          options.device = static_cast<int>(ordinal);
        }
        return open_cuda_device(options);
      },
  };
  return kind;
}

}  // namespace relaxc::runtime
