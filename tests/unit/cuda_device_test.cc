// Tests of the CUDA device. Without an NVIDIA driver (here and in CI) the loader's errors
// and the PTX scan are tested, and the device tests skip; on a machine with a GPU they
// check limits, transfers, launches of hand-written PTX kernels against CPU results, and
// the ABI, JIT and device-choice errors. That this binary starts at all shows that the
// runtime does not need libcuda to load.
#include "runtime/cuda/cuda_device.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_kernels.h"
#include "runtime/cuda/cuda_loader.h"

namespace relaxc::runtime {
namespace {

// c[i] = a[i] + b[i] for i < n: three buffers, then n as int32.
constexpr const char* kVectorAdd = R"(
.version 7.0
.target sm_52
.address_size 64

// c[i] = a[i] + b[i] for i < n
.visible .entry vector_add(
	.param .u64 vector_add_param_0,
	.param .u64 vector_add_param_1,
	.param .u64 vector_add_param_2,
	.param .u32 vector_add_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [vector_add_param_0];
	ld.param.u64 	%rd2, [vector_add_param_1];
	ld.param.u64 	%rd3, [vector_add_param_2];
	ld.param.u32 	%r1, [vector_add_param_3];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	setp.ge.s32 	%p1, %r5, %r1;
	@%p1 bra 	DONE;
	cvta.to.global.u64 	%rd4, %rd1;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd3;
	mul.wide.s32 	%rd7, %r5, 4;
	add.s64 	%rd8, %rd4, %rd7;
	add.s64 	%rd9, %rd5, %rd7;
	add.s64 	%rd10, %rd6, %rd7;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd9];
	add.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd10], %f3;
DONE:
	ret;
}
)";

// out[i] = start + i for i < n: one buffer, n as int32, then start as int64.
constexpr const char* kIota64 = R"(
.version 7.0
.target sm_52
.address_size 64

.visible .entry iota64(
	.param .u64 iota64_param_0,
	.param .u32 iota64_param_1,
	.param .u64 iota64_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [iota64_param_0];
	ld.param.u32 	%r1, [iota64_param_1];
	ld.param.u64 	%rd2, [iota64_param_2];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	setp.ge.s32 	%p1, %r5, %r1;
	@%p1 bra 	DONE;
	cvta.to.global.u64 	%rd3, %rd1;
	cvt.s64.s32 	%rd4, %r5;
	add.s64 	%rd5, %rd2, %rd4;
	shl.b64 	%rd6, %rd4, 3;
	add.s64 	%rd7, %rd3, %rd6;
	st.global.u64 	[%rd7], %rd5;
DONE:
	ret;
}
)";

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

// The message of the RuntimeError `body` throws (a test failure when it throws none).
template <typename F>
std::string error_of(F&& body) {
  try {
    body();
  } catch (const RuntimeError& error) {
    return error.what();
  }
  ADD_FAILURE() << "expected a RuntimeError";
  return "";
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
  std::string message = error_of([&] { load_cuda_driver(names); });
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
  std::string message = error_of([&] { load_cuda_driver(names); });
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
  EXPECT_TRUE(contains(error_of([] { list_cuda_devices(); }), expected));
  EXPECT_TRUE(contains(error_of([] { open_cuda_device(); }), expected));
  // The same answer the second time: the failed load is remembered, not retried.
  EXPECT_TRUE(contains(error_of([] { open_cuda_device({.device = 0}); }), expected));
}

// ---- Without a driver: the PTX scan -----------------------------------------------

