// The SPIR-V code generator's hand-written kernels run on Vulkan (lavapipe in CI, with
// the validation layer) and compared with CPU references computed here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "codegen/spirv/spirv_codegen.h"
#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "tests/support/device_harness.h"
#include "tests/support/host_array.h"
#include "tests/unit/spirv_test_kernels.h"

namespace relaxc::testing {
namespace {

// The target the device's limits and features describe.
Target target_of(const runtime::DeviceLimits& limits) {
  return driver::target_from_device(limits, TargetKind::Vulkan);
}

class SpirvRun : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    device_ = test_device(TargetKind::Vulkan, &why_not);
    if (device_ == nullptr) GTEST_SKIP() << "no Vulkan device: " << why_not;
    target_ = target_of(device_->limits());
    max_vulkan_version_ = target_.vulkan_version;
  }

  void TearDown() override {
    if (device_ == nullptr) return;
    // The device lives for the process: only the messages since the last test are new.
    static size_t seen_messages = 0;
    std::vector<std::string> messages = validation_messages(TargetKind::Vulkan);
    if (messages.size() > seen_messages) {
      ADD_FAILURE() << "validation layer: " << messages[seen_messages];
      seen_messages = messages.size();
    }
  }

  bool supports(DataType dtype) { return target_.supports(dtype); }

  // Compiles the kernel for each SPIR-V version the device takes (1.3, and 1.6 on Vulkan
  // 1.3), runs each on the same inputs, expects the same results from both, and leaves
  // them in `arrays`.
  void run(const tir::DeviceKernel& kernel, std::array<uint32_t, 3> grid,
           std::vector<HostArray*> arrays, std::vector<int64_t> scalars) {
    std::vector<HostArray> inputs;
    for (HostArray* array : arrays) inputs.push_back(*array);
    std::vector<HostArray> first_results;
    for (int version : {11, 13}) {
      if (version > max_vulkan_version_) continue;
      SCOPED_TRACE("Vulkan " + std::to_string(version));
      Target target = target_;
      target.vulkan_version = version;
      std::vector<HostArray> results = inputs;
      run_once(kernel, target, grid, results, scalars);
      if (first_results.empty()) {
        first_results = results;
        continue;
      }
      for (size_t i = 0; i < results.size(); ++i) {
        EXPECT_EQ(results[i].data, first_results[i].data) << "array " << i;
      }
    }
    for (size_t i = 0; i < arrays.size(); ++i) *arrays[i] = first_results[i];
  }

  void run_once(const tir::DeviceKernel& kernel, const Target& target, std::array<uint32_t, 3> grid,
                std::vector<HostArray>& arrays, const std::vector<int64_t>& scalars) {
    codegen::SpirvKernel spirv = codegen::codegen_spirv(kernel, target);
    ASSERT_EQ(codegen::validate_spirv(spirv.words, target.vulkan_version), "");
    runtime::KernelBinary binary;
    binary.name = spirv.entry_point;
    binary.code.resize(spirv.words.size() * 4);
    std::memcpy(binary.code.data(), spirv.words.data(), binary.code.size());
    for (int i = 0; i < 3; ++i) binary.block_size[i] = static_cast<uint32_t>(kernel.block_size[i]);
    binary.num_buffers = spirv.num_buffers;
    for (const tir::Var& param : kernel.func->params) {
      if (kernel.func->buffer_of(param).defined()) continue;
      binary.scalars.push_back(param->dtype.bits() == 64 ? runtime::ScalarType::Int64
                                                         : runtime::ScalarType::Int32);
    }
    binary.shared_memory_bytes = static_cast<uint32_t>(kernel.shared_memory_bytes);
    std::vector<runtime::DeviceBuffer> buffers;
    for (const HostArray& array : arrays) {
      std::vector<uint8_t> bytes = array.to_bytes();
      runtime::DeviceBuffer buffer = device_->allocate(std::max<size_t>(bytes.size(), 4));
      device_->upload(buffer, 0, bytes.data(), bytes.size());
      buffers.push_back(buffer);
    }
    runtime::KernelId id = device_->load_kernel(binary);
    device_->launch(id, grid, buffers, scalars);
    for (size_t i = 0; i < arrays.size(); ++i) {
      std::vector<uint8_t> bytes = arrays[i].to_bytes();
      device_->download(bytes.data(), buffers[i], 0, bytes.size());
      arrays[i].from_bytes(bytes);
      device_->release(buffers[i]);
    }
  }

