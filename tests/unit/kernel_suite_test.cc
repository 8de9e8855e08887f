// The GPU kernel suite on every device present (Vulkan: lavapipe in CI; CUDA where an
// NVIDIA driver is): each kernel scheduled, lowered, compiled (SPIR-V, PTX) and run for
// several sizes against its CPU reference; plus the SPIR-V of every kernel validated for
// Vulkan 1.1 and 1.3, and the target-limit errors.
#include "tests/support/kernel_suite.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <tuple>

#include "codegen/spirv/spirv_codegen.h"
#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "passes/tir/lower_to_kernels.h"
#include "tests/support/device_harness.h"

namespace relaxc {
// Test parameters print as the device kind's name.
void PrintTo(TargetKind kind, std::ostream* os) { *os << testing::device_kind_name(kind); }
}  // namespace relaxc

namespace relaxc::testing {
namespace {

std::string size_string(const Sizes& sizes) {
  std::string s;
  for (const auto& [name, value] : sizes)
    s += (s.empty() ? "" : ", ") + name + "=" + std::to_string(value);
  return s;
}

// (device kind, kernel name)
using SuiteParam = std::tuple<TargetKind, std::string>;

class SuiteOnDevice : public ::testing::TestWithParam<SuiteParam> {};

TEST_P(SuiteOnDevice, MatchesCpuReference) {
  auto [kind, name] = GetParam();
  std::string why_not;
  runtime::Device* device = test_device(kind, &why_not);
  if (device == nullptr) GTEST_SKIP() << "no " << device_kind_name(kind) << " device: " << why_not;
  const SuiteKernel& kernel = suite_kernel(name);
  Target target = driver::target_from_device(device->limits(), kind);
  if (!target.supports(kernel.element_type)) {
    GTEST_SKIP() << device->limits().name << " does not support " << kernel.element_type.str();
  }
  codegen::CompiledPrimFunc compiled =
      driver::compile_prim_func(scheduled_kernel(kernel, target), kernel.name, target);
  uint64_t seed = 1;
  auto start = std::chrono::steady_clock::now();
  for (const Sizes& sizes : kernel.sizes) {
    SCOPED_TRACE(kernel.name + " with " + size_string(sizes));
    std::vector<HostArray> args = kernel.make_args(sizes, seed++);
    std::vector<HostArray> expected = args;
    kernel.reference(expected);
    std::vector<HostArray*> pointers;
    for (HostArray& a : args) pointers.push_back(&a);
    run_on_device(*device, compiled, pointers);
    for (int out : kernel.outputs) {
      EXPECT_LE(max_scaled_error(args[out], expected[out], kernel.atol, kernel.rtol), 1.0)
          << "output " << out << " differs from the CPU reference";
    }
  }
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // Rows of tests/gpu/run.sh's table.
  RecordProperty("kernel", kernel.name);
  RecordProperty("device", device_kind_name(kind) + ": " + device->limits().name);
  RecordProperty("time_ms", std::to_string(ms));
  std::vector<std::string> messages = validation_messages(kind);
  EXPECT_TRUE(messages.empty()) << "validation layer: " << messages.front();
}

std::vector<SuiteParam> suite_params() {
  std::vector<SuiteParam> params;
  for (TargetKind kind : {TargetKind::Vulkan, TargetKind::Cuda}) {
    for (const SuiteKernel& k : kernel_suite()) params.emplace_back(kind, k.name);
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(Kernels, SuiteOnDevice, ::testing::ValuesIn(suite_params()),
                         [](const ::testing::TestParamInfo<SuiteParam>& info) {
                           return device_kind_name(std::get<0>(info.param)) + "_" +
                                  std::get<1>(info.param);
                         });

// Every kernel's SPIR-V validates for each Vulkan environment and profile that has
// what it needs.
TEST(SuiteSpirv, ValidatesForVulkan11And13) {
  for (const char* target_text : {"vulkan -profile=desktop", "vulkan -profile=desktop -version=1.3",
                                  "vulkan -profile=mobile"}) {
    Target target = parse_target(target_text);
    for (const SuiteKernel& kernel : kernel_suite()) {
      if (!target.supports(kernel.element_type)) continue;
      SCOPED_TRACE(kernel.name + " for " + target_text);
      tir::LoweredFunc lowered =
          tir::lower_to_kernels(scheduled_kernel(kernel, target), kernel.name, target);
      ASSERT_FALSE(lowered.launches.empty());
      for (const tir::KernelLaunch& launch : lowered.launches) {
        codegen::SpirvKernel spirv = codegen::codegen_spirv(launch.kernel, target);
        EXPECT_EQ(codegen::validate_spirv(spirv.words, target.vulkan_version), "");
        std::vector<uint32_t> optimized =
            codegen::optimize_spirv(spirv.words, target.vulkan_version);
        EXPECT_EQ(codegen::validate_spirv(optimized, target.vulkan_version), "");
        for (int axis = 0; axis < 3; ++axis) {
          EXPECT_EQ(spirv.workgroup_size[axis], launch.kernel.block_size[axis]);
        }
        int64_t threads =
            launch.kernel.block_size[0] * launch.kernel.block_size[1] * launch.kernel.block_size[2];
        EXPECT_LE(threads, target.max_threads_per_block);
        EXPECT_LE(launch.kernel.shared_memory_bytes, target.max_shared_memory_bytes);
      }
    }
  }
}

TEST(SuiteSpirv, Fp16OnTheMobileProfileIsRefused) {
  Target mobile = parse_target("vulkan -profile=mobile");
  const SuiteKernel& kernel = suite_kernel("scale_add_f16");
  try {
    driver::compile_prim_func(scheduled_kernel(kernel, mobile), kernel.name, mobile);
    FAIL() << "expected an error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("float16"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("mobile"), std::string::npos) << e.what();
  }
}

TEST(SuiteSpirv, TooManyThreadsPerBlockNamesTheLoop) {
  const SuiteKernel& kernel = suite_kernel("vector_add");
  IRModule mod = text::parse_module(kernel.source, "vector_add.py");
  tir::Schedule s(mod->prim_func("vector_add"));
  std::vector<tir::LoopRef> loops = s.get_loops(s.get_block("C"));
  std::vector<tir::LoopRef> parts =
      s.split(loops[0], {tir::PrimExpr(), tir::int_imm(DataType::Int(64), 4096)});
  s.bind(parts[0], "blockIdx.x");
  s.bind(parts[1], "threadIdx.x");
  Target desktop = parse_target("vulkan -profile=desktop");
  try {
    tir::lower_to_kernels(s.func(), "vector_add", desktop);
    FAIL() << "expected an error";
  } catch (const UserError& e) {
    std::string message = e.what();
    EXPECT_NE(message.find("'" + parts[1].var->name + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("4096"), std::string::npos) << message;
    EXPECT_NE(message.find("1024"), std::string::npos) << message;
  }
}

// The suite kernel `name`, scheduled and compiled for the Vulkan `device`.
codegen::CompiledPrimFunc compiled_for_vulkan(runtime::Device& device, const std::string& name) {
  const SuiteKernel& kernel = suite_kernel(name);
  Target target = driver::target_from_device(device.limits(), TargetKind::Vulkan);
  return driver::compile_prim_func(scheduled_kernel(kernel, target), kernel.name, target);
}

TEST(SuiteOnVulkanErrors, ShapeMismatchNamesBufferAndDimension) {
  std::string why_not;
  runtime::Device* device = test_device(TargetKind::Vulkan, &why_not);
  if (device == nullptr) GTEST_SKIP() << "no Vulkan device: " << why_not;
  codegen::CompiledPrimFunc compiled = compiled_for_vulkan(*device, "vector_add");
  HostArray a = zeros(DataType::Float(32), {8});
  HostArray b = zeros(DataType::Float(32), {9});
  HostArray c = zeros(DataType::Float(32), {8});
  try {
    run_on_device(*device, compiled, {&a, &b, &c});
    FAIL() << "expected an error";
  } catch (const runtime::RuntimeError& e) {
    EXPECT_STREQ(e.what(),
                 "kernel function 'vector_add': buffer 'B', dimension 0 is 9, expected 8 (the "
                 "tensor has shape (9,))");
  }
  // The device is still usable.
  HostArray c2 = zeros(DataType::Float(32), {8});
  HostArray b2 = random_array(DataType::Float(32), {8}, 3);
  HostArray a2 = random_array(DataType::Float(32), {8}, 4);
  run_on_device(*device, compiled, {&a2, &b2, &c2});
  for (int i = 0; i < 8; ++i) {
    EXPECT_FLOAT_EQ(static_cast<float>(c2.data[i]), static_cast<float>(a2.data[i] + b2.data[i]));
  }
}

// Kernels index in int32: a tensor of 2^31 elements is refused before any launch, naming
// the buffer (the device buffers here are small: the shapes are checked first).
TEST(SuiteOnVulkanErrors, TensorPastInt32IndexingIsRefused) {
  std::string why_not;
  runtime::Device* device = test_device(TargetKind::Vulkan, &why_not);
  if (device == nullptr) GTEST_SKIP() << "no Vulkan device: " << why_not;
  codegen::CompiledPrimFunc compiled = compiled_for_vulkan(*device, "vector_add");
  driver::PrimFuncLauncher launcher(*device, compiled);
  runtime::DeviceBuffer small = device->allocate(64);
  const std::vector<int64_t> huge = {int64_t{1} << 31};
  std::vector<driver::BufferArg> args(3, driver::BufferArg{small, huge});
  try {
    launcher.launch(args);
    FAIL() << "expected an error";
  } catch (const runtime::RuntimeError& e) {
    EXPECT_STREQ(e.what(),
                 "kernel function 'vector_add': buffer 'A' has 2147483648 elements (shape "
                 "(2147483648,)); kernels index a buffer in int32, up to 2147483647 elements");
  }
  device->release(small);
}

}  // namespace
}  // namespace relaxc::testing