TEST(PtxScanTest, FindsEntriesAndParameterSizes) {
  std::vector<PtxEntry> entries = scan_ptx_entries(kVectorAdd);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].name, "vector_add");
  ASSERT_TRUE(entries[0].param_sizes.has_value());
  EXPECT_EQ(*entries[0].param_sizes, (std::vector<size_t>{8, 8, 8, 4}));

  entries = scan_ptx_entries(kIota64);
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

  std::vector<float> run_vector_add(KernelId kernel, const std::vector<float>& a,
                                    const std::vector<float>& b) {
    size_t bytes = a.size() * sizeof(float);
    DeviceBuffer da = device().allocate(bytes), db = device().allocate(bytes),
                 dc = device().allocate(bytes);
    device().upload(da, 0, a.data(), bytes);
    device().upload(db, 0, b.data(), bytes);
    uint32_t blocks = static_cast<uint32_t>((a.size() + 63) / 64);
    DeviceBuffer args[] = {da, db, dc};
    int64_t n = static_cast<int64_t>(a.size());
    device().launch(kernel, {blocks, 1, 1}, args, {&n, 1});
    std::vector<float> c(a.size());
    device().download(c.data(), dc, 0, bytes);
    for (DeviceBuffer buffer : args) device().release(buffer);
    return c;
  }

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

TEST_F(CudaGpuTest, RoundTripsSmallAndLargeTransfers) {
  // 1 KiB goes directly; 21 MiB + 3 bytes goes through the pinned staging ring (more
  // pieces than it has slots, the last one partial).
  for (size_t bytes : {size_t{1024}, (size_t{21} << 20) + 3}) {
    std::vector<uint8_t> data(bytes);
    for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    DeviceBuffer buffer = device().allocate(bytes + 16);
    device().upload(buffer, 16, data.data(), bytes);
    std::vector<uint8_t> back(bytes, 0);
    device().download(back.data(), buffer, 16, bytes);
    EXPECT_EQ(back, data) << bytes << " bytes";
    // A piece from the middle, at an offset.
    std::vector<uint8_t> middle(100);
    device().download(middle.data(), buffer, 16 + bytes / 2, middle.size());
    EXPECT_TRUE(std::equal(middle.begin(), middle.end(), data.begin() + bytes / 2));
    device().release(buffer);
  }
}

TEST_F(CudaGpuTest, CopiesBetweenBuffers) {
  std::vector<int32_t> values(1000);
  std::iota(values.begin(), values.end(), -500);
  size_t bytes = values.size() * 4;
  DeviceBuffer a = device().allocate(bytes), b = device().allocate(bytes * 2);
  device().upload(a, 0, values.data(), bytes);
  device().copy(b, bytes, a, 0, bytes);
  device().copy(b, 0, b, bytes + 400, 400);  // within one buffer, not overlapping
  std::vector<int32_t> back(values.size() * 2);
  device().download(back.data(), b, 0, bytes * 2);
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(back[values.size() + i], values[i]);
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(back[i], values[100 + i]);
  device().release(a);
  device().release(b);
}

TEST_F(CudaGpuTest, TransferErrorsNameTheBufferAndRange) {
  DeviceBuffer buffer = device().allocate(64);
  std::vector<uint8_t> host(128);
  EXPECT_TRUE(contains(error_of([&] { device().upload(buffer, 32, host.data(), 64); }),
                       "upload: the range [32, 32 + 64) is outside buffer #"));
  EXPECT_TRUE(contains(error_of([&] { device().download(host.data(), buffer, 65, 0); }),
                       "download: the range [65, 65 + 0) is outside"));
  EXPECT_TRUE(contains(error_of([&] { device().copy(buffer, 8, buffer, 0, 16); }),
                       "copy: the source [0, 16) and destination [8, 24) overlap in buffer #"));
  EXPECT_TRUE(contains(error_of([&] { device().upload(buffer, 0, nullptr, 4); }),
                       "upload: the host source is null"));
  device().release(buffer);
  EXPECT_TRUE(contains(error_of([&] { device().release(buffer); }),
                       "was already released or never allocated"));
  EXPECT_TRUE(contains(
      error_of([&] { device().download(host.data(), buffer, 0, 4); }),
      "download: buffer #" + std::to_string(buffer.id) + " was released or never allocated"));
  // Empty buffers exist and transfer nothing.
  DeviceBuffer empty = device().allocate(0);
  device().upload(empty, 0, host.data(), 0);
  device().release(empty);
}

TEST_F(CudaGpuTest, VectorAddMatchesTheCpu) {
  KernelId kernel =
      device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int32}));
  std::vector<float> a(1000), b(1000);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 1000.0f - 3.0f * static_cast<float>(i);
  }
  std::vector<float> c = run_vector_add(kernel, a, b);
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "at " << i;
}

