// The CUDA device: the CUDA Driver API, loaded at run time (libcuda.so.1), so a program
// that links the runtime starts, and runs on Vulkan, on a machine without an NVIDIA
// driver.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "runtime/device.h"

namespace relaxc::runtime {

struct CudaOptions {
  // The device ordinal; -1: the environment variable RELAXC_CUDA_DEVICE, else 0.
  int device = -1;
  // Keeps runs of launches and replays a run that repeats as a CUDA graph (see
  // cuda_launch_runs.h); false launches every kernel anew, as does the environment
  // variable RELAXC_CUDA_REPLAY=0.
  bool replay = true;
};

// The CUDA devices the driver reports, with their limits. RuntimeError if libcuda cannot
// be loaded ("CUDA is not available: libcuda.so.1 not found ...") or cuInit fails.
std::vector<DeviceLimits> list_cuda_devices();

class CudaDevice : public Device {
 public:
  // The GPU time in milliseconds of the work that `enqueue` submits to this device
  // (launches, copies), measured by events recorded on the device's stream before and
  // after it; waits for that work. For benchmarks.
  virtual double time_ms(const std::function<void()>& enqueue) = 0;
};

// Opens the device: a primary context, one stream (launches and copies are ordered on
// it; runs of launches that repeat go on it as CUDA graphs), modules loaded from PTX (JIT-compiled
// by the driver; its error log is part of the RuntimeError on failure) and cached by content.
// RuntimeError naming what failed (no driver, an ordinal out of range, a driver call).
std::unique_ptr<CudaDevice> open_cuda_device(const CudaOptions& options = {});

// The registry entry of CUDA devices (cuda_device_kind.cc).
struct DeviceKind;
const DeviceKind& cuda_device_kind();

}  // namespace relaxc::runtime
