// Running compiled PrimFuncs on a runtime device from tests and benchmarks.
#include "tests/support/device_harness.h"

#include <algorithm>
#include <memory>

#include "runtime/cuda/cuda_device.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::testing {

namespace {

struct OpenedDevices {
  std::unique_ptr<runtime::VulkanDevice> vulkan;
  std::string vulkan_failure;
  std::unique_ptr<runtime::CudaDevice> cuda;
  std::string cuda_failure;
};

OpenedDevices& opened_devices() {
  static OpenedDevices devices = [] {
    OpenedDevices d;
    try {
      runtime::VulkanOptions options;
      options.validation = true;
      d.vulkan = runtime::open_vulkan_device(options);
    } catch (const runtime::RuntimeError& e) {
      d.vulkan_failure = e.what();
    }
    try {
      d.cuda = runtime::open_cuda_device();
    } catch (const runtime::RuntimeError& e) {
      d.cuda_failure = e.what();
    }
    return d;
  }();
  return devices;
}

}  // namespace

runtime::Device* test_device(TargetKind kind, std::string* why_not) {
  OpenedDevices& d = opened_devices();
  runtime::Device* device = kind == TargetKind::Vulkan
                                ? static_cast<runtime::Device*>(d.vulkan.get())
                                : static_cast<runtime::Device*>(d.cuda.get());
  if (device == nullptr && why_not != nullptr) {
    *why_not = kind == TargetKind::Vulkan ? d.vulkan_failure : d.cuda_failure;
  }
  return device;
}

std::vector<std::string> validation_messages(TargetKind kind) {
  OpenedDevices& d = opened_devices();
  if (kind != TargetKind::Vulkan || !d.vulkan) return {};
  return d.vulkan->validation_messages();
}

std::string device_kind_name(TargetKind kind) {
  return kind == TargetKind::Vulkan ? "vulkan" : "cuda";
}

DeviceArrays::DeviceArrays(runtime::Device& device, const std::vector<HostArray*>& arrays)
    : device_(device) {
  for (HostArray* a : arrays) {
    std::vector<uint8_t> bytes = a->to_bytes();
    // A zero-sized tensor still gets a (tiny) buffer: devices refuse empty ones.
    runtime::DeviceBuffer buffer = device.allocate(std::max<size_t>(bytes.size(), 4));
    if (!bytes.empty()) device.upload(buffer, 0, bytes.data(), bytes.size());
    args_.push_back({buffer, a->shape});
  }
}

DeviceArrays::~DeviceArrays() {
  for (const driver::BufferArg& arg : args_) device_.release(arg.buffer);
}

void DeviceArrays::read_back(const std::vector<HostArray*>& arrays) {
  for (size_t i = 0; i < arrays.size() && i < args_.size(); ++i) {
    std::vector<uint8_t> bytes(arrays[i]->data.size() *
                               static_cast<size_t>(arrays[i]->dtype.bytes()));
    if (!bytes.empty()) device_.download(bytes.data(), args_[i].buffer, 0, bytes.size());
    arrays[i]->from_bytes(bytes);
  }
}

void run_on_device(runtime::Device& device, const codegen::CompiledPrimFunc& func,
                   std::vector<HostArray*> args, const std::map<std::string, int64_t>& scalars) {
  DeviceArrays buffers(device, args);
  driver::PrimFuncLauncher launcher(device, func);
  launcher.launch(buffers.args(), scalars);
  buffers.read_back(args);
  device.synchronize();
}

}  // namespace relaxc::testing