TEST_F(CudaGpuTest, Int32AndInt64ScalarsReachTheKernel) {
  KernelId kernel = device().load_kernel(
      ptx_kernel("iota64", kIota64, 1, {ScalarType::Int32, ScalarType::Int64}, 128));
  const int64_t n = 300, start = (int64_t{1} << 40) + 7;
  DeviceBuffer out = device().allocate(n * 8);
  std::vector<int64_t> zeros(n + 1, -1);
  device().upload(out, 0, zeros.data(), n * 8);
  int64_t scalars[] = {n - 1, start};  // the last element stays -1
  device().launch(kernel, {3, 1, 1}, {&out, 1}, scalars);
  std::vector<int64_t> back(n);
  device().download(back.data(), out, 0, n * 8);
  for (int64_t i = 0; i < n - 1; ++i) ASSERT_EQ(back[i], start + i) << "at " << i;
  EXPECT_EQ(back[n - 1], -1);
  device().release(out);
}

TEST_F(CudaGpuTest, LoadingTwiceReturnsTheSameKernel) {
  KernelBinary binary = ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int32});
  KernelId first = device().load_kernel(binary);
  EXPECT_EQ(device().load_kernel(binary), first);
  binary.block_size = {128, 1, 1};  // another ABI of the same module: another kernel
  KernelId wider = device().load_kernel(binary);
  EXPECT_NE(wider, first);
  std::vector<float> a(300, 1.5f), b(300, 2.25f);
  std::vector<float> c = run_vector_add(wider, a, b);  // 64-wide grid, 128-wide blocks
  for (float value : c) ASSERT_EQ(value, 3.75f);
}

TEST_F(CudaGpuTest, LaunchChecksTheAbi) {
  KernelId kernel =
      device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int32}));
  DeviceBuffer buffer = device().allocate(256);
  DeviceBuffer three[] = {buffer, buffer, buffer};
  int64_t n = 64;
  EXPECT_TRUE(contains(error_of([&] {
                         device().launch(kernel, {1, 1, 1}, {three, 2}, {&n, 1});
                       }),
                       "kernel 'vector_add' takes 3 buffer argument(s), but the launch passes 2"));
  EXPECT_TRUE(contains(error_of([&] {
                         device().launch(kernel, {1, 1, 1}, three, {});
                       }),
                       "kernel 'vector_add' takes 1 scalar argument(s), but the launch passes 0"));
  int64_t too_big = int64_t{1} << 33;
  EXPECT_TRUE(contains(error_of([&] {
                         device().launch(kernel, {1, 1, 1}, three, {&too_big, 1});
                       }),
                       "kernel 'vector_add': scalar argument 0 is int32 but its value 8589934592 "
                       "does not fit in int32"));
  uint32_t beyond = static_cast<uint32_t>(device().limits().max_grid_size[1]) + 1;
  EXPECT_TRUE(contains(error_of([&] {
                         device().launch(kernel, {1, beyond, 1}, three, {&n, 1});
                       }),
                       "kernel 'vector_add': grid (1, " + std::to_string(beyond) +
                           ", 1) has dimension 1 above the device's maximum"));
  EXPECT_TRUE(contains(error_of([&] {
                         device().launch(99, {1, 1, 1}, three, {&n, 1});
                       }),
                       "kernel id 99 was not returned by load_kernel"));
  // A zero grid launches nothing, after the same checks.
  device().launch(kernel, {0, 1, 1}, three, {&n, 1});
  device().release(buffer);
  EXPECT_TRUE(contains(error_of([&] {
                         device().launch(kernel, {1, 1, 1}, three, {&n, 1});
                       }),
                       "kernel 'vector_add': buffer argument 0 (buffer #" +
                           std::to_string(buffer.id) + ") was released or never allocated"));
  device().synchronize();
}