  runtime::Device* device_ = nullptr;
  Target target_;
  int max_vulkan_version_ = 11;
};

uint32_t blocks(int64_t n, int64_t block) { return static_cast<uint32_t>((n + block - 1) / block); }

void expect_close(const HostArray& actual, const HostArray& expected, double atol, double rtol) {
  EXPECT_LE(max_scaled_error(actual, expected, atol, rtol), 1.0);
}

void expect_exact(const HostArray& actual, const HostArray& expected) {
  EXPECT_EQ(actual.data, expected.data);
}

TEST_F(SpirvRun, VectorAdd) {
  for (int64_t n : {1, 64, 1000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    HostArray a = random_array(DataType::Float(32), {n}, 1),
              b = random_array(DataType::Float(32), {n}, 2);
    HostArray c = zeros(DataType::Float(32), {n});
    HostArray expected = c;
    for (int64_t i = 0; i < n; ++i) expected.data[i] = static_cast<float>(a.data[i] + b.data[i]);
    run(kernel_named("vector_add", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b, &c}, {n});
    expect_exact(c, expected);
  }
}

TEST_F(SpirvRun, Transpose) {
  int64_t m = 37, n = 50;
  HostArray a = random_array(DataType::Float(32), {m * n}, 3);
  HostArray b = zeros(DataType::Float(32), {n * m});
  HostArray expected = b;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) expected.data[j * m + i] = a.data[i * n + j];
  }
  run(kernel_named("transpose", {16, 16, 1}), {blocks(n, 16), blocks(m, 16), 1}, {&a, &b}, {m, n});
  expect_exact(b, expected);
}

TEST_F(SpirvRun, MathChain) {
  int64_t n = 300;
  HostArray a = random_array(DataType::Float(32), {n}, 4, -4.0, 4.0);
  HostArray b = zeros(DataType::Float(32), {n});
  HostArray expected = b;
  for (int64_t i = 0; i < n; ++i) {
    double x = a.data[i];
    double sigmoid = 1.0 / (1.0 + std::exp(-std::tanh(std::exp(x))));
    expected.data[i] = std::erf(sigmoid) + std::log2(std::sqrt(std::fabs(x) + 1.0));
  }
  run(kernel_named("math_chain", {128, 1, 1}), {blocks(n, 128), 1, 1}, {&a, &b}, {n});
  expect_close(b, expected, 2e-6, 2e-5);
}

TEST_F(SpirvRun, ErfAndTanhAtTheExtremes) {
  // erf's polynomial keeps its absolute error below 5e-7 over the whole line, and tanh
  // stays finite where exp overflows.
  int64_t n = 64;
  HostArray a = zeros(DataType::Float(32), {n});
  for (int64_t i = 0; i < n; ++i) a.data[i] = static_cast<float>(-100.0 + i * (200.0 / (n - 1)));
  a.data[0] = 0.0;
  a.data[1] = 1e-3;
  a.data[2] = -0.5;
  HostArray b = zeros(DataType::Float(32), {n});
  HostArray expected = b;
  for (int64_t i = 0; i < n; ++i) {
    double x = a.data[i];
    double sigmoid = 1.0 / (1.0 + std::exp(-std::tanh(std::exp(x))));
    expected.data[i] = std::erf(sigmoid) + std::log2(std::sqrt(std::fabs(x) + 1.0));
  }
  run(kernel_named("math_chain", {128, 1, 1}), {1, 1, 1}, {&a, &b}, {n});
  for (double v : b.data) EXPECT_TRUE(std::isfinite(v));
  expect_close(b, expected, 2e-6, 2e-5);
}

TEST_F(SpirvRun, SharedMemoryRowSum) {
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1, 1}, {5, 300}, {3, 64}}) {
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols));
    HostArray a = random_array(DataType::Float(32), {rows * cols}, 5);
    HostArray s = zeros(DataType::Float(32), {rows});
    HostArray expected = s;
    for (int64_t r = 0; r < rows; ++r) {
      double sum = 0;
      for (int64_t c = 0; c < cols; ++c) sum += a.data[r * cols + c];
      expected.data[r] = sum;
    }
    tir::DeviceKernel kernel = kernel_named("row_sum", {64, 1, 1});
    kernel.shared_memory_bytes = 64 * 4;
    run(kernel, {static_cast<uint32_t>(rows), 1, 1}, {&a, &s}, {rows, cols});
    expect_close(s, expected, 1e-5, 1e-5);
  }
}

