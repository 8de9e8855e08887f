// Tests of the Vulkan device on whatever device the loader offers (lavapipe here and in
// CI), with the validation layer on: device choice and limits, transfers, launches of
// hand-written SPIR-V kernels checked against CPU results, ABI and SPIR-V errors.
// Every test ends asserting that the validation layer reported nothing.
#include "runtime/vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <spirv-tools/libspirv.hpp>
#include <string>
#include <vector>

#include "tests/support/device_harness.h"

namespace relaxc::runtime {
namespace {

// c[i] = a[i] + b[i] for i < n: buffers at bindings 0..2, n an int32 push constant,
// workgroups of 64 with a tail guard.
constexpr const char* kVectorAdd = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "vector_add" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
               OpDecorate %c DescriptorSet 0
               OpDecorate %c Binding 2
               OpMemberDecorate %params_t 0 Offset 0
               OpDecorate %params_t Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
     %floats = OpTypeRuntimeArray %float
      %block = OpTypeStruct %floats
  %block_ptr = OpTypePointer StorageBuffer %block
  %float_ptr = OpTypePointer StorageBuffer %float
   %params_t = OpTypeStruct %int
 %params_ptr = OpTypePointer PushConstant %params_t
    %int_ptr = OpTypePointer PushConstant %int
  %input_ptr = OpTypePointer Input %v3uint
      %int_0 = OpConstant %int 0
          %a = OpVariable %block_ptr StorageBuffer
          %b = OpVariable %block_ptr StorageBuffer
          %c = OpVariable %block_ptr StorageBuffer
     %params = OpVariable %params_ptr PushConstant
        %gid = OpVariable %input_ptr Input
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
      %n_ptr = OpAccessChain %int_ptr %params %int_0
          %n = OpLoad %int %n_ptr
     %n_uint = OpBitcast %uint %n
   %in_range = OpULessThan %bool %i %n_uint
               OpSelectionMerge %done None
               OpBranchConditional %in_range %body %done
       %body = OpLabel
      %a_ptr = OpAccessChain %float_ptr %a %int_0 %i
      %b_ptr = OpAccessChain %float_ptr %b %int_0 %i
      %c_ptr = OpAccessChain %float_ptr %c %int_0 %i
    %a_value = OpLoad %float %a_ptr
    %b_value = OpLoad %float %b_ptr
        %sum = OpFAdd %float %a_value %b_value
               OpStore %c_ptr %sum
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

// out[i] = start + i for i < n: an int32 then an int64 push constant (offsets 0 and 8).
constexpr const char* kIota64 = R"(
               OpCapability Shader
               OpCapability Int64
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "iota64" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %longs ArrayStride 8
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
               OpMemberDecorate %params_t 0 Offset 0
               OpMemberDecorate %params_t 1 Offset 8
               OpDecorate %params_t Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
       %long = OpTypeInt 64 1
     %v3uint = OpTypeVector %uint 3
      %longs = OpTypeRuntimeArray %long
      %block = OpTypeStruct %longs
  %block_ptr = OpTypePointer StorageBuffer %block
   %long_ptr = OpTypePointer StorageBuffer %long
   %params_t = OpTypeStruct %int %long
 %params_ptr = OpTypePointer PushConstant %params_t
 %pc_int_ptr = OpTypePointer PushConstant %int
%pc_long_ptr = OpTypePointer PushConstant %long
  %input_ptr = OpTypePointer Input %v3uint
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
        %out = OpVariable %block_ptr StorageBuffer
     %params = OpVariable %params_ptr PushConstant
        %gid = OpVariable %input_ptr Input
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
      %n_ptr = OpAccessChain %pc_int_ptr %params %int_0
          %n = OpLoad %int %n_ptr
     %n_uint = OpBitcast %uint %n
   %in_range = OpULessThan %bool %i %n_uint
               OpSelectionMerge %done None
               OpBranchConditional %in_range %body %done
       %body = OpLabel
  %start_ptr = OpAccessChain %pc_long_ptr %params %int_1
      %start = OpLoad %long %start_ptr
      %i_int = OpBitcast %int %i
     %i_long = OpSConvert %long %i_int
      %value = OpIAdd %long %start %i_long
    %out_ptr = OpAccessChain %long_ptr %out %int_0 %i
               OpStore %out_ptr %value
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

// Assembles and validates SPIR-V for Vulkan 1.1; the bytes as KernelBinary holds them.
std::vector<uint8_t> assemble(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string diagnostics;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        diagnostics += "line " + std::to_string(position.line) + ": " + message + "\n";
      });
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << diagnostics;
  EXPECT_TRUE(tools.Validate(words)) << diagnostics;
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

KernelBinary vector_add_kernel() {
  KernelBinary kernel;
  kernel.name = "vector_add";
  kernel.code = assemble(kVectorAdd);
  kernel.block_size = {64, 1, 1};
  kernel.num_buffers = 3;
  kernel.scalars = {ScalarType::Int32};
  return kernel;
}

KernelBinary iota64_kernel() {
  KernelBinary kernel;
  kernel.name = "iota64";
  kernel.code = assemble(kIota64);
  kernel.block_size = {64, 1, 1};
  kernel.num_buffers = 1;
  kernel.scalars = {ScalarType::Int32, ScalarType::Int64};
  return kernel;
}

uint32_t blocks_for(int64_t n, int64_t block) {
  return static_cast<uint32_t>((n + block - 1) / block);
}

// The message of the RuntimeError `action` throws; empty when it throws none.
template <typename Action>
std::string runtime_error_of(Action&& action) {
  try {
    action();
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "";
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

// Why Vulkan tests cannot run here (no loader or no device), empty when they can.
std::string vulkan_unavailable_reason() {
  try {
    list_vulkan_devices();
    return "";
  } catch (const RuntimeError& e) {
    return e.what();
  }
}

// Sets an environment variable for a scope, restoring what it was.
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

template <typename T>
DeviceBuffer upload_vector(Device& device, const std::vector<T>& values) {
  DeviceBuffer buffer = device.allocate(values.size() * sizeof(T));
  device.upload(buffer, 0, values.data(), values.size() * sizeof(T));
  return buffer;
}

template <typename T>
std::vector<T> download_vector(Device& device, DeviceBuffer buffer, size_t count) {
  std::vector<T> values(count);
  device.download(values.data(), buffer, 0, count * sizeof(T));
  return values;
}

void expect_no_validation_messages(const VulkanDevice& device) {
  std::vector<std::string> messages = device.validation_messages();
  EXPECT_TRUE(messages.empty()) << messages.size() << " validation message(s), the first: "
                                << (messages.empty() ? "" : messages.front());
}

// A device opened with validation; the parameter says whether push descriptors are
// allowed, so that both ways of binding buffers are exercised.
class VulkanDeviceTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    std::string reason = vulkan_unavailable_reason();
    if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
    VulkanOptions options;
    options.validation = true;
    options.push_descriptors = GetParam();
    device_ = open_vulkan_device(options);
  }
  void TearDown() override {
    if (device_ != nullptr) expect_no_validation_messages(*device_);
  }

  std::vector<float> run_vector_add(KernelId add, const std::vector<float>& a,
                                    const std::vector<float>& b) {
    DeviceBuffer da = upload_vector(*device_, a), db = upload_vector(*device_, b);
    DeviceBuffer dc = device_->allocate(a.size() * sizeof(float));
    std::vector<DeviceBuffer> buffers = {da, db, dc};
    std::vector<int64_t> scalars = {static_cast<int64_t>(a.size())};
    device_->launch(add, {blocks_for(static_cast<int64_t>(a.size()), 64), 1, 1}, buffers, scalars);
    std::vector<float> c = download_vector<float>(*device_, dc, a.size());
    for (DeviceBuffer buffer : buffers) device_->release(buffer);
    return c;
  }

  std::unique_ptr<VulkanDevice> device_;
};

INSTANTIATE_TEST_SUITE_P(Binding, VulkanDeviceTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("PushDescriptors")
                                             : std::string("DescriptorPools");
                         });

