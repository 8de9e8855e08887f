// relaxc's kernels beside plain hand-written GLSL compute shaders (bench/glsl/, compiled
// by glslc at build time) for the same operations at the same sizes, on the Vulkan
// device: an elementwise chain, row softmax, layer_norm (long rows and rows of 32), SGEMM, GEMV, a
// column sum and a 3x3 conv2d and a depthwise one. relaxc's kernel is the one kernel function that
// its pipeline (the default GPU schedule's rules) makes of a one-operator Relax function, launched
// alone; the shader runs with the same inputs. Each pair is checked to agree before it is timed
// (tests/unit/glsl_shaders_test.cc checks small sizes in CI). Rates: FLOP/s, and bytes/s
// of compulsory traffic. Without glslc at configure time the GLSL benchmarks skip.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench/bench_device.h"
#include "tests/support/glsl_ops.h"

namespace relaxc {
namespace {

enum class Side { Relaxc, Glsl };

void BM_Op(benchmark::State& state, const std::string& shader, const std::vector<int64_t>& dims,
           Side side) {
  runtime::Device* device = bench_vulkan_device();
  if (device == nullptr) {
    state.SkipWithError("no Vulkan device");
    return;
  }
  if (testing::glsl_spirv_dir().empty()) {
    state.SkipWithError("glslc was not found when relaxc was configured: no GLSL shaders");
    return;
  }
  const testing::GlslOp op = testing::glsl_op(shader, dims);
  testing::GlslOpRun run(*device, op);
  run.launch_relaxc();
  run.launch_glsl();
  if (const double error = run.output_error(); error > 1) {
    state.SkipWithError(
        ("the shader's output differs from relaxc's (scaled error " + std::to_string(error) + ")")
            .c_str());
    return;
  }
  time_launches(
      state, *device, [&] { side == Side::Relaxc ? run.launch_relaxc() : run.launch_glsl(); },
      op.flops, op.bytes);
}

struct Case {
  std::string shader;
  std::vector<int64_t> dims;
};

// Registered as Glsl/<shader>/<dims>/relaxc and .../glsl; the smallest softmax is the
// smoke test's.
const bool registered = [] {
  const std::vector<Case> cases = {{"elementwise_chain", {4096, 1024}},
                                   {"softmax", {4096, 1024}},
                                   {"layer_norm", {4096, 1024}},
                                   {"short_layer_norm", {131072, 32}},
                                   {"column_sum", {4096, 1024}},
                                   {"sgemm", {512, 512, 512}},
                                   {"sgemm", {1024, 1024, 1024}},
                                   {"gemv", {4096, 4096}},
                                   {"conv2d", {1, 64, 56, 56, 64}},
                                   {"depthwise_conv2d", {1, 96, 56, 56}},
                                   {"depthwise_conv2d", {1, 32, 112, 112}},
                                   {"softmax", {64, 100}}};
  for (const Case& c : cases) {
    std::string name = "Glsl/" + c.shader + "/";
    for (size_t i = 0; i < c.dims.size(); ++i)
      name += (i == 0 ? "" : "x") + std::to_string(c.dims[i]);
    for (Side side : {Side::Relaxc, Side::Glsl}) {
      benchmark::RegisterBenchmark((name + (side == Side::Relaxc ? "/relaxc" : "/glsl")).c_str(),
                                   BM_Op, c.shader, c.dims, side)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  return true;
}();

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
