// Benchmarks of the Vulkan device on the device it chooses (RELAXC_VULKAN_DEVICE picks
// another): upload and download bandwidth through staging memory, and the cost of a
// launch, enqueued alone or followed by a synchronize. Reports bytes/s and launches/s.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::runtime {
namespace {

// The smallest useful kernel: out[i] = in[i] + 1.0 for i < n, workgroups of 64.
constexpr const char* kAddOne = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "add_one" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
               OpMemberDecorate %params_t 0 Offset 0
               OpDecorate %params_t Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
     %floats = OpTypeRuntimeArray %float
      %block = OpTypeStruct %floats
  %block_ptr = OpTypePointer StorageBuffer %block
  %float_ptr = OpTypePointer StorageBuffer %float
   %params_t = OpTypeStruct %int
 %params_ptr = OpTypePointer PushConstant %params_t
    %int_ptr = OpTypePointer PushConstant %int
  %input_ptr = OpTypePointer Input %v3uint
      %int_0 = OpConstant %int 0
    %float_1 = OpConstant %float 1
         %in = OpVariable %block_ptr StorageBuffer
        %out = OpVariable %block_ptr StorageBuffer
     %params = OpVariable %params_ptr PushConstant
        %gid = OpVariable %input_ptr Input
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
      %n_ptr = OpAccessChain %int_ptr %params %int_0
          %n = OpLoad %int %n_ptr
     %n_uint = OpBitcast %uint %n
   %in_range = OpULessThan %bool %i %n_uint
               OpSelectionMerge %done None
               OpBranchConditional %in_range %body %done
       %body = OpLabel
     %in_ptr = OpAccessChain %float_ptr %in %int_0 %i
    %out_ptr = OpAccessChain %float_ptr %out %int_0 %i
      %value = OpLoad %float %in_ptr
        %sum = OpFAdd %float %value %float_1
               OpStore %out_ptr %sum
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

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

KernelId load_add_one(VulkanDevice& device) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::vector<uint32_t> words;
  if (!tools.Assemble(kAddOne, &words)) runtime_error() << "the add_one kernel does not assemble";
  KernelBinary kernel;
  kernel.name = "add_one";
  kernel.code.resize(words.size() * 4);
  std::memcpy(kernel.code.data(), words.data(), kernel.code.size());
  kernel.block_size = {64, 1, 1};
  kernel.num_buffers = 2;
  kernel.scalars = {ScalarType::Int32};
  return device.load_kernel(kernel);
}

// Launches of one workgroup, `state.range(0)` per synchronize: 1 measures the round
// trip of a launch, large values the cost of enqueueing one.
void BM_Launch(benchmark::State& state) {
  VulkanDevice* device = device_or_skip(state);
  if (device == nullptr) return;
  KernelId kernel = load_add_one(*device);
  DeviceBuffer in = device->allocate(64 * 4), out = device->allocate(64 * 4);
  std::vector<DeviceBuffer> buffers = {in, out};
  std::vector<int64_t> scalars = {64};
  const int64_t per_synchronize = state.range(0);
  for (auto _ : state) {
    for (int64_t i = 0; i < per_synchronize; ++i)
      device->launch(kernel, {1, 1, 1}, buffers, scalars);
    device->synchronize();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * per_synchronize);
  device->release(in);
  device->release(out);
}

BENCHMARK(BM_Upload)->RangeMultiplier(16)->Range(1 << 10, 64 << 20)->UseRealTime();
BENCHMARK(BM_Download)->RangeMultiplier(16)->Range(1 << 10, 64 << 20)->UseRealTime();
BENCHMARK(BM_Launch)->Arg(1)->Arg(1000)->UseRealTime();

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
