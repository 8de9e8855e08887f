// Tests of what is particular to the Vulkan device, on whatever device the loader offers
// (lavapipe here and in CI), with the validation layer on: device choice and limits,
// validation messages, SPIR-V load errors, empty buffer arguments, the replay of
// repeated runs of dispatches. What every device
// does is tested in device_conformance_test.cc. Every test ends asserting that the
// validation layer reported nothing.
#include "runtime/vulkan/vulkan_device.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/vulkan/vulkan_commands.h"
#include "tests/support/allocation_counter.h"
#include "tests/support/device_harness.h"
#include "tests/support/errors.h"
#include "tests/support/hand_written_kernels.h"
#include "tests/support/replay_runs.h"

namespace relaxc::runtime {
namespace {

using relaxc::testing::check_least_recently_used_run_dropped;
using relaxc::testing::check_repeated_runs;
using relaxc::testing::counts;
using relaxc::testing::heap_allocations;
using relaxc::testing::ReplayRuns;
using relaxc::testing::run_vector_add;

KernelBinary vector_add_kernel() { return relaxc::testing::vector_add_kernel(KernelFormat::SpirV); }

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

TEST_P(VulkanDeviceTest, ABlockSizeOtherThanTheLocalSizeIsRefused) {
  KernelBinary other_block = vector_add_kernel();
  // Same code, another ABI: another kernel, refused here since its LocalSize is 64.
  other_block.block_size = {32, 1, 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(other_block); }),
                       "kernel 'vector_add': the block size (32, 1, 1) differs from the SPIR-V "
                       "module's LocalSize (64, 1, 1)"));
}

TEST_P(VulkanDeviceTest, EmptyBufferArgumentsAreRefusedThenTheDeviceWorks) {
  KernelId add = device_->load_kernel(vector_add_kernel());
  DeviceBuffer a = device_->allocate(256), empty = device_->allocate(0), c = device_->allocate(256);
  std::vector<DeviceBuffer> with_empty = {a, empty, c};
  std::vector<int64_t> n = {64};
  EXPECT_TRUE(contains(runtime_error_of([&] {
                         device_->launch(add, {1, 1, 1}, with_empty, n);
                       }),
                       "kernel 'vector_add': buffer argument 1 (buffer #" +
                           std::to_string(empty.id) + ") is empty"));
  for (DeviceBuffer buffer : with_empty) device_->release(buffer);
  std::vector<float> x = {1, 2, 3}, y = {10, 20, 30};
  EXPECT_EQ(run_vector_add(*device_, add, x, y), (std::vector<float>{11, 22, 33}));
}

TEST_P(VulkanDeviceTest, ARangeOffTheOffsetAlignmentIsRefusedThenTheDeviceWorks) {
  uint64_t alignment = device_->limits().buffer_offset_alignment;
  if (alignment < 2) GTEST_SKIP() << "the device binds ranges at any offset";
  KernelId add = device_->load_kernel(vector_add_kernel());
  DeviceBuffer a = device_->allocate(1024);
  DeviceBuffer off{a.id, 256, alignment / 2};
  std::vector<DeviceBuffer> args = {a, off, a};
  std::vector<int64_t> n = {64};
  EXPECT_EQ(runtime_error_of([&] {
              device_->launch(add, {1, 1, 1}, args, n);
            }),
            "kernel 'vector_add': buffer argument 1 (buffer #" + std::to_string(a.id) +
                ") starts at byte " + std::to_string(alignment / 2) +
                " of its allocation, not a multiple of the device's "
                "minStorageBufferOffsetAlignment (" +
                std::to_string(alignment) + ")");
  device_->release(a);
  std::vector<float> x = {1, 2, 3}, y = {10, 20, 30};
  EXPECT_EQ(run_vector_add(*device_, add, x, y), (std::vector<float>{11, 22, 33}));
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
  KernelBinary huge_block = vector_add_kernel();
  huge_block.block_size = {static_cast<uint32_t>(device_->limits().max_block_size[0] + 1), 1, 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->load_kernel(huge_block); }),
                       "has dimension 0 outside [1, "));
  // The device still loads and runs a good kernel.
  KernelId add = device_->load_kernel(vector_add_kernel());
  EXPECT_EQ(run_vector_add(*device_, add, {1.0f}, {2.0f}), std::vector<float>{3.0f});
}

