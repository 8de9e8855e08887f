// Benchmarks of operators built through the whole pipeline (legalize-ops, fusion, the
// default GPU schedule's rules, the back end) and run by the VM on each device present:
// SGEMM as FLOP/s, the memory-bound kernels (a copy, an elementwise chain, softmax,
// layer_norm, rms_norm) as bytes/s of compulsory traffic (each input read once, each output
// written once), so that a memory-bound kernel reads as a fraction of the copy's rate.
// The elementwise chain also runs with fusion disabled, to show what fusion saves.
// Time per iteration is one VM call with the host waiting for the device; inputs stay on
// the device. Sizes are 256, 1024 and 4096 squared; on lavapipe (a CPU) run the small one
// (--benchmark_filter=/256/), where the large ones take minutes.
// SGEMM on CUDA runs beside cuBLAS's SGEMM at the same sizes (BM_Sgemm/cublas, default
// math mode: no TF32), which the benchmark alone opens with dlopen (libcublas.so.13, .12,
// .11, or the path in RELAXC_CUBLAS); where none opens, that case skips.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/bench_device.h"
#include "driver/build.h"
#include "driver/compile.h"
#include "ir/text/parser.h"
#include "runtime/cuda/cuda_loader.h"
#include "runtime/open_device.h"
#include "runtime/vm/vm.h"

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

struct OpCase {
  std::string params;  // the parameters of main, as TVMScript
  std::string body;    // its dataflow block, ending in `out = ...`
  std::vector<std::vector<int64_t>> inputs;
  double flops = 0;
  double bytes = 0;  // compulsory traffic
};

std::string module_text(const OpCase& op) {
  return "@I.ir_module\nclass Module:\n    @R.function\n    def main(" + op.params +
         "):\n        with R.dataflow():\n" + op.body + "            R.output(out)\n" +
         "        return out\n";
}

std::string tensor(int64_t rows, int64_t cols) {
  return "R.Tensor((" + std::to_string(rows) + ", " + std::to_string(cols) + "), \"float32\")";
}

void run_op(benchmark::State& state, TargetKind kind, const OpCase& op,
            const std::set<std::string>& disabled = {}) {
  runtime::Device* device = bench_device(kind);
  if (device == nullptr) {
    state.SkipWithError("no device of this kind");
    return;
  }
  IRModule module = text::parse_module(module_text(op), "ops_bench.py");
  Target target = driver::target_from_device(device->limits(), kind);
  PipelineOptions options;
  options.disabled = disabled;
  auto exe =
      std::make_shared<const runtime::vm::Executable>(driver::build(module, {target}, options));
  runtime::vm::VirtualMachine vm(exe, *device);
  std::vector<Value> args;
  for (const std::vector<int64_t>& shape : op.inputs) {
    int64_t count = 1;
    for (int64_t d : shape) count *= d;
    std::vector<float> data(static_cast<size_t>(count));
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<float>(i % 17) * 0.0625f;
    args.push_back(Value::tensor(vm.from_host(DType::Float(32), shape, data.data())));
  }
  // The warm-up call loads the kernels and fills the storage pool.
  time_launches(
      state, *device, [&] { benchmark::DoNotOptimize(vm.call("main", args)); }, op.flops, op.bytes);
}

void BM_Sgemm(benchmark::State& state, TargetKind kind) {
  const int64_t n = state.range(0);
  OpCase op{"a: " + tensor(n, n) + ", b: " + tensor(n, n),
            "            out = R.matmul(a, b, out_dtype=\"void\")\n",
            {{n, n}, {n, n}},
            2.0 * static_cast<double>(n * n * n),
            3.0 * 4 * static_cast<double>(n * n)};
  run_op(state, kind, op);
}

