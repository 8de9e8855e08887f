// Benchmarks of compiled kernels on each device present: Vulkan (RELAXC_VULKAN_DEVICE
// chooses; lavapipe where there is no GPU) and CUDA (RELAXC_CUDA_DEVICE): the tiled
// matrix multiply (FLOP/s) as the kernel suite schedules it by hand (TiledMatmul) and as
// the default GPU schedule's matmul rule does (MatmulRule), and the row softmax
// (bytes/s). Time per iteration includes the launch; the host waits once per iteration.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "bench/bench_device.h"
#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/vulkan/vulkan_device.h"
#include "tests/support/device_harness.h"
#include "tests/support/kernel_suite.h"

namespace relaxc {
namespace {

runtime::Device* bench_device(TargetKind kind) {
  static std::unique_ptr<runtime::Device> vulkan = []() -> std::unique_ptr<runtime::Device> {
    try {
      return runtime::open_vulkan_device();
    } catch (const runtime::RuntimeError&) {
      return nullptr;
    }
  }();
  static std::unique_ptr<runtime::Device> cuda = []() -> std::unique_ptr<runtime::Device> {
    try {
      return runtime::open_cuda_device();
    } catch (const runtime::RuntimeError&) {
      return nullptr;
    }
  }();
  return kind == TargetKind::Vulkan ? vulkan.get() : cuda.get();
}

// The suite's schedule of a kernel, or with `default_schedule` the default GPU schedule's.
void run_kernel(benchmark::State& state, TargetKind kind, const std::string& name,
                const testing::Sizes& sizes, double flops, double bytes,
                bool default_schedule = false) {
  runtime::Device* device = bench_device(kind);
  if (device == nullptr) {
    state.SkipWithError("no device of this kind");
    return;
  }
  const testing::SuiteKernel& kernel = testing::suite_kernel(name);
  Target target = driver::target_from_device(device->limits(), kind);
  testing::SuiteKernel scheduled = kernel;
  if (default_schedule) scheduled.schedule = nullptr;
  codegen::CompiledPrimFunc compiled =
      driver::compile_prim_func(testing::scheduled_kernel(scheduled, target), name, target);
  std::vector<testing::HostArray> args = kernel.make_args(sizes, 1);
  std::vector<testing::HostArray*> pointers;
  for (testing::HostArray& a : args) pointers.push_back(&a);
  testing::DeviceArrays buffers(*device, pointers);
  driver::PrimFuncLauncher launcher(*device, compiled);
  time_launches(
      state, *device, [&] { launcher.launch(buffers.args()); }, flops, bytes);
}

void BM_TiledMatmul(benchmark::State& state, TargetKind kind) {
  int64_t n = state.range(0);
  run_kernel(state, kind, "matmul", {{"m", n}, {"n", n}, {"k", n}}, 2.0 * n * n * n,
             3.0 * 4 * n * n);
}
BENCHMARK_CAPTURE(BM_TiledMatmul, vulkan, TargetKind::Vulkan)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_TiledMatmul, cuda, TargetKind::Cuda)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_MatmulRule(benchmark::State& state, TargetKind kind) {
  int64_t n = state.range(0);
  run_kernel(state, kind, "matmul", {{"m", n}, {"n", n}, {"k", n}}, 2.0 * n * n * n,
             3.0 * 4 * n * n, /*default_schedule=*/true);
}
BENCHMARK_CAPTURE(BM_MatmulRule, vulkan, TargetKind::Vulkan)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_MatmulRule, cuda, TargetKind::Cuda)
    ->Arg(128)
    ->Arg(256)
    ->Arg(512)
    ->Arg(1024)
    ->Arg(2048)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_Softmax(benchmark::State& state, TargetKind kind) {
  int64_t rows = state.range(0);
  run_kernel(state, kind, "softmax", {{"n", rows}}, 5.0 * rows * 300, 2.0 * 4 * rows * 300);
}
BENCHMARK_CAPTURE(BM_Softmax, vulkan, TargetKind::Vulkan)
    ->Arg(64)
    ->Arg(4096)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Softmax, cuda, TargetKind::Cuda)
    ->Arg(64)
    ->Arg(4096)
    ->Arg(65536)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
