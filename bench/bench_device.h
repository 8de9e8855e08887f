// The benchmarks' Vulkan device: opened once per process, without the validation layer
// (the tests' device harness turns it on, which would time the layer); and the timing of
// launches on a device.
#pragma once
#include <benchmark/benchmark.h>

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

// Times `launch` (which enqueues work on `device`): one warm-up launch (kernels loaded,
// memory touched), then per iteration a launch and a wait for the device. Reports
// `flops` and `bytes` per launch as rates (FLOP/s, bytes/s: benchmark prints them with SI
// prefixes), labelled with the device's name.
template <typename Launch>
void time_launches(benchmark::State& state, runtime::Device& device, Launch launch, double flops,
                   double bytes) {
  launch();
  device.synchronize();
  for (auto _ : state) {
    launch();
    device.synchronize();
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["FLOP/s"] = benchmark::Counter(flops * iterations, benchmark::Counter::kIsRate);
  state.counters["bytes/s"] = benchmark::Counter(bytes * iterations, benchmark::Counter::kIsRate);
  state.SetLabel(device.limits().name);
}

}  // namespace relaxc