TEST_F(SpirvRun, MatmulWithLocalAccumulator) {
  int64_t m = 13, n = 17, k = 9;
  HostArray a = random_array(DataType::Float(32), {m * k}, 6);
  HostArray b = random_array(DataType::Float(32), {k * n}, 7);
  HostArray c = zeros(DataType::Float(32), {m * n});
  HostArray expected = c;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t p = 0; p < k; ++p) sum += a.data[i * k + p] * b.data[p * n + j];
      expected.data[i * n + j] = sum;
    }
  }
  run(kernel_named("matmul_local", {8, 8, 1}), {blocks(n, 8), blocks(m, 8), 1}, {&a, &b, &c},
      {m, n, k});
  expect_close(c, expected, 1e-5, 1e-5);
}

// Floor division rounds toward negative infinity; truncating division toward zero.
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a % b < 0) != (b < 0))) ? q - 1 : q;
}
int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

TEST_F(SpirvRun, IntegerArithmetic) {
  int64_t n = 100;
  HostArray a = random_array(DataType::Int(32), {n}, 8, -50, 50);
  a.data[0] = -7;
  a.data[1] = 7;
  a.data[2] = 0;
  a.data[3] = -1;
  HostArray b = zeros(DataType::Int(32), {n * 6});
  HostArray expected = b;
  for (int64_t i = 0; i < n; ++i) {
    int64_t x = static_cast<int64_t>(a.data[i]);
    expected.data[i * 6] = static_cast<double>(floor_div(x, 7));
    expected.data[i * 6 + 1] = static_cast<double>(floor_mod(x, 7));
    expected.data[i * 6 + 2] = static_cast<double>(x / -3);
    expected.data[i * 6 + 3] = static_cast<double>(x % -3);
    expected.data[i * 6 + 4] =
        static_cast<double>(std::min<int64_t>(x, 5) * std::max<int64_t>(x, -5) - floor_div(x, -4));
    expected.data[i * 6 + 5] = static_cast<double>(floor_mod(x, -4));
  }
  run(kernel_named("int_ops", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b}, {n});
  expect_exact(b, expected);
}

TEST_F(SpirvRun, Float16) {
  if (!supports(DataType::Float(16))) GTEST_SKIP() << "the device has no fp16";
  int64_t n = 130;
  HostArray a = random_array(DataType::Float(16), {n}, 9, -8, 8);
  HostArray b = zeros(DataType::Float(16), {n});
  HostArray expected = b;
  for (int64_t i = 0; i < n; ++i) {
    expected.data[i] = round_to_fp16(round_to_fp16(a.data[i] * 0.5) + 1.0);
  }
  run(kernel_named("fp16_scale", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b}, {n});
  expect_exact(b, expected);
}

TEST_F(SpirvRun, Int8) {
  if (!supports(DataType::Int(8))) GTEST_SKIP() << "the device has no int8";
  int64_t n = 70;
  HostArray a = random_array(DataType::Int(8), {n}, 10, -100, 100);
  HostArray b = zeros(DataType::Int(8), {n});
  HostArray c = zeros(DataType::Int(32), {n});
  HostArray expected_b = b, expected_c = c;
  for (int64_t i = 0; i < n; ++i) {
    expected_b.data[i] = a.data[i] + 1;
    expected_c.data[i] = a.data[i] * 3;
  }
  run(kernel_named("int8_add", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b, &c}, {n});
  expect_exact(b, expected_b);
  expect_exact(c, expected_c);
}

TEST_F(SpirvRun, Int64ScalarParam) {
  if (!supports(DataType::Int(64))) GTEST_SKIP() << "the device has no int64";
  int64_t m = 100, limit = 77;
  HostArray a = random_array(DataType::Float(32), {m}, 11);
  HostArray b = zeros(DataType::Float(32), {m});
  HostArray expected = b;
  for (int64_t i = 0; i < limit; ++i) expected.data[i] = a.data[i] * 2;
  run(kernel_named("int64_param", {64, 1, 1}), {blocks(m, 64), 1, 1}, {&a, &b}, {m, limit});
  expect_exact(b, expected);
}