// cuBLAS's SGEMM entry points, resolved from the first library that opens; `missing` says
// why there are none.
struct Cublas {
  using Handle = void*;
  int (*create)(Handle*) = nullptr;
  int (*destroy)(Handle) = nullptr;
  int (*set_math_mode)(Handle, int) = nullptr;
  int (*sgemm)(Handle, int, int, int, int, int, const float*, const float*, int, const float*, int,
               const float*, float*, int) = nullptr;
  std::string missing;
};

const Cublas& cublas() {
  static const Cublas table = [] {
    Cublas t;
    std::vector<std::string> names;
    if (const char* path = std::getenv("RELAXC_CUBLAS")) names.emplace_back(path);
    for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so.11"}) {
      names.emplace_back(name);
    }
    void* library = nullptr;
    for (const std::string& name : names) {
      if ((library = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    }
    if (library == nullptr) {
      t.missing = "no libcublas opens (RELAXC_CUBLAS names one)";
      return t;
    }
    auto resolve = [&](auto& entry, const char* symbol) {
      entry = reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(library, symbol));
      if (entry == nullptr && t.missing.empty())
        t.missing = std::string("libcublas lacks ") + symbol;
    };
    resolve(t.create, "cublasCreate_v2");
    resolve(t.destroy, "cublasDestroy_v2");
    resolve(t.set_math_mode, "cublasSetMathMode");
    resolve(t.sgemm, "cublasSgemm_v2");
    return t;
  }();
  return table;
}

// cuBLAS SGEMM on n x n float32 matrices in device memory, on the primary context of
// device 0 (the one relaxc's CUDA device uses) and its legacy default stream.
void BM_SgemmCublas(benchmark::State& state) {
  const Cublas& blas = cublas();
  if (!blas.missing.empty()) return state.SkipWithError(blas.missing.c_str());
  if (bench_device(TargetKind::Cuda) == nullptr) return state.SkipWithError("no CUDA device");
  const runtime::CudaDriver& driver = runtime::cuda_driver();
  runtime::CUdevice ordinal = 0;
  driver.check(driver.cuDeviceGet(&ordinal, 0), "cuDeviceGet");
  runtime::CUcontext context = nullptr;
  driver.check(driver.cuDevicePrimaryCtxRetain(&context, ordinal), "cuDevicePrimaryCtxRetain");
  {
    runtime::ScopedCudaContext current(driver, context);
    const int n = static_cast<int>(state.range(0));
    const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
    std::vector<float> host(count);
    for (size_t i = 0; i < count; ++i) host[i] = static_cast<float>(i % 17) * 0.0625f;
    runtime::CUdeviceptr matrices[3] = {};
    for (runtime::CUdeviceptr& matrix : matrices) {
      driver.check(driver.cuMemAlloc(&matrix, count * sizeof(float)), "cuMemAlloc");
      driver.check(driver.cuMemcpyHtoDAsync(matrix, host.data(), count * sizeof(float), nullptr),
                   "cuMemcpyHtoDAsync");
    }
    Cublas::Handle handle = nullptr;
    if (blas.create(&handle) != 0 || blas.set_math_mode(handle, /*CUBLAS_DEFAULT_MATH*/ 0) != 0) {
      state.SkipWithError("cublasCreate failed");
    } else {
      const float one = 1.0f;
      const float zero = 0.0f;
      auto as_floats = [](runtime::CUdeviceptr p) { return reinterpret_cast<float*>(p); };
      int status = 0;
      time_calls(
          state,
          [&] {
            status |= blas.sgemm(handle, 0, 0, n, n, n, &one, as_floats(matrices[0]), n,
                                 as_floats(matrices[1]), n, &zero, as_floats(matrices[2]), n);
          },
          [&] { driver.check(driver.cuStreamSynchronize(nullptr), "cuStreamSynchronize"); },
          2.0 * n * static_cast<double>(count), 3.0 * 4 * static_cast<double>(count), "cuBLAS");
      if (status != 0) state.SkipWithError("cublasSgemm failed");
      blas.destroy(handle);
    }
    for (runtime::CUdeviceptr matrix : matrices) driver.cuMemFree(matrix);
  }
  driver.cuDevicePrimaryCtxRelease(ordinal);
}