TEST(VulkanDevicesTest, ListsLavapipeWithPlausibleLimits) {
  std::string reason = vulkan_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
  std::vector<DeviceLimits> devices = list_vulkan_devices();
  ASSERT_FALSE(devices.empty());
  const DeviceLimits* lavapipe = nullptr;
  for (const DeviceLimits& device : devices) {
    if (device.name.find("llvmpipe") != std::string::npos) lavapipe = &device;
    // The minimums the Vulkan specification requires of every device.
    EXPECT_GE(device.max_threads_per_block, 128) << device.name;
    EXPECT_GE(device.max_block_size[0], 128) << device.name;
    EXPECT_GE(device.max_block_size[2], 64) << device.name;
    EXPECT_GE(device.max_grid_size[0], 65535) << device.name;
    EXPECT_GE(device.max_shared_memory_bytes, 16384) << device.name;
    EXPECT_GE(device.max_push_constant_bytes, 128) << device.name;
    EXPECT_LE(device.max_block_size[0], device.max_threads_per_block * 1024) << device.name;
  }
  ASSERT_NE(lavapipe, nullptr) << "lavapipe (mesa-vulkan-drivers) is installed here and in CI";
  EXPECT_TRUE(lavapipe->is_cpu);
  EXPECT_FALSE(lavapipe->is_discrete);
  EXPECT_GE(lavapipe->subgroup_size, 1);
  EXPECT_TRUE(lavapipe->supports_int64);
  EXPECT_EQ(lavapipe->api_version_major, 1);
  EXPECT_GE(lavapipe->api_version_minor, 1);
}

