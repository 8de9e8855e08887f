// Tests of what is particular to the CUDA device. Without an NVIDIA driver (here and in
// CI) the loader's errors and the PTX scan are tested, and the device tests skip; on a
// machine with a GPU they check limits, kernels per block size, the PTX and JIT errors,
// event timing and device choice. What every device does (transfers, launches, the ABI
// errors) is tested in device_conformance_test.cc. That this binary starts at all shows
// that the runtime does not need libcuda to load.
#include "runtime/cuda/cuda_device.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_kernels.h"
#include "runtime/cuda/cuda_loader.h"
#include "tests/support/errors.h"
#include "tests/support/hand_written_kernels.h"

namespace relaxc::runtime {
namespace {

using relaxc::testing::kIota64Ptx;
using relaxc::testing::kVectorAddPtx;
using relaxc::testing::run_vector_add;

// Uses a register it never declares: the JIT compiler rejects it.
constexpr const char* kBroken = R"(
.version 7.0
.target sm_52
.address_size 64

.visible .entry broken(
	.param .u64 broken_param_0
)
{
	.reg .b32 	%r<2>;
	mov.u32 	%r1, %tid.x;
	add.u32 	%r1, %r1, %r99;
	ret;
}
)";

KernelBinary ptx_kernel(const std::string& name, const std::string& ptx, int num_buffers,
                        std::vector<ScalarType> scalars, uint32_t block = 64) {
  KernelBinary kernel;
  kernel.name = name;
  kernel.format = KernelFormat::Ptx;
  kernel.code.assign(ptx.begin(), ptx.end());
  kernel.block_size = {block, 1, 1};
  kernel.num_buffers = num_buffers;
  kernel.scalars = std::move(scalars);
  return kernel;
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// Sets an environment variable for the scope, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// ---- Without a driver: the loader --------------------------------------------------

TEST(CudaLoaderTest, MissingLibraryIsAClearError) {
  const char* names[] = {"libcuda-relaxc-test-missing.so.1"};
  std::string message = runtime_error_of([&] { load_cuda_driver(names); });
  EXPECT_TRUE(contains(message,
                       "CUDA is not available: libcuda-relaxc-test-missing.so.1 not "
                       "found (install the NVIDIA driver"));
}

TEST(CudaLoaderTest, StubLibraryFailsAtCuInitWithItsName) {
  std::string stub;
  for (const char* path : {"/usr/local/cuda/lib64/stubs/libcuda.so",
                           "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"}) {
    if (std::filesystem::exists(path)) stub = path;
  }
  if (stub.empty()) GTEST_SKIP() << "no CUDA toolkit stub library here";
  // The stub exports every function of the table, so resolution succeeds; cuInit fails.
  const char* names[] = {stub.c_str()};
  std::string message = runtime_error_of([&] { load_cuda_driver(names); });
  EXPECT_TRUE(contains(message, "CUDA is not available: cuInit failed: CUDA_ERROR_STUB_LIBRARY"));
  EXPECT_TRUE(contains(message, "not the NVIDIA driver's libcuda"));
  EXPECT_TRUE(contains(message, stub));
}

TEST(CudaDeviceTest, UnavailableWithoutDriver) {
  for (const char* name : {"libcuda.so.1", "libcuda.so"}) {
    if (void* library = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
      dlclose(library);
      GTEST_SKIP() << name << " is present";
    }
  }
  const std::string expected =
      "CUDA is not available: libcuda.so.1 not found (install the NVIDIA driver";
  EXPECT_TRUE(contains(runtime_error_of([] { list_cuda_devices(); }), expected));
  EXPECT_TRUE(contains(runtime_error_of([] { open_cuda_device(); }), expected));
  // The same answer the second time: the failed load is remembered, not retried.
  EXPECT_TRUE(contains(runtime_error_of([] { open_cuda_device({.device = 0}); }), expected));
}

// ---- Without a driver: the PTX scan -----------------------------------------------

TEST(PtxScanTest, FindsEntriesAndParameterSizes) {
  std::vector<PtxEntry> entries = scan_ptx_entries(kVectorAddPtx);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "vector_add");
  ASSERT_TRUE(entries[0].param_sizes.has_value());
  EXPECT_EQ(*entries[0].param_sizes, (std::vector<size_t>{8, 8, 8, 4}));

  entries = scan_ptx_entries(kIota64Ptx);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(*entries[0].param_sizes, (std::vector<size_t>{8, 4, 8}));
}

TEST(PtxScanTest, ReadsLlvmStyleDeclarationsAndSkipsComments) {
  const char* ptx = R"(
// .visible .entry commented_out(.param .u32 x)
/* .entry also_commented( */
.visible .entry first(
	.param .u64 .ptr .global .align 1 first_param_0,
	.param .align 8 .b8 first_param_1[16],
	.param .s64 first_param_2
)
.maxntid 128, 1, 1
{ ret; }
.entry second
{ ret; }
.visible .entry third()
{ ret; }
)";
  std::vector<PtxEntry> entries = scan_ptx_entries(ptx);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "first");
  EXPECT_EQ(*entries[0].param_sizes, (std::vector<size_t>{8, 16, 8}));
  EXPECT_EQ(entries[1].name, "second");
  EXPECT_EQ(*entries[1].param_sizes, std::vector<size_t>{});
  EXPECT_EQ(entries[2].name, "third");
  EXPECT_EQ(*entries[2].param_sizes, std::vector<size_t>{});
}

