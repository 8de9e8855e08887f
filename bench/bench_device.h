// The benchmarks' Vulkan device: opened once per process, without the validation layer
// (the tests' device harness turns it on, which would time the layer); and the timing of
// launches on a device.
#pragma once
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

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

// Times `launch` (which enqueues work on a device) followed by `wait` (which waits for
// it): one warm-up round (kernels loaded, memory touched), then one round per iteration.
// Reports `flops` and `bytes` per launch as rates (FLOP/s, bytes/s: benchmark prints them
// with SI prefixes), labelled `label` (the device's name).
template <typename Launch, typename Wait>
void time_calls(benchmark::State& state, Launch launch, Wait wait, double flops, double bytes,
                const std::string& label) {
  launch();
  wait();
  for (auto _ : state) {
    launch();
    wait();
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["FLOP/s"] = benchmark::Counter(flops * iterations, benchmark::Counter::kIsRate);
  state.counters["bytes/s"] = benchmark::Counter(bytes * iterations, benchmark::Counter::kIsRate);
  state.SetLabel(label);
}

// time_calls on a relaxc device: the wait is device.synchronize().
template <typename Launch>
void time_launches(benchmark::State& state, runtime::Device& device, Launch launch, double flops,
                   double bytes) {
  time_calls(
      state, launch, [&] { device.synchronize(); }, flops, bytes, device.limits().name);
}

}  // namespace relaxc