TEST_F(CudaGpuTest, LoadErrorsNameTheKernelAndTheCause) {
  KernelBinary spirv = ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int32});
  spirv.format = KernelFormat::SpirV;
  EXPECT_TRUE(contains(error_of([&] { device().load_kernel(spirv); }),
                       "kernel 'vector_add' is SPIR-V; the CUDA device runs PTX"));

  EXPECT_TRUE(contains(error_of([&] { device().load_kernel(ptx_kernel("empty", "", 0, {})); }),
                       "kernel 'empty': the PTX text is empty"));

  std::string broken =
      error_of([&] { device().load_kernel(ptx_kernel("broken", kBroken, 1, {})); });
  EXPECT_TRUE(contains(broken, "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX"));
  EXPECT_TRUE(contains(broken, "while loading kernel 'broken': "));
  EXPECT_TRUE(contains(broken, "%r99"));  // from the JIT compiler's log

  EXPECT_TRUE(
      contains(error_of([&] { device().load_kernel(ptx_kernel("vector_sub", kVectorAdd, 3, {})); }),
               "kernel 'vector_sub': the PTX module has no .entry named 'vector_sub' (it has "
               "'vector_add')"));

  EXPECT_TRUE(
      contains(error_of([&] { device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 2, {})); }),
               "kernel 'vector_add': the PTX entry takes 4 parameter(s), but its ABI has "
               "2 buffer(s) and 0 scalar(s)"));
  EXPECT_TRUE(
      contains(error_of([&] {
                 device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int64}));
               }),
               "PTX parameter 3 is 4 bytes, but the ABI passes scalar argument 0 (int64) there"));

  uint32_t too_many = static_cast<uint32_t>(device().limits().max_threads_per_block) * 2;
  EXPECT_TRUE(contains(error_of([&] {
                         device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 3,
                                                         {ScalarType::Int32}, too_many));
                       }),
                       "kernel 'vector_add' on \"" + device().limits().name + "\": block size"));
}

TEST_F(CudaGpuTest, ReleaseWhileTheKernelRunsIsDeferred) {
  KernelId kernel =
      device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int32}));
  const int64_t n = 1 << 22;
  size_t bytes = n * sizeof(float);
  for (int round = 0; round < 4; ++round) {
    DeviceBuffer a = device().allocate(bytes), b = device().allocate(bytes),
                 c = device().allocate(bytes);
    DeviceBuffer args[] = {a, b, c};
    for (int i = 0; i < 8; ++i) device().launch(kernel, {n / 64, 1, 1}, args, {&n, 1});
    // Released while the launches may still run: freed once they are done.
    for (DeviceBuffer buffer : args) device().release(buffer);
  }
  device().synchronize();
  std::vector<float> a(512, 2.0f), b(512, 0.125f);
  std::vector<float> c = run_vector_add(kernel, a, b);
  for (float value : c) ASSERT_EQ(value, 2.125f);
}

TEST_F(CudaGpuTest, TimesEnqueuedWorkWithEvents) {
  KernelId kernel =
      device().load_kernel(ptx_kernel("vector_add", kVectorAdd, 3, {ScalarType::Int32}));
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
    EXPECT_TRUE(contains(error_of([] { open_cuda_device(); }),
                         "RELAXC_CUDA_DEVICE=" + std::to_string(count) +
                             " is out of range: the driver reports " + std::to_string(count) +
                             " CUDA device(s): 0 \""));
  }
  {
    ScopedEnv env("RELAXC_CUDA_DEVICE", "gpu0");
    EXPECT_TRUE(contains(error_of([] { open_cuda_device(); }),
                         "RELAXC_CUDA_DEVICE=gpu0 is not a device ordinal; expected an integer "
                         "from 0 to "));
  }
  EXPECT_TRUE(contains(error_of([&] { open_cuda_device({.device = count + 3}); }),
                       "CudaOptions::device=" + std::to_string(count + 3) + " is out of range"));
  ScopedEnv env("RELAXC_CUDA_DEVICE", "0");
  std::unique_ptr<CudaDevice> second = open_cuda_device();
  EXPECT_EQ(second->limits().name, device().limits().name);
}

}  // namespace
}  // namespace relaxc::runtime
