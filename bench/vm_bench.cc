// Benchmarks of the Relax VM on each device present (Vulkan: lavapipe where there is no
// GPU; CUDA where there is one):
// - VmInterpreter: a function of 64 bindings and no kernels (shape checks, shapes made
//   from the shape heap, reshapes as views): the interpreter's cost per call, and per
//   instruction (items/s counts instructions; counter time_per_instruction, in seconds);
// - VmDispatch: a hand-built function of 1000 calls of a builtin that makes no value:
//   the interpreter's dispatch cost per instruction (counter time_per_instruction), CPU
//   time, as the call never waits for the device;
// - VmMlp: examples/mlp.py's main (a reduction kernel, a bias+ReLU kernel, two
//   reshapes, a call between Relax functions) per call for a batch of n images,
//   including the launches; the host waits once per iteration;
// - VmStoragePool: the same call's driver allocations after warm-up (counter
//   fresh_allocations_per_call, 0 when the pool reuses every block);
// - VmHundredKernels: a chain of 100 matmuls (100 kernels, none fused) of a (4, 16)
//   tensor, on Vulkan and on CUDA with launch replay on and off (kept command buffers,
//   CUDA graphs): the host's time per call until vm.call returns (counter
//   host_us_per_call; the launches' encoding, or their comparison with the recording
//   when replayed), the time with the wait for the device, and the launches replayed per
//   call.
#include <benchmark/benchmark.h>

