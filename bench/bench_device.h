// The benchmarks' Vulkan device: opened once per process, without the validation layer
// (the tests' device harness turns it on, which would time the layer).
#pragma once
#include <memory>

#include "runtime/device.h"
#include "runtime/open_device.h"

namespace relaxc {

// The process's Vulkan device, or nullptr where none opens (the benchmark then skips).
inline runtime::Device* bench_vulkan_device() {
  static std::unique_ptr<runtime::Device> device = []() -> std::unique_ptr<runtime::Device> {
    try {
      return runtime::open_device("vulkan");
    } catch (const runtime::RuntimeError&) {
      return nullptr;
    }
  }();
  return device.get();
}

}  // namespace relaxc
