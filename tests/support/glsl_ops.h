// The operations of the hand-written GLSL compute shaders in bench/glsl/ (compiled to
// SPIR-V by glslc at build time), each also as a one-operator Relax function that relaxc
// compiles through its whole pipeline (legalize-ops, fusion, the default GPU schedule's
// rules, the back end) to one kernel function: bench/glsl_bench.cc times the two side by
// side and tests/unit/glsl_shaders_test.cc checks that they agree.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "driver/prim_func_launcher.h"
#include "runtime/device.h"
#include "tests/support/device_harness.h"

namespace relaxc::testing {

struct GlslOp {
  std::string shader;                        // bench/glsl/<shader>.comp
  std::string relax_call;                    // the operator applied to the inputs x0, x1, ...
  std::vector<std::vector<int64_t>> inputs;  // float32, as is the output
  std::vector<int64_t> output;
  std::array<uint32_t, 3> block_size = {1, 1, 1};  // the shader's local size
  std::array<uint32_t, 3> grid = {1, 1, 1};        // its workgroups
  std::vector<int64_t> scalars;                    // its int32 push constants, in order
  double flops = 0;
  double bytes = 0;  // compulsory traffic: each input read once, the output written once
};

// The shaders' names: elementwise_chain, softmax, layer_norm, sgemm, gemv, column_sum,
// conv2d and depthwise_conv2d.
const std::vector<std::string>& glsl_shader_names();

// The operation of shader `name` at sizes `dims`: rows and cols for elementwise_chain,
// softmax, layer_norm and column_sum; m, n, k for sgemm; k, n for gemv (1 x k times
// k x n); batch, channels, height, width and output channels for conv2d; batch, channels,
// height and width for depthwise_conv2d.
GlslOp glsl_op(const std::string& name, const std::vector<int64_t>& dims);

// Where the build wrote the shaders' SPIR-V; empty when glslc was not found when the
// build was configured (the GLSL benchmark and its test skip then).
std::string glsl_spirv_dir();

// An operation's two kernels loaded on a device, relaxc's (the single kernel function of
// its Relax function) and the shader, sharing pseudo-random inputs; each writes its own
// output buffer. Needs glsl_spirv_dir() not empty.
class GlslOpRun {
 public:
  GlslOpRun(runtime::Device& device, const GlslOp& op);
  ~GlslOpRun();
  GlslOpRun(const GlslOpRun&) = delete;
  GlslOpRun& operator=(const GlslOpRun&) = delete;

  // Enqueue one launch; neither waits.
  void launch_relaxc();
  void launch_glsl();
  // The largest difference between the outputs as max_scaled_error scales it (<= 1:
  // they agree), after waiting for the launches.
  double output_error();

 private:
  HostArray download(size_t buffer) const;

  runtime::Device& device_;
  GlslOp op_;
  std::unique_ptr<codegen::CompiledPrimFunc> relaxc_kernel_;
  std::unique_ptr<driver::PrimFuncLauncher> relaxc_launcher_;
  runtime::KernelId glsl_kernel_ = 0;
  // The inputs, then relaxc's output, then the shader's.
  std::unique_ptr<DeviceArrays> arrays_;
};

}  // namespace relaxc::testing