TEST(PtxScanTest, UnknownParameterTypeLeavesSizesUnknown) {
  std::vector<PtxEntry> entries =
      scan_ptx_entries(".entry k(.param .texref t, .param .u32 n)\n{ ret; }");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "k");
  EXPECT_FALSE(entries[0].param_sizes.has_value());
  EXPECT_TRUE(scan_ptx_entries("not ptx at all").empty());
}

// ---- On a GPU: the device ---------------------------------------------------------

// The process's CUDA device, or nullptr with `why_not` set when there is none.
CudaDevice* test_device(std::string* why_not) {
  static std::string error;
  static std::unique_ptr<CudaDevice> device = [&]() -> std::unique_ptr<CudaDevice> {
    try {
      if (list_cuda_devices().empty()) {
        error = "the driver reports no CUDA device";
        return nullptr;
      }
      return open_cuda_device({.device = 0});
    } catch (const RuntimeError& e) {
      error = e.what();
      return nullptr;
    }
  }();
  *why_not = error;
  return device.get();
}

class CudaGpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    device_ = test_device(&why_not);
    if (device_ == nullptr) GTEST_SKIP() << "no CUDA device: " << why_not;
  }
  CudaDevice& device() { return *device_; }

  CudaDevice* device_ = nullptr;
};

TEST_F(CudaGpuTest, LimitsComeFromTheDriver) {
  const DeviceLimits& limits = device().limits();
  EXPECT_FALSE(limits.name.empty());
  EXPECT_FALSE(limits.is_cpu);
  EXPECT_EQ(limits.subgroup_size, 32);
  EXPECT_GE(limits.max_threads_per_block, 1024);
  EXPECT_GE(limits.max_block_size[0], 1024);
  EXPECT_GE(limits.max_grid_size[0], 65535);
  EXPECT_GE(limits.max_shared_memory_bytes, 48 * 1024);
  EXPECT_GE(limits.compute_capability, 50);
  EXPECT_EQ(limits.supports_fp16, limits.compute_capability >= 53);
  EXPECT_TRUE(limits.supports_int64);
  EXPECT_GE(limits.api_version_major, 11);
  std::vector<DeviceLimits> all = list_cuda_devices();
  ASSERT_FALSE(all.empty());
  EXPECT_EQ(all[0].name, limits.name);
}

TEST_F(CudaGpuTest, LoadingTwiceReturnsTheSameKernel) {
  KernelBinary binary = ptx_kernel("vector_add", kVectorAddPtx, 3, {ScalarType::Int32});
  KernelId first = device().load_kernel(binary);
  EXPECT_EQ(device().load_kernel(binary), first);
  binary.block_size = {128, 1, 1};  // another ABI of the same module: another kernel
  KernelId wider = device().load_kernel(binary);
  EXPECT_NE(wider, first);
  std::vector<float> a(300, 1.5f), b(300, 2.25f);
  std::vector<float> c = run_vector_add(device(), wider, a, b);  // 64-wide grid, 128-wide blocks
  for (float value : c) ASSERT_EQ(value, 3.75f);
}