// The memory-bound cases: rows x cols float32.
OpCase memory_bound_case(const std::string& name, int64_t rows, int64_t cols) {
  const double elements = static_cast<double>(rows * cols);
  const std::string x = "x: " + tensor(rows, cols);
  const std::string row_param = "R.Tensor((" + std::to_string(cols) + ",), \"float32\")";
  if (name == "copy") {
    return {x,
            "            out = R.multiply(x, R.const(1.0, \"float32\"))\n",
            {{rows, cols}},
            elements,
            8 * elements};
  }
  if (name == "chain") {  // relu(x * y + x) * 0.5: three inputs' worth of ops, one kernel
    return {x + ", y: " + tensor(rows, cols),
            "            t = R.add(R.multiply(x, y), x)\n"
            "            out = R.multiply(R.nn.relu(t), R.const(0.5, \"float32\"))\n",
            {{rows, cols}, {rows, cols}},
            4 * elements,
            12 * elements};
  }
  if (name == "softmax") {
    return {x,
            "            out = R.nn.softmax(x, axis=-1)\n",
            {{rows, cols}},
            5 * elements,
            8 * elements};
  }
  if (name == "layer_norm") {
    return {x + ", g: " + row_param + ", b: " + row_param,
            "            out = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-05, center=True, "
            "scale=True)\n",
            {{rows, cols}, {cols}, {cols}},
            8 * elements,
            8 * elements};
  }
  // rms_norm
  return {x + ", w: " + row_param,
          "            out = R.nn.rms_norm(x, w, axes=[-1], epsilon=1e-05)\n",
          {{rows, cols}, {cols}},
          5 * elements,
          8 * elements};
}

void BM_MemoryBound(benchmark::State& state, TargetKind kind, const std::string& name, bool fused) {
  const int64_t n = state.range(0);
  std::set<std::string> disabled;
  if (!fused) disabled = {"fuse-ops", "fuse-tir"};
  run_op(state, kind, memory_bound_case(name, n, n), disabled);
}

void sizes(benchmark::internal::Benchmark* b) {
  b->Arg(256)->Arg(1024)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
}

void sgemm_sizes(benchmark::internal::Benchmark* b) {
  b->Arg(256)->Arg(1024)->Arg(2048)->Arg(4096)->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK_CAPTURE(BM_Sgemm, vulkan, TargetKind::Vulkan)->Apply(sgemm_sizes);
BENCHMARK_CAPTURE(BM_Sgemm, cuda, TargetKind::Cuda)->Apply(sgemm_sizes);
BENCHMARK(BM_SgemmCublas)->Name("BM_Sgemm/cublas")->Apply(sgemm_sizes);
#define RELAXC_MEMORY_BOUND(name)                                                                  \
  BENCHMARK_CAPTURE(BM_MemoryBound, name##_vulkan, TargetKind::Vulkan, #name, true)->Apply(sizes); \
  BENCHMARK_CAPTURE(BM_MemoryBound, name##_cuda, TargetKind::Cuda, #name, true)->Apply(sizes)
RELAXC_MEMORY_BOUND(copy);
RELAXC_MEMORY_BOUND(chain);
RELAXC_MEMORY_BOUND(softmax);
RELAXC_MEMORY_BOUND(layer_norm);
RELAXC_MEMORY_BOUND(rms_norm);
#undef RELAXC_MEMORY_BOUND
BENCHMARK_CAPTURE(BM_MemoryBound, chain_unfused_vulkan, TargetKind::Vulkan, "chain", false)
    ->Apply(sizes);
BENCHMARK_CAPTURE(BM_MemoryBound, chain_unfused_cuda, TargetKind::Cuda, "chain", false)
    ->Apply(sizes);

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
