// Benchmarks of the Vulkan device on the device it chooses (RELAXC_VULKAN_DEVICE picks
// another): upload and download bandwidth through staging memory, and the cost of a
// launch, enqueued alone or followed by a synchronize. Reports bytes/s and launches/s.
// Also the cost of one allocation and free of device memory, from the driver (a buffer
// with its own VkDeviceMemory) and from the VM's storage pool (a range of a block).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/vm/storage_pool.h"
#include "runtime/vulkan/vulkan_device.h"
#include "tests/support/hand_written_kernels.h"

namespace relaxc::runtime {
namespace {

// One device for every benchmark (opening one takes longer than most of them), or the
// reason there is none.
struct BenchDevice {
  std::unique_ptr<VulkanDevice> device;
  std::string error;
};

BenchDevice& bench_device() {
  static BenchDevice bench = [] {
    BenchDevice opened;
    try {
      opened.device = open_vulkan_device();
    } catch (const RuntimeError& e) {
      opened.error = e.what();
    }
    return opened;
  }();
  return bench;
}

VulkanDevice* device_or_skip(benchmark::State& state) {
  BenchDevice& bench = bench_device();
  if (bench.device == nullptr) state.SkipWithError(("no Vulkan device: " + bench.error).c_str());
  return bench.device.get();
}

void BM_Upload(benchmark::State& state) {
  VulkanDevice* device = device_or_skip(state);
  if (device == nullptr) return;
  const size_t bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> host(bytes, 7);
  DeviceBuffer buffer = device->allocate(bytes);
  for (auto _ : state) {
    device->upload(buffer, 0, host.data(), bytes);
    device->synchronize();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
  device->release(buffer);
}

void BM_Download(benchmark::State& state) {
  VulkanDevice* device = device_or_skip(state);
  if (device == nullptr) return;
  const size_t bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> host(bytes, 7);
  DeviceBuffer buffer = device->allocate(bytes);
  device->upload(buffer, 0, host.data(), bytes);
  for (auto _ : state) {
    device->download(host.data(), buffer, 0, bytes);
    benchmark::DoNotOptimize(host.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
  device->release(buffer);
}

// Launches of one workgroup, `state.range(0)` per synchronize: 1 measures the round
// trip of a launch, large values the cost of enqueueing one.
void BM_Launch(benchmark::State& state) {
  VulkanDevice* device = device_or_skip(state);
  if (device == nullptr) return;
  // The smallest useful kernel: c[i] = a[i] + b[i] over one workgroup of 64.
  KernelId kernel = device->load_kernel(testing::vector_add_kernel(KernelFormat::SpirV));
  std::vector<DeviceBuffer> buffers = {device->allocate(64 * 4), device->allocate(64 * 4),
                                       device->allocate(64 * 4)};
  std::vector<int64_t> scalars = {64};
  const int64_t per_synchronize = state.range(0);
  for (auto _ : state) {
    for (int64_t i = 0; i < per_synchronize; ++i)
      device->launch(kernel, {1, 1, 1}, buffers, scalars);
    device->synchronize();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * per_synchronize);
  for (DeviceBuffer buffer : buffers) device->release(buffer);
}

void BM_DriverAllocateRelease(benchmark::State& state) {
  VulkanDevice* device = device_or_skip(state);
  if (device == nullptr) return;
  const size_t bytes = static_cast<size_t>(state.range(0));
  for (auto _ : state) device->release(device->allocate(bytes));
}

// Warm: the block comes from the driver before the loop, as in steady-state calls.
void BM_PoolAllocateFree(benchmark::State& state) {
  VulkanDevice* device = device_or_skip(state);
  if (device == nullptr) return;
  const size_t bytes = static_cast<size_t>(state.range(0));
  auto pool = vm::StoragePool::create(device);
  pool->allocate(bytes);
  for (auto _ : state) benchmark::DoNotOptimize(pool->allocate(bytes));
}

BENCHMARK(BM_Upload)->RangeMultiplier(16)->Range(1 << 10, 64 << 20)->UseRealTime();
BENCHMARK(BM_Download)->RangeMultiplier(16)->Range(1 << 10, 64 << 20)->UseRealTime();
BENCHMARK(BM_Launch)->Arg(1)->Arg(1000)->UseRealTime();
BENCHMARK(BM_DriverAllocateRelease)->RangeMultiplier(64)->Range(256, 16 << 20)->UseRealTime();
BENCHMARK(BM_PoolAllocateFree)->RangeMultiplier(64)->Range(256, 16 << 20)->UseRealTime();

}  // namespace
}  // namespace relaxc::runtime

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  relaxc::runtime::BenchDevice& bench = relaxc::runtime::bench_device();
  benchmark::AddCustomContext("vulkan_device",
                              bench.device ? bench.device->limits().name : "none: " + bench.error);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