TEST(VulkanDevicesTest, ChoosesByNameSubstringOrIndex) {
  std::string reason = vulkan_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
  std::vector<DeviceLimits> devices = list_vulkan_devices();
  for (size_t i = 0; i < devices.size(); ++i) {
    VulkanOptions by_index;
    by_index.validation = true;
    by_index.device = std::to_string(i);
    std::unique_ptr<VulkanDevice> device = open_vulkan_device(by_index);
    EXPECT_EQ(device->limits().name, devices[i].name);
    expect_no_validation_messages(*device);
  }
  for (const DeviceLimits& limits : devices) {
    if (limits.name.find("llvmpipe") == std::string::npos) continue;
    VulkanOptions by_name;
    by_name.validation = true;
    by_name.device = "LLVMpipe";  // the match ignores case
    std::unique_ptr<VulkanDevice> device = open_vulkan_device(by_name);
    EXPECT_EQ(device->limits().name, limits.name);
    expect_no_validation_messages(*device);
  }
}

TEST(VulkanDevicesTest, UnknownNameOrIndexListsTheDevices) {
  std::string reason = vulkan_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
  std::string first = list_vulkan_devices().front().name;
  VulkanOptions options;
  options.device = "no-such-gpu";
  std::string message = runtime_error_of([&] { open_vulkan_device(options); });
  EXPECT_TRUE(
      contains(message, "no Vulkan device matches \"no-such-gpu\" (VulkanOptions::device)"));
  EXPECT_TRUE(contains(message, "0: " + first));
  options.device = "99";
  message = runtime_error_of([&] { open_vulkan_device(options); });
  EXPECT_TRUE(contains(message, "Vulkan device index 99 (VulkanOptions::device) is out of range"));
}