TEST_F(CudaGpuTest, LoadErrorsNameTheKernelAndTheCause) {
  EXPECT_TRUE(
      contains(runtime_error_of([&] { device().load_kernel(ptx_kernel("empty", "", 0, {})); }),
               "kernel 'empty': the PTX text is empty"));

  std::string broken =
      runtime_error_of([&] { device().load_kernel(ptx_kernel("broken", kBroken, 1, {})); });
  EXPECT_TRUE(contains(broken, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"));
  EXPECT_TRUE(contains(broken, "while loading kernel 'broken': "));
  EXPECT_TRUE(contains(broken, "%r99"));  // from the JIT compiler's log

  EXPECT_TRUE(
      contains(runtime_error_of(
                   [&] { device().load_kernel(ptx_kernel("vector_sub", kVectorAddPtx, 3, {})); }),
               "kernel 'vector_sub': the PTX module has no .entry named 'vector_sub' (it has "
               "'vector_add')"));

  EXPECT_TRUE(contains(runtime_error_of([&] {
                         device().load_kernel(ptx_kernel("vector_add", kVectorAddPtx, 2, {}));
                       }),
                       "kernel 'vector_add': the PTX entry takes 4 parameter(s), but its ABI has "
                       "2 buffer(s) and 0 scalar(s)"));
  EXPECT_TRUE(contains(
      runtime_error_of([&] {
        device().load_kernel(ptx_kernel("vector_add", kVectorAddPtx, 3, {ScalarType::Int64}));
      }),
      "PTX parameter 3 is 4 bytes, but the ABI passes scalar argument 0 (int64) there"));

  uint32_t too_many = static_cast<uint32_t>(device().limits().max_threads_per_block) * 2;
  EXPECT_TRUE(contains(runtime_error_of([&] {
                         device().load_kernel(ptx_kernel("vector_add", kVectorAddPtx, 3,
                                                         {ScalarType::Int32}, too_many));
                       }),
                       "kernel 'vector_add' on \"" + device().limits().name + "\": block size"));
}

TEST_F(CudaGpuTest, TimesEnqueuedWorkWithEvents) {
  KernelId kernel =
      device().load_kernel(ptx_kernel("vector_add", kVectorAddPtx, 3, {ScalarType::Int32}));
  const int64_t n = 1 << 20;
  DeviceBuffer a = device().allocate(n * 4), b = device().allocate(n * 4),
               c = device().allocate(n * 4);
  DeviceBuffer args[] = {a, b, c};
  double ms = device().time_ms([&] {
    for (int i = 0; i < 10; ++i) device().launch(kernel, {n / 64, 1, 1}, args, {&n, 1});
  });
  EXPECT_GT(ms, 0.0);
  for (DeviceBuffer buffer : args) device().release(buffer);
}

TEST_F(CudaGpuTest, DeviceOrdinalComesFromTheEnvironment) {
  int count = static_cast<int>(list_cuda_devices().size());
  {
    ScopedEnv env("RELAXC_CUDA_DEVICE", std::to_string(count).c_str());
    EXPECT_TRUE(contains(runtime_error_of([] { open_cuda_device(); }),
                         "RELAXC_CUDA_DEVICE=" + std::to_string(count) +
                             " is out of range: the driver reports " + std::to_string(count) +
                             " CUDA device(s): 0 \""));
  }
  {
    ScopedEnv env("RELAXC_CUDA_DEVICE", "gpu0");
    EXPECT_TRUE(contains(runtime_error_of([] { open_cuda_device(); }),
                         "RELAXC_CUDA_DEVICE=gpu0 is not a device ordinal; expected an integer "
                         "from 0 to "));
  }
  EXPECT_TRUE(contains(runtime_error_of([&] { open_cuda_device({.device = count + 3}); }),
                       "CudaOptions::device=" + std::to_string(count + 3) + " is out of range"));
  ScopedEnv env("RELAXC_CUDA_DEVICE", "0");
  std::unique_ptr<CudaDevice> second = open_cuda_device();
  EXPECT_EQ(second->limits().name, device().limits().name);
}

}  // namespace
}  // namespace relaxc::runtime
