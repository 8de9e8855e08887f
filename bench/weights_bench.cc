// Benchmarks of a model's weights on their way through relaxc, at ResNet-18's size (44
// MiB of float32 constants: 11 weights of 1024 x 1024), on Vulkan (lavapipe where there is
// no GPU): each step once per iteration, so that a step that grows faster than the
// weights shows up as seconds.
// - WeightsParse: the text module parsed, its constants from a metadata loader (what
//   `relaxc build model.py` does after reading model.safetensors);
// - WeightsPrint: the module printed with its constants as metadata, and the side file
//   written to memory (write_safetensors);
// - WeightsCompile: driver::build (the VM pipeline, kernels, the constant pool);
// - WeightsWrite: save_executable_file;
// - WeightsLoad: load_executable_file (mapped, checksums verified);
// - WeightsFirstCall: load, a VM, the first call (which uploads the weights) and
//   reading its result back; WeightsNextCall: a later call (no upload).
// Arg: the number of weights (11 is 44 MiB).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_device.h"
#include "driver/build.h"
#include "driver/compile.h"
#include "ir/support/safetensors.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "runtime/vm/vm.h"

namespace relaxc {
namespace {

using runtime::DType;
using runtime::vm::Value;

constexpr int64_t kSide = 1024;

// main(x) = x + w0 + w1 + ... + w{n-1}, each w a [1024, 1024] float32 constant.
std::string module_text(int64_t weights) {
  std::ostringstream s;
  s << "@I.ir_module\nclass Module:\n    @R.function\n"
       "    def main(x: R.Tensor((1024, 1024), \"float32\")) -> R.Tensor((1024, 1024), "
       "\"float32\"):\n        with R.dataflow():\n            y0 = x\n";
  for (int64_t i = 0; i < weights; ++i) {
    s << "            y" << i + 1 << " = R.add(y" << i << ", metadata[\"relax.expr.Constant\"]["
      << i << "])\n";
  }
  s << "            R.output(y" << weights << ")\n        return y" << weights << "\n";
  return s.str();
}

std::vector<HostTensor> weights(int64_t count) {
  std::vector<HostTensor> out;
  for (int64_t i = 0; i < count; ++i) {
    auto bytes = std::make_shared<std::vector<uint8_t>>(kSide * kSide * 4);
    for (size_t b = 0; b < bytes->size(); ++b) (*bytes)[b] = static_cast<uint8_t>(b * 7 + i);
    out.push_back({DataType::Float(32), {kSide, kSide}, std::move(bytes)});
  }
  return out;
}

IRModule parsed(int64_t count) {
  std::vector<HostTensor> tensors = weights(count);
  return text::parse_module(module_text(count), "weights.py", [&] { return tensors; });
}

runtime::vm::Executable compiled(const IRModule& module) {
  const Target target =
      driver::target_from_device(bench_vulkan_device()->limits(), TargetKind::Vulkan);
  return driver::build(module, {target});
}

std::string exe_path() { return "/tmp/relaxc_weights_bench.rxe"; }

void set_bytes(benchmark::State& state, int64_t count) {
  state.counters["MiB"] = static_cast<double>(count * kSide * kSide * 4) / (1 << 20);
}

void BM_WeightsParse(benchmark::State& state) {
  const std::string text = module_text(state.range(0));
  const std::vector<HostTensor> tensors = weights(state.range(0));
  for (auto _ : state) {
    benchmark::DoNotOptimize(text::parse_module(text, "weights.py", [&] { return tensors; }));
  }
  set_bytes(state, state.range(0));
}

void BM_WeightsPrint(benchmark::State& state) {
  const IRModule module = parsed(state.range(0));
  for (auto _ : state) {
    text::MetadataConstants metadata;
    benchmark::DoNotOptimize(text::print_module(module, &metadata));
    std::vector<NamedTensor> named;
    for (size_t i = 0; i < metadata.tensors.size(); ++i) {
      named.push_back({std::to_string(i), metadata.tensors[i]});
    }
    benchmark::DoNotOptimize(write_safetensors(named, "weights.safetensors"));
  }
  set_bytes(state, state.range(0));
}

void BM_WeightsCompile(benchmark::State& state) {
  if (bench_vulkan_device() == nullptr) return state.SkipWithError("no Vulkan device");
  const IRModule module = parsed(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(compiled(module));
  set_bytes(state, state.range(0));
}

void BM_WeightsWrite(benchmark::State& state) {
  if (bench_vulkan_device() == nullptr) return state.SkipWithError("no Vulkan device");
  const runtime::vm::Executable exe = compiled(parsed(state.range(0)));
  for (auto _ : state) runtime::vm::save_executable_file(exe, exe_path());
  set_bytes(state, state.range(0));
}

void BM_WeightsLoad(benchmark::State& state) {
  if (bench_vulkan_device() == nullptr) return state.SkipWithError("no Vulkan device");
  runtime::vm::save_executable_file(compiled(parsed(state.range(0))), exe_path());
  for (auto _ : state) benchmark::DoNotOptimize(runtime::vm::load_executable_file(exe_path()));
  set_bytes(state, state.range(0));
}

void BM_WeightsFirstCall(benchmark::State& state, bool first) {
  runtime::Device* device = bench_vulkan_device();
  if (device == nullptr) return state.SkipWithError("no Vulkan device");
  runtime::vm::save_executable_file(compiled(parsed(state.range(0))), exe_path());
  std::vector<float> x(kSide * kSide, 1.0f);
  auto exe = std::make_shared<const runtime::vm::Executable>(
      runtime::vm::load_executable_file(exe_path()));
  auto warm = std::make_unique<runtime::vm::VirtualMachine>(exe, *device);
  warm->call("main",
             {Value::tensor(warm->host_tensor(DType::Float(32), {kSide, kSide}, x.data()))});
  for (auto _ : state) {
    if (first) {
      // A fresh load and VM: the call uploads every weight.
      exe = std::make_shared<const runtime::vm::Executable>(
          runtime::vm::load_executable_file(exe_path()));
      warm = std::make_unique<runtime::vm::VirtualMachine>(exe, *device);
    }
    Value y = warm->call(
        "main", {Value::tensor(warm->host_tensor(DType::Float(32), {kSide, kSide}, x.data()))});
    benchmark::DoNotOptimize(warm->to_host(y.as_tensor()));
  }
  warm.reset();
  std::remove(exe_path().c_str());
  set_bytes(state, state.range(0));
}

BENCHMARK(BM_WeightsParse)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WeightsPrint)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WeightsCompile)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WeightsWrite)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_WeightsLoad)->Arg(1)->Arg(11)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK_CAPTURE(BM_WeightsFirstCall, first, true)
    ->Arg(1)
    ->Arg(11)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_WeightsFirstCall, next, false)
    ->Arg(1)
    ->Arg(11)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