// Replay (vulkan_commands.h): a run of dispatches (ended by a copy or a submit) that
// repeats a kept run, dispatch for dispatch, executes that run again; anything else is
// recorded, and kept for next time.
class VulkanReplayTest : public VulkanDeviceTest {
 protected:
  void SetUp() override {
    VulkanDeviceTest::SetUp();
    if (device_ == nullptr) return;
    runs_.emplace(*device_, device_->load_kernel(vector_add_kernel()));
  }
  void TearDown() override {
    runs_.reset();
    VulkanDeviceTest::TearDown();
  }

  std::optional<ReplayRuns> runs_;
};

INSTANTIATE_TEST_SUITE_P(Binding, VulkanReplayTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("PushDescriptors")
                                             : std::string("DescriptorPools");
                         });

TEST_P(VulkanReplayTest, ARepeatedRunIsReplayedAndAnyOtherRecorded) { check_repeated_runs(*runs_); }

TEST_P(VulkanReplayTest, AReleasedBufferDropsTheRunsThatBindIt) {
  ReplayRuns& runs = *runs_;
  EXPECT_TRUE(counts(runs.run(runs.chain()).first, 3, 0));
  EXPECT_TRUE(counts(runs.run(runs.chain()).first, 0, 3));
  // A new d, which may get the old one's handle: the chain is recorded anew.
  device_->release(runs.d);
  runs.d = device_->allocate(ReplayRuns::kN * 4);
  auto [stats, c] = runs.run(runs.chain());
  EXPECT_TRUE(counts(stats, 3, 0));
  EXPECT_EQ(c, std::vector<float>(ReplayRuns::kN, 22.0f));
  EXPECT_TRUE(counts(runs.run(runs.chain()).first, 0, 3));
}

TEST_P(VulkanReplayTest, AReplayedRunAllocatesNothingOnTheHost) {
  // Without the validation layer, which allocates on every call.
  VulkanOptions options;
  options.push_descriptors = GetParam();
  std::unique_ptr<VulkanDevice> device = open_vulkan_device(options);
  ReplayRuns runs(*device, device->load_kernel(vector_add_kernel()));
  std::vector<ReplayRuns::Launch> chain = runs.chain();
  const std::array<uint32_t, 3> grid = {static_cast<uint32_t>((ReplayRuns::kN + 63) / 64), 1, 1};
  const std::vector<int64_t> n = {ReplayRuns::kN};
  auto launch_chain = [&] {
    for (const ReplayRuns::Launch& launch : chain)
      device->launch(runs.add, grid, launch.buffers, n);
    device->synchronize();
  };
  launch_chain();
  launch_chain();
  LaunchStats before = device->launch_stats();
  int64_t allocations = heap_allocations();
  launch_chain();
  EXPECT_EQ(heap_allocations() - allocations, 0);
  EXPECT_EQ(device->launch_stats().replayed - before.replayed, 3u);
}

TEST_P(VulkanReplayTest, TheLeastRecentlyUsedRunIsDroppedPastTheLimit) {
  check_least_recently_used_run_dropped(*runs_, CommandQueue::kMaxKeptRuns);
}

TEST(VulkanReplayOffTest, EveryDispatchIsRecordedWithReplayOff) {
  std::string reason = vulkan_unavailable_reason();
  if (!reason.empty()) GTEST_SKIP() << "no Vulkan device: " << reason;
  VulkanOptions off;
  off.validation = true;
  off.replay = false;
  std::unique_ptr<VulkanDevice> by_option = open_vulkan_device(off);
  ScopedEnv env("RELAXC_VULKAN_REPLAY", "0");
  VulkanOptions on;
  on.validation = true;
  std::unique_ptr<VulkanDevice> by_environment = open_vulkan_device(on);
  for (VulkanDevice* device : {by_option.get(), by_environment.get()}) {
    KernelId add = device->load_kernel(vector_add_kernel());
    for (int call = 0; call < 3; ++call) {
      EXPECT_EQ(run_vector_add(*device, add, {1, 2}, {3, 4}), (std::vector<float>{4, 6}));
    }
    LaunchStats stats = device->launch_stats();
    EXPECT_EQ(stats.recorded, 3u);
    EXPECT_EQ(stats.replayed, 0u);
    expect_no_validation_messages(*device);
  }
}

}  // namespace
}  // namespace relaxc::runtime