TEST(VulkanDevicesTest, EnvironmentVariableChoosesTheDevice) {
  std::string reason = vulkan_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
  std::vector<DeviceLimits> devices = list_vulkan_devices();
  VulkanOptions options;
  options.validation = true;
  {
    ScopedEnv env("RELAXC_VULKAN_DEVICE", std::to_string(devices.size() - 1).c_str());
    std::unique_ptr<VulkanDevice> device = open_vulkan_device(options);
    EXPECT_EQ(device->limits().name, devices.back().name);
    expect_no_validation_messages(*device);
  }
  ScopedEnv env("RELAXC_VULKAN_DEVICE", "no-such-gpu");
  EXPECT_TRUE(contains(runtime_error_of([&] { open_vulkan_device(options); }),
                       "no Vulkan device matches \"no-such-gpu\" (RELAXC_VULKAN_DEVICE)"));
  // VulkanOptions::device wins over the environment.
  options.device = "0";
  std::unique_ptr<VulkanDevice> device = open_vulkan_device(options);
  EXPECT_EQ(device->limits().name, devices.front().name);
  expect_no_validation_messages(*device);
}

TEST(VulkanDevicesTest, ValidationMessagesAreCollected) {
  std::string reason = vulkan_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
  // Validation through the environment, with VulkanOptions::validation left off.
  ScopedEnv env("RELAXC_VULKAN_VALIDATION", "1");
  std::unique_ptr<VulkanDevice> device = open_vulkan_device();
  expect_no_validation_messages(*device);
  // The shader reads a push constant that the kernel's ABI (no scalars) leaves out of
  // the pipeline layout: valid SPIR-V, but an invalid pipeline the layer reports.
  KernelBinary mismatched = vector_add_kernel();
  mismatched.scalars.clear();
  device->load_kernel(mismatched);
  std::vector<std::string> messages = device->validation_messages();
  ASSERT_FALSE(messages.empty());
  EXPECT_TRUE(contains(messages.front(), "Vulkan validation error: ")) << messages.front();
  EXPECT_TRUE(contains(messages.front(), "VkComputePipelineCreateInfo")) << messages.front();
}

TEST_P(VulkanDeviceTest, UploadDownloadRoundTripsAtSizesAndOffsets) {
  const size_t eight_mib = size_t{8} << 20;
  for (size_t bytes : {size_t{1}, size_t{3}, size_t{4}, size_t{1000}, size_t{65537}, eight_mib - 1,
                       eight_mib, eight_mib + 5}) {
    for (size_t offset : {size_t{0}, size_t{7}}) {
      std::vector<uint8_t> data(bytes);
      for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<uint8_t>((i * 131 + bytes) >> 1);
      DeviceBuffer buffer = device_->allocate(bytes + offset);
      device_->upload(buffer, offset, data.data(), bytes);
      std::vector<uint8_t> back(bytes);
      device_->download(back.data(), buffer, offset, bytes);
      EXPECT_EQ(back, data) << bytes << " bytes at offset " << offset;
      // A piece in the middle, read back alone.
      if (bytes >= 4) {
        std::vector<uint8_t> middle(bytes / 2);
        device_->download(middle.data(), buffer, offset + bytes / 4, middle.size());
        EXPECT_TRUE(std::equal(middle.begin(), middle.end(), data.begin() + bytes / 4))
            << bytes << " bytes at offset " << offset;
      }
      device_->release(buffer);
    }
  }
}

TEST_P(VulkanDeviceTest, TransfersLargerThanTheStagingPoolRoundTrip) {
  // 80 MiB: more than the staging pool holds at once (64 MiB), so uploads wait for
  // earlier pieces and downloads take several rounds.
  const size_t count = size_t{20} << 20;
  std::vector<uint32_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<uint32_t>(i * 2654435761u);
  DeviceBuffer buffer = upload_vector(*device_, values);
  EXPECT_TRUE(download_vector<uint32_t>(*device_, buffer, count) == values);
  device_->release(buffer);
}

TEST_P(VulkanDeviceTest, UploadsAreOrderedAndTheSourceIsReusable) {
  // Overwrites of one buffer through one reused host array: the last one wins, and
  // each upload copied the host data before returning.
  DeviceBuffer buffer = device_->allocate(64);
  std::vector<uint32_t> host(16);
  for (uint32_t round = 0; round < 5; ++round) {
    std::iota(host.begin(), host.end(), round * 100);
    device_->upload(buffer, 0, host.data(), 64);
  }
  std::fill(host.begin(), host.end(), 0);
  std::vector<uint32_t> expected(16);
  std::iota(expected.begin(), expected.end(), 400);
  EXPECT_EQ(download_vector<uint32_t>(*device_, buffer, 16), expected);
  device_->release(buffer);
}