TEST_F(SpirvRun, Int64Comparisons) {
  if (!supports(DataType::Int(64))) GTEST_SKIP() << "the device has no int64";
  HostArray a = zeros(DataType::Float(32), {128});
  HostArray expected = a;
  for (int64_t i = 0; i < 128; ++i) {
    expected.data[i] = (i < 64 ? 1 : 0) + (i >= 100 ? 2 : 0) + (i + 1 == 7 ? 4 : 0);
  }
  run(kernel_named("int64_compare", {128, 1, 1}), {1, 1, 1}, {&a}, {});
  expect_exact(a, expected);
}

TEST_F(SpirvRun, VectorizedLoops) {
  int64_t n = 70;
  HostArray a = random_array(DataType::Float(32), {n * 4}, 12);
  HostArray b = zeros(DataType::Float(32), {n * 4});
  HostArray expected = b;
  for (int64_t i = 0; i < n * 4; ++i) expected.data[i] = static_cast<float>(a.data[i] * 2 + 1);
  run(kernel_named("vectorized", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b}, {n});
  expect_exact(b, expected);

  HostArray a8 = random_array(DataType::Float(32), {n * 8}, 13);
  HostArray b8 = zeros(DataType::Float(32), {n * 8});
  HostArray expected8 = b8;
  for (int64_t i = 0; i < n * 8; i += 2) expected8.data[i] = static_cast<float>(a8.data[i] + 1);
  run(kernel_named("vectorized_strided", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a8, &b8}, {n});
  expect_exact(b8, expected8);
}

TEST_F(SpirvRun, RampStore) {
  HostArray a = random_array(DataType::Float(32), {64}, 14);
  HostArray b = zeros(DataType::Float(32), {64});
  HostArray expected = b;
  for (int64_t i = 0; i < 64; ++i) expected.data[i] = static_cast<float>(a.data[i] + 1);
  run(kernel_named("ramp_store", {16, 1, 1}), {1, 1, 1}, {&a, &b}, {});
  expect_exact(b, expected);
}

TEST_F(SpirvRun, NestedIfElse) {
  int64_t n = 90;
  HostArray a = random_array(DataType::Float(32), {n}, 15);
  HostArray b = zeros(DataType::Float(32), {n});
  HostArray expected = b;
  for (int64_t i = 0; i < n; ++i) {
    float x = static_cast<float>(a.data[i]), y = 0;
    for (int k = 0; k < 5; ++k) {
      if (x > 0) {
        y = k % 2 == 0 ? y + x : y - 1.0f;
      } else {
        y = y * 2.0f + 1.0f;
      }
    }
    expected.data[i] = y;
  }
  run(kernel_named("nested_if", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b}, {n});
  expect_close(b, expected, 1e-6, 1e-6);
}

TEST_F(SpirvRun, SelectCastsAndGuardedLoads) {
  int64_t n = 65;
  HostArray a = random_array(DataType::Float(32), {n}, 16, -2, 2);
  HostArray b = zeros(DataType::Float(32), {n * 3});
  HostArray expected = b;
  for (int64_t i = 0; i < n; ++i) {
    float x = static_cast<float>(a.data[i]);
    expected.data[i * 3] = x > 0 ? static_cast<float>(static_cast<int32_t>(x * 10.0f)) : -1.0f;
    expected.data[i * 3 + 1] = static_cast<float>(static_cast<uint32_t>(std::fabs(x) * 100.0f));
    float next = i + 1 < n ? static_cast<float>(a.data[i + 1]) : 0.0f;
    expected.data[i * 3 + 2] = next + (i % 2 == 0 ? 1.0f : 0.0f);
  }
  run(kernel_named("select_cast", {64, 1, 1}), {blocks(n, 64), 1, 1}, {&a, &b}, {n});
  expect_exact(b, expected);
}

TEST_F(SpirvRun, TwoPhasesThroughSharedMemory) {
  HostArray a = random_array(DataType::Float(32), {64}, 17);
  HostArray b = zeros(DataType::Float(32), {32});
  HostArray expected = b;
  for (int64_t i = 0; i < 32; ++i)
    expected.data[i] = static_cast<float>(4 * a.data[2 * i] + 4 * a.data[2 * i + 1]);
  tir::DeviceKernel kernel = kernel_named("two_phases", {64, 1, 1});
  kernel.shared_memory_bytes = 64 * 4;
  run(kernel, {1, 1, 1}, {&a, &b}, {});
  expect_close(b, expected, 1e-6, 1e-6);
}

}  // namespace
}  // namespace relaxc::testing