#include <chrono>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/text/parser.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/open_device.h"
#include "runtime/vm/vm.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc {
namespace {

using runtime::DType;
using runtime::vm::Value;

runtime::Device* bench_device(TargetKind kind) {
  static auto open = [](const char* spec) -> std::unique_ptr<runtime::Device> {
    try {
      return runtime::open_device(spec);
    } catch (const runtime::RuntimeError&) {
      return nullptr;
    }
  };
  static std::unique_ptr<runtime::Device> vulkan = open("vulkan");
  static std::unique_ptr<runtime::Device> cuda = open("cuda");
  return kind == TargetKind::Vulkan ? vulkan.get() : cuda.get();
}

std::shared_ptr<const runtime::vm::Executable> build_for(const std::string& text,
                                                         runtime::Device& device,
                                                         TargetKind kind) {
  IRModule module = text::parse_module(text, "bench.py");
  Target target = driver::target_from_device(device.limits(), kind);
  return std::make_shared<const runtime::vm::Executable>(driver::build(module, {target}));
}

// 32 pairs of reshapes of x: (n, 4) -> (n * 4,) -> (n, 4), each shape made from the heap.
std::string interpreter_module() {
  std::ostringstream s;
  s << "@I.ir_module\nclass Module:\n    @R.function\n"
       "    def main(x: R.Tensor((\"n\", 4), \"float32\")) -> R.Tensor((\"n\", 4), \"float32\"):\n"
       "        n = T.int64()\n        y0 = x\n";
  for (int i = 0; i < 32; ++i) {
    s << "        f" << i << " = R.reshape(y" << i << ", R.shape([n * 4]))\n";
    s << "        y" << i + 1 << " = R.reshape(f" << i << ", R.shape([n, 4]))\n";
  }
  s << "        return y32\n";
  return s.str();
}

int64_t instruction_count(const runtime::vm::Executable& exe, const std::string& function) {
  return static_cast<int64_t>(exe.functions[static_cast<size_t>(exe.find_export(function))].code.size());
}

void BM_VmInterpreter(benchmark::State& state, TargetKind kind) {
  runtime::Device* device = bench_device(kind);
  if (device == nullptr) {
    state.SkipWithError("no device of this kind");
    return;
  }
  auto exe = build_for(interpreter_module(), *device, kind);
  runtime::vm::VirtualMachine vm(exe, *device);
  std::vector<float> data(8 * 4, 1.0f);
  Value x = Value::tensor(vm.from_host(DType::Float(32), {8, 4}, data.data()));
  for (auto _ : state) benchmark::DoNotOptimize(vm.call("main", {x}));
  const int64_t instructions = state.iterations() * instruction_count(*exe, "main");
  state.SetItemsProcessed(instructions);
  state.counters["time_per_instruction"] = benchmark::Counter(
      static_cast<double>(instructions), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// main(x): 1000 instructions %1 = vm.builtin.copy(%0) (a builtin that returns its
// argument, so that the call makes no value), then ret %1: the cost of dispatching a
// Call of a packed function, nothing else.
std::shared_ptr<const runtime::vm::Executable> dispatch_executable() {
  namespace vm = runtime::vm;
  vm::Executable exe;
  vm::FunctionEntry main;
  main.kind = vm::FunctionKind::Bytecode;
  main.name = "main";
  main.param_names = {"x"};
  main.num_registers = 2;
  vm::Instruction copy;
  copy.opcode = vm::Opcode::Call;
  copy.dst = 1;
  copy.func = 1;
  copy.args = {vm::Arg{vm::Arg::Kind::Register, 0}};
  main.code.assign(1000, copy);
  vm::Instruction ret;
  ret.opcode = vm::Opcode::Ret;
  ret.reg = 1;
  main.code.push_back(ret);
  vm::FunctionEntry builtin;
  builtin.kind = vm::FunctionKind::Packed;
  builtin.name = "vm.builtin.copy";
  exe.functions = {main, builtin};
  exe.exports = {0};
  return std::make_shared<const vm::Executable>(std::move(exe));
}

void BM_VmDispatch(benchmark::State& state) {
  runtime::Device* device = bench_device(TargetKind::Vulkan);
  if (device == nullptr) device = bench_device(TargetKind::Cuda);
  if (device == nullptr) {
    state.SkipWithError("no device");
    return;
  }
  auto exe = dispatch_executable();
  runtime::vm::VirtualMachine vm(exe, *device);
  std::vector<float> data(4, 1.0f);
  Value x = Value::tensor(vm.from_host(DType::Float(32), {4}, data.data()));
  for (auto _ : state) benchmark::DoNotOptimize(vm.call("main", {x}));
  const int64_t instructions = state.iterations() * instruction_count(*exe, "main");
  state.SetItemsProcessed(instructions);
  state.counters["time_per_instruction"] = benchmark::Counter(
      static_cast<double>(instructions), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

std::string read_example() {
  std::ifstream in(std::string(RELAXC_SOURCE_DIR) + "/examples/mlp.py");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void BM_VmMlp(benchmark::State& state, TargetKind kind) {
  runtime::Device* device = bench_device(kind);
  if (device == nullptr) {
    state.SkipWithError("no device of this kind");
    return;
  }
  const int64_t n = state.range(0);
  auto exe = build_for(read_example(), *device, kind);
  runtime::vm::VirtualMachine vm(exe, *device);
  std::vector<float> images(static_cast<size_t>(n * 64), 0.5f), w(64 * 32, 0.25f), b(32, 1.0f);
  std::vector<Value> args = {
      Value::tensor(vm.from_host(DType::Float(32), {n, 8, 8}, images.data())),
      Value::tensor(vm.from_host(DType::Float(32), {64, 32}, w.data())),
      Value::tensor(vm.from_host(DType::Float(32), {32}, b.data()))};
  vm.call("main", args);  // warm-up: kernels loaded, pool filled
  device->synchronize();
  int64_t fresh_before = vm.device_pool().stats().fresh_allocations;
  int64_t reuses_before = vm.device_pool().stats().reuses;
  for (auto _ : state) {
    benchmark::DoNotOptimize(vm.call("main", args));
    device->synchronize();
  }
  state.counters["fresh_allocations_per_call"] = benchmark::Counter(
      static_cast<double>(vm.device_pool().stats().fresh_allocations - fresh_before) /
      static_cast<double>(state.iterations()));
  // Driver allocations of the whole run, warm-up included (the pool's blocks), and the
  // storage requests per call that the pool served from them.
  state.counters["device_allocations"] =
      static_cast<double>(vm.device_pool().stats().fresh_allocations);
  state.counters["pool_requests_per_call"] =
      benchmark::Counter(static_cast<double>(vm.device_pool().stats().reuses - reuses_before) /
                         static_cast<double>(state.iterations()));
  state.counters["FLOP/s"] = benchmark::Counter(
      2.0 * static_cast<double>(n) * 64 * 32 * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

// main(x, w): x = x @ w, 100 times; the matmuls stay apart (no epilogue to fuse).
std::string hundred_kernels_module() {
  std::ostringstream s;
  s << "@I.ir_module\nclass Module:\n    @R.function\n"
       "    def main(x: R.Tensor((4, 16), \"float32\"), w: R.Tensor((16, 16), \"float32\"))"
       " -> R.Tensor((4, 16), \"float32\"):\n"
       "        with R.dataflow():\n            y0 = x\n";
  for (int i = 0; i < 100; ++i) s << "            y" << i + 1 << " = R.matmul(y" << i << ", w)\n";
  s << "            R.output(y100)\n        return y100\n";
  return s.str();
}

// Replay on `kind`: Vulkan's kept command buffers, CUDA's graphs.
void BM_VmHundredKernels(benchmark::State& state, TargetKind kind, bool replay) {
  static auto open = [](TargetKind device_kind,
                        bool with_replay) -> std::unique_ptr<runtime::Device> {
    try {
      if (device_kind == TargetKind::Cuda) {
        runtime::CudaOptions options;
        options.replay = with_replay;
        return runtime::open_cuda_device(options);
      }
      runtime::VulkanOptions options;
      options.replay = with_replay;
      return runtime::open_vulkan_device(options);
    } catch (const runtime::RuntimeError&) {
      return nullptr;
    }
  };
  static std::unique_ptr<runtime::Device> devices[2][2] = {
      {open(TargetKind::Vulkan, false), open(TargetKind::Vulkan, true)},
      {open(TargetKind::Cuda, false), open(TargetKind::Cuda, true)}};
  runtime::Device* device = devices[kind == TargetKind::Cuda ? 1 : 0][replay ? 1 : 0].get();
  if (device == nullptr) {
    state.SkipWithError(kind == TargetKind::Cuda ? "no CUDA device" : "no Vulkan device");
    return;
  }
  auto exe = build_for(hundred_kernels_module(), *device, kind);
  runtime::vm::VirtualMachine vm(exe, *device);
  std::vector<float> x(4 * 16, 0.5f), w(16 * 16, 1.0f / 16);
  std::vector<Value> args = {Value::tensor(vm.from_host(DType::Float(32), {4, 16}, x.data())),
                             Value::tensor(vm.from_host(DType::Float(32), {16, 16}, w.data()))};
  for (int i = 0; i < 2; ++i) {  // warm-up: kernels loaded, pool filled, runs recorded
    vm.call("main", args);
    device->synchronize();
  }
  runtime::LaunchStats before = device->launch_stats();
  double host_seconds = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    Value y = vm.call("main", args);
    host_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    device->synchronize();
  }
  runtime::LaunchStats after = device->launch_stats();
  auto iterations = static_cast<double>(state.iterations());
  state.counters["host_us_per_call"] = 1e6 * host_seconds / iterations;
  state.counters["replayed_per_call"] =
      static_cast<double>(after.replayed - before.replayed) / iterations;
  state.counters["launches_per_call"] =
      static_cast<double>(after.replayed - before.replayed + after.recorded - before.recorded) /
      iterations;
}

BENCHMARK(BM_VmDispatch);
BENCHMARK_CAPTURE(BM_VmHundredKernels, vulkan_replay, TargetKind::Vulkan, true)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmHundredKernels, vulkan_no_replay, TargetKind::Vulkan, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmHundredKernels, cuda_replay, TargetKind::Cuda, true)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmHundredKernels, cuda_no_replay, TargetKind::Cuda, false)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmInterpreter, vulkan, TargetKind::Vulkan)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmInterpreter, cuda, TargetKind::Cuda)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmMlp, vulkan, TargetKind::Vulkan)->Arg(1)->Arg(64)->Arg(1024)->UseRealTime();
BENCHMARK_CAPTURE(BM_VmMlp, cuda, TargetKind::Cuda)->Arg(1)->Arg(64)->Arg(1024)->UseRealTime();

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