TEST_P(VulkanDeviceTest, RangeAndHandleErrorsNameTheOperation) {
  DeviceBuffer buffer = device_->allocate(16);
  uint8_t host[32] = {};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->upload(buffer, 8, host, 9); }),
                       "upload: the range [8, 8 + 9) is outside buffer #"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->download(host, buffer, 17, 0); }),
                       "download: the range [17, 17 + 0) is outside"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->copy(buffer, 0, buffer, 4, 8); }),
                       "copy: the source [4, 12) and destination [0, 8) overlap"));
  device_->release(buffer);
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->release(buffer); }),
                       "was already released or never allocated"));
  EXPECT_TRUE(contains(
      runtime_error_of([&] { device_->upload(buffer, 0, host, 4); }),
      "upload: buffer #" + std::to_string(buffer.id) + " was released or never allocated"));
  // An empty buffer is allowed, and empty transfers do nothing.
  DeviceBuffer empty = device_->allocate(0);
  EXPECT_EQ(empty.bytes, 0u);
  device_->upload(empty, 0, host, 0);
  device_->download(host, empty, 0, 0);
  device_->release(empty);
}

TEST_P(VulkanDeviceTest, DeviceToDeviceCopy) {
  std::vector<uint32_t> values(10000);
  std::iota(values.begin(), values.end(), 1);
  DeviceBuffer src = upload_vector(*device_, values);
  DeviceBuffer dst = device_->allocate(values.size() * 4);
  std::vector<uint32_t> zeros(values.size(), 0);
  device_->upload(dst, 0, zeros.data(), zeros.size() * 4);
  // Elements [100, 5100) of src land at [2000, 7000) of dst; the rest stays zero.
  device_->copy(dst, 2000 * 4, src, 100 * 4, 5000 * 4);
  // Within one buffer, between ranges that do not overlap: [0, 10) <- [9990, 10000).
  device_->copy(dst, 0, dst, 9990 * 4, 10 * 4);
  std::vector<uint32_t> expected(values.size(), 0);
  for (size_t i = 0; i < 5000; ++i) expected[2000 + i] = values[100 + i];
  for (size_t i = 0; i < 10; ++i) expected[i] = expected[9990 + i];
  EXPECT_EQ(download_vector<uint32_t>(*device_, dst, values.size()), expected);
  device_->release(src);
  device_->release(dst);
}

TEST_P(VulkanDeviceTest, VectorAddMatchesCpu) {
  KernelId add = device_->load_kernel(vector_add_kernel());
  for (int64_t n : {1, 63, 64, 1000, 100000}) {
    std::vector<float> a(n), b(n), expected(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i) * 0.5f;
      b[i] = 3.0f - static_cast<float>(i % 97) * 0.25f;
      expected[i] = a[i] + b[i];
    }
    EXPECT_EQ(run_vector_add(add, a, b), expected) << "n = " << n;
  }
}

TEST_P(VulkanDeviceTest, DependentLaunchesWithoutSynchronize) {
  KernelId add = device_->load_kernel(vector_add_kernel());
  const int64_t n = 5000;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i + 1);
  }
  DeviceBuffer da = upload_vector(*device_, a), db = upload_vector(*device_, b);
  DeviceBuffer dc = device_->allocate(n * 4), dd = device_->allocate(n * 4);
  std::vector<int64_t> scalars = {n};
  std::array<uint32_t, 3> grid = {blocks_for(n, 64), 1, 1};
  std::vector<DeviceBuffer> first = {da, db, dc}, second = {dc, da, dd};
  device_->launch(add, grid, first, scalars);   // c = a + b
  device_->launch(add, grid, second, scalars);  // d = c + a, reading the first's output
  std::vector<float> expected(n);
  for (int64_t i = 0; i < n; ++i) expected[i] = (a[i] + b[i]) + a[i];
  EXPECT_EQ(download_vector<float>(*device_, dd, n), expected);
  for (DeviceBuffer buffer : {da, db, dc, dd}) device_->release(buffer);
}

