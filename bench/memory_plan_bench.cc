// Memory of the graph models (tests/lit/ops/graphs: an MLP, a conv block, a depthwise
// separable block, a transformer encoder block) with and without static-plan-block-memory,
// on the Vulkan device (lavapipe where there is no GPU). Each is built for the device with
// and without the pass and `main` called once on a fresh VM; counters:
// - peak_bytes: the device pool's peak of bytes in use during the call (tensors and
//   storages live at once, the inputs' uploads included);
// - reserved_bytes: what the pool holds from the driver afterwards (whole blocks).
// The planned peak and the liveness lower bound are in `relaxc inspect`'s memory plan.
#include <benchmark/benchmark.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench/bench_device.h"
#include "driver/build.h"
#include "driver/compile.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/parser.h"
#include "runtime/vm/storage_pool.h"
#include "runtime/vm/vm.h"

namespace relaxc {
namespace {

using runtime::DType;
using runtime::vm::Value;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// `file` (under tests/lit/ops/graphs) called with every symbolic dim set to `size`.
void BM_MemoryPlan(benchmark::State& state, const char* file, int64_t size, bool plan) {
  runtime::Device* device = bench_vulkan_device();
  if (device == nullptr) {
    state.SkipWithError("no Vulkan device");
    return;
  }
  const std::string path = std::string(RELAXC_SOURCE_DIR) + "/tests/lit/ops/graphs/" + file;
  IRModule module = text::parse_module(read_text(path), path);
  PipelineOptions options;
  if (!plan) options.disabled.insert("static-plan-block-memory");
  Target target = driver::target_from_device(device->limits(), TargetKind::Vulkan);
  auto exe =
      std::make_shared<const runtime::vm::Executable>(driver::build(module, {target}, options));
  std::vector<std::vector<int64_t>> shapes;
  for (const relax::Var& param : module->relax_function("main")->params) {
    std::vector<int64_t> shape;
    for (const tir::PrimExpr& dim :
         *relax::known_dims(*param->struct_info.as<relax::TensorStructInfoNode>())) {
      const int64_t* value = tir::as_const_int(dim);
      shape.push_back(value != nullptr ? *value : size);
    }
    shapes.push_back(shape);
  }
  runtime::vm::StoragePool::Stats stats;
  for (auto _ : state) {
    runtime::vm::VirtualMachine vm(exe, *device);
    std::vector<Value> args;
    for (const std::vector<int64_t>& shape : shapes) {
      int64_t count = 1;
      for (int64_t d : shape) count *= d;
      std::vector<float> data(static_cast<size_t>(count), 0.5f);
      args.push_back(Value::tensor(vm.from_host(DType::Float(32), shape, data.data())));
    }
    Value out = vm.call("main", std::move(args));
    // Waits for the kernels: the result, or each tensor of a result tuple.
    for (const Value& v : out.kind() == Value::Kind::Tuple ? out.as_tuple() : std::vector{out}) {
      vm.to_host(v.as_tensor());
    }
    stats = vm.device_pool().stats();
  }
  state.counters["peak_bytes"] = static_cast<double>(stats.peak_bytes_in_use);
  state.counters["reserved_bytes"] = static_cast<double>(stats.bytes_reserved);
}

BENCHMARK_CAPTURE(BM_MemoryPlan, mlp_planned, "mlp.py", 64, true)->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, mlp_unplanned, "mlp.py", 64, false)->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, conv_block_planned, "conv_block.py", 8, true)->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, conv_block_unplanned, "conv_block.py", 8, false)->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, depthwise_planned, "depthwise_separable.py", 8, true)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, depthwise_unplanned, "depthwise_separable.py", 8, false)
    ->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, encoder_planned, "encoder_block.py", 67, true)->Iterations(1);
BENCHMARK_CAPTURE(BM_MemoryPlan, encoder_unplanned, "encoder_block.py", 67, false)->Iterations(1);

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