TEST_P(VulkanDeviceTest, ManyLaunchesBatchedThenOneDownload) {
  KernelId add = device_->load_kernel(vector_add_kernel());
  const int64_t n = 300;
  const int launches = 1000;  // several batches
  std::vector<float> step(n), acc(n, 0.0f);
  for (int64_t i = 0; i < n; ++i) step[i] = static_cast<float>(i % 5);
  DeviceBuffer dstep = upload_vector(*device_, step), dacc = upload_vector(*device_, acc);
  std::vector<DeviceBuffer> buffers = {dacc, dstep, dacc};  // acc = acc + step, in place
  std::vector<int64_t> scalars = {n};
  for (int k = 0; k < launches; ++k)
    device_->launch(add, {blocks_for(n, 64), 1, 1}, buffers, scalars);
  for (int k = 0; k < launches; ++k) {
    for (int64_t i = 0; i < n; ++i) acc[i] += step[i];
  }
  EXPECT_EQ(download_vector<float>(*device_, dacc, n), acc);
  device_->release(dstep);
  device_->release(dacc);
}

TEST_P(VulkanDeviceTest, Int64ScalarFollowsAnInt32AtOffset8) {
  if (!device_->limits().supports_int64) GTEST_SKIP() << "the device has no int64";
  KernelId iota = device_->load_kernel(iota64_kernel());
  const int64_t n = 130, start = (int64_t{1} << 40) + 3;
  DeviceBuffer out = device_->allocate(n * 8);
  std::vector<DeviceBuffer> buffers = {out};
  std::vector<int64_t> scalars = {n, start};
  device_->launch(iota, {blocks_for(n, 64), 1, 1}, buffers, scalars);
  std::vector<int64_t> expected(n);
  std::iota(expected.begin(), expected.end(), start);
  EXPECT_EQ(download_vector<int64_t>(*device_, out, n), expected);
  device_->release(out);
}

TEST_P(VulkanDeviceTest, ReleaseWhileALaunchIsPendingIsDeferred) {
  KernelId add = device_->load_kernel(vector_add_kernel());
  const int64_t n = 4096;
  std::vector<float> a(n, 1.5f);
  DeviceBuffer da = upload_vector(*device_, a), dc = device_->allocate(n * 4);
  std::vector<DeviceBuffer> buffers = {da, da, dc};
  std::vector<int64_t> scalars = {n};
  device_->launch(add, {blocks_for(n, 64), 1, 1}, buffers, scalars);
  device_->release(da);  // still read by the pending launch
  EXPECT_EQ(download_vector<float>(*device_, dc, n), std::vector<float>(n, 3.0f));
  device_->release(dc);
  device_->synchronize();
}

TEST_P(VulkanDeviceTest, LoadingTheSameKernelTwiceReturnsItsId) {
  KernelId first = device_->load_kernel(vector_add_kernel());
  EXPECT_EQ(device_->load_kernel(vector_add_kernel()), first);
  KernelBinary other_block = vector_add_kernel();
  // Same code, another ABI: another kernel (here refused, its LocalSize is 64).
  other_block.block_size = {32, 1, 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(other_block); }),
                       "kernel 'vector_add': the block size (32, 1, 1) differs from the SPIR-V "
                       "module's LocalSize (64, 1, 1)"));
}

TEST_P(VulkanDeviceTest, AbiErrorsNameTheKernelAndArgumentThenTheDeviceWorks) {
  KernelId add = device_->load_kernel(vector_add_kernel());
  DeviceBuffer a = device_->allocate(256), b = device_->allocate(256), c = device_->allocate(256);
  std::vector<DeviceBuffer> three = {a, b, c}, two = {a, b};
  std::vector<int64_t> n = {64}, none = {}, too_big = {int64_t{1} << 31};
  std::array<uint32_t, 3> grid = {1, 1, 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, two, n); }),
                       "kernel 'vector_add' takes 3 buffer argument(s), but the launch passes 2"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, three, none); }),
                       "kernel 'vector_add' takes 1 scalar argument(s), but the launch passes 0"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, three, too_big); }),
                       "kernel 'vector_add': scalar argument 0 is int32 but its value 2147483648 "
                       "does not fit in int32"));
  std::vector<int64_t> too_small = {-(int64_t{1} << 31) - 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, three, too_small); }),
                       "its value -2147483649 does not fit in int32"));
  uint32_t max_x = static_cast<uint32_t>(device_->limits().max_grid_size[0]);
  if (max_x < UINT32_MAX) {
    EXPECT_TRUE(contains(runtime_error_of([&] {
                           device_->launch(add, {max_x + 1, 1, 1}, three, n);
                         }),
                         "kernel 'vector_add': grid (" + std::to_string(max_x + 1) +
                             ", 1, 1) has dimension 0 above the device's maximum"));
  }
  DeviceBuffer empty = device_->allocate(0);
  std::vector<DeviceBuffer> with_empty = {a, empty, c};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, with_empty, n); }),
                       "kernel 'vector_add': buffer argument 1 (buffer #" +
                           std::to_string(empty.id) + ") is empty"));
  device_->release(empty);
  DeviceBuffer gone = device_->allocate(256);
  device_->release(gone);
  std::vector<DeviceBuffer> with_released = {a, b, gone};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, with_released, n); }),
                       "kernel 'vector_add': buffer argument 2 (buffer #" +
                           std::to_string(gone.id) + ") was released or never allocated"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add + 100, grid, three, n); }),
                       "was not returned by load_kernel"));
  for (DeviceBuffer buffer : three) device_->release(buffer);

  std::vector<float> x = {1, 2, 3}, y = {10, 20, 30};
  EXPECT_EQ(run_vector_add(add, x, y), (std::vector<float>{11, 22, 33}));
}

TEST_P(VulkanDeviceTest, DamagedSpirvIsRefusedWithItsReason) {
  KernelBinary bad_magic = vector_add_kernel();
  bad_magic.code[0] ^= 0xff;
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(bad_magic); }),
                       "kernel 'vector_add': the code does not start with the SPIR-V magic "
                       "number 0x07230203 (found 0x072302fc)"));
  KernelBinary truncated = vector_add_kernel();
  truncated.code.pop_back();
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(truncated); }),
                       "kernel 'vector_add': the SPIR-V code is " +
                           std::to_string(truncated.code.size()) +
                           " bytes, not a whole number of 32-bit words"));
  KernelBinary cut = vector_add_kernel();
  cut.code.resize(cut.code.size() / 2 / 4 * 4);
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(cut); }),
                       "kernel 'vector_add': the SPIR-V module is damaged"));
  KernelBinary wrong_name = vector_add_kernel();
  wrong_name.name = "vector_sub";
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(wrong_name); }),
                       "kernel 'vector_sub': the SPIR-V module has no GLCompute entry point "
                       "named 'vector_sub' (it has 'vector_add')"));
  KernelBinary ptx = vector_add_kernel();
  ptx.format = KernelFormat::Ptx;
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(ptx); }),
                       "kernel 'vector_add' is PTX; the Vulkan device runs SPIR-V"));
  KernelBinary huge_block = vector_add_kernel();
  huge_block.block_size = {static_cast<uint32_t>(device_->limits().max_block_size[0] + 1), 1, 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(huge_block); }),
                       "has dimension 0 outside [1, "));
  // The device still loads and runs a good kernel.
  KernelId add = device_->load_kernel(vector_add_kernel());
  EXPECT_EQ(run_vector_add(add, {1.0f}, {2.0f}), std::vector<float>{3.0f});
}

}  // namespace
}  // namespace relaxc::runtime
