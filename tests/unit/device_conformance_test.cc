// The device conformance suite: what every runtime::Device must do, run on each device
// configuration below (every registered device kind, Vulkan both with push descriptors
// and with descriptor pools): transfers at sizes and offsets, copies, range and handle
// errors, hand-written kernels checked against CPU results, launch ordering and deferred
// releases, and the launch ABI errors. A configuration whose device is absent skips with
// the reason. Device-specific behaviour (device choice, validation, SPIR-V and PTX load
// errors, events) is tested in vulkan_device_test.cc and cuda_device_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_device.h"
#include "runtime/device_registry.h"
#include "runtime/vulkan/vulkan_device.h"
#include "tests/support/device_harness.h"
#include "tests/support/errors.h"
#include "tests/support/hand_written_kernels.h"

namespace relaxc::runtime {
namespace {

using relaxc::testing::iota64_kernel;
using relaxc::testing::run_vector_add;
using relaxc::testing::vector_add_kernel;

// One way of opening a device that the suite runs on.
struct DeviceConfig {
  std::string name;  // the test-name suffix
  std::string kind;  // its DeviceKind's name
  std::function<std::unique_ptr<Device>()> open;
  // What the device reported that the test should fail on (Vulkan validation messages).
  std::function<std::vector<std::string>(Device&)> problems = [](Device&) {
    return std::vector<std::string>{};
  };
};

// Test names and failure messages show the configuration's name.
void PrintTo(const DeviceConfig& config, std::ostream* os) { *os << config.name; }

std::unique_ptr<Device> open_validated_vulkan(bool push_descriptors) {
  VulkanOptions options;
  options.validation = true;
  options.push_descriptors = push_descriptors;
  return open_vulkan_device(options);
}

std::vector<std::string> vulkan_validation_messages(Device& device) {
  return static_cast<VulkanDevice&>(device).validation_messages();
}

const std::vector<DeviceConfig>& device_configs() {
  static const std::vector<DeviceConfig> configs = {
      {"VulkanPushDescriptors", "vulkan", [] { return open_validated_vulkan(true); },
       vulkan_validation_messages},
      {"VulkanDescriptorPools", "vulkan", [] { return open_validated_vulkan(false); },
       vulkan_validation_messages},
      {"Cuda", "cuda", [] { return std::unique_ptr<Device>(open_cuda_device()); }},
  };
  return configs;
}

// Keeps the driver libraries loaded for the whole run (see pin_loaded_libraries): the
// harness's Vulkan device pins them when it opens.
class KeepDriverLibrariesLoaded : public ::testing::Environment {
 public:
  void SetUp() override {
    std::string why_not;
    relaxc::testing::test_device(TargetKind::Vulkan, &why_not);
  }
};
::testing::Environment* const keep_driver_libraries_loaded =
    ::testing::AddGlobalTestEnvironment(new KeepDriverLibrariesLoaded);

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

uint32_t blocks_for(int64_t n, int64_t block) {
  return static_cast<uint32_t>((n + block - 1) / block);
}

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

class DeviceConformanceTest : public ::testing::TestWithParam<DeviceConfig> {
 protected:
  void SetUp() override {
    try {
      device_ = GetParam().open();
    } catch (const RuntimeError& e) {
      GTEST_SKIP() << "no " << find_device_kind(GetParam().kind)->display_name
                   << " device: " << e.what();
    }
  }
  void TearDown() override {
    if (device_ == nullptr) return;
    std::vector<std::string> problems = GetParam().problems(*device_);
    EXPECT_TRUE(problems.empty()) << problems.size() << " problem(s) reported, the first: "
                                  << (problems.empty() ? "" : problems.front());
  }

  KernelId load_vector_add() {
    return device_->load_kernel(vector_add_kernel(device_->kernel_format()));
  }

  std::unique_ptr<Device> device_;
};

INSTANTIATE_TEST_SUITE_P(Devices, DeviceConformanceTest, ::testing::ValuesIn(device_configs()),
                         [](const ::testing::TestParamInfo<DeviceConfig>& info) {
                           return info.param.name;
                         });

// A device added to the registry gets a configuration here.
TEST(DeviceConformance, EveryRegisteredKindHasAConfiguration) {
  for (const DeviceKind* kind : device_kinds()) {
    bool covered =
        std::any_of(device_configs().begin(), device_configs().end(),
                    [&](const DeviceConfig& config) { return config.kind == kind->name; });
    EXPECT_TRUE(covered) << "no conformance configuration opens a '" << kind->name << "' device";
  }
}

TEST_P(DeviceConformanceTest, UploadDownloadRoundTripsAtSizesAndOffsets) {
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

TEST_P(DeviceConformanceTest, TransfersLargerThanTheStagingPoolRoundTrip) {
  // 80 MiB: more than Vulkan's staging pool holds at once (64 MiB), so uploads wait for
  // earlier pieces and downloads take several rounds.
  const size_t count = size_t{20} << 20;
  std::vector<uint32_t> values(count);
  for (size_t i = 0; i < count; ++i) values[i] = static_cast<uint32_t>(i * 2654435761u);
  DeviceBuffer buffer = upload_vector(*device_, values);
  EXPECT_TRUE(download_vector<uint32_t>(*device_, buffer, count) == values);
  device_->release(buffer);
}

TEST_P(DeviceConformanceTest, OddSizedTransfersAtAnOffsetRoundTrip) {
  // 1 KiB goes directly on CUDA; 21 MiB + 3 bytes goes through its pinned staging ring
  // (more pieces than it has slots, the last one partial).
  for (size_t bytes : {size_t{1024}, (size_t{21} << 20) + 3}) {
    std::vector<uint8_t> data(bytes);
    for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
    DeviceBuffer buffer = device_->allocate(bytes + 16);
    device_->upload(buffer, 16, data.data(), bytes);
    std::vector<uint8_t> back(bytes, 0);
    device_->download(back.data(), buffer, 16, bytes);
    EXPECT_EQ(back, data) << bytes << " bytes";
    // A piece from the middle, at an offset.
    std::vector<uint8_t> middle(100);
    device_->download(middle.data(), buffer, 16 + bytes / 2, middle.size());
    EXPECT_TRUE(std::equal(middle.begin(), middle.end(), data.begin() + bytes / 2));
    device_->release(buffer);
  }
}

TEST_P(DeviceConformanceTest, UploadsAreOrderedAndTheSourceIsReusable) {
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

TEST_P(DeviceConformanceTest, RangeAndHandleErrorsNameTheOperation) {
  DeviceBuffer buffer = device_->allocate(16);
  uint8_t host[32] = {};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->upload(buffer, 8, host, 9); }),
                       "upload: the range [8, 8 + 9) is outside buffer #"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->download(host, buffer, 17, 0); }),
                       "download: the range [17, 17 + 0) is outside"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->copy(buffer, 0, buffer, 4, 8); }),
                       "copy: the source [4, 12) and destination [0, 8) overlap in buffer #"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->upload(buffer, 0, nullptr, 4); }),
                       "upload: the host source is null"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->download(nullptr, buffer, 0, 4); }),
                       "download: the host destination is null"));
  device_->release(buffer);
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->release(buffer); }),
                       "was already released or never allocated"));
  EXPECT_TRUE(contains(
      runtime_error_of([&] { device_->upload(buffer, 0, host, 4); }),
      "upload: buffer #" + std::to_string(buffer.id) + " was released or never allocated"));
  EXPECT_TRUE(contains(
      runtime_error_of([&] { device_->download(host, buffer, 0, 4); }),
      "download: buffer #" + std::to_string(buffer.id) + " was released or never allocated"));
  // An empty buffer is allowed, and empty transfers do nothing.
  DeviceBuffer empty = device_->allocate(0);
  EXPECT_EQ(empty.bytes, 0u);
  device_->upload(empty, 0, host, 0);
  device_->download(host, empty, 0, 0);
  device_->release(empty);
}

// What a storage pool hands out: ranges of one allocation at the device's offset
// alignment, used by transfers, copies and kernels as buffers of their own.
TEST_P(DeviceConformanceTest, RangesOfOneAllocationActAsBuffers) {
  KernelId add = load_vector_add();
  const int64_t n = 300;
  const size_t bytes = n * 4;
  size_t align = std::max<size_t>(256, device_->limits().buffer_offset_alignment);
  size_t stride = (bytes + align - 1) / align * align;
  DeviceBuffer block = device_->allocate(4 * stride);
  auto range = [&](size_t i) { return DeviceBuffer{block.id, bytes, block.offset + i * stride}; };
  std::vector<float> a(bytes / 4), b(bytes / 4), expected(bytes / 4);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 100.0f - static_cast<float>(i);
    expected[i] = a[i] + b[i];
  }
  device_->upload(range(0), 0, a.data(), bytes);
  device_->upload(range(1), 0, b.data(), bytes);
  std::vector<DeviceBuffer> args = {range(0), range(1), range(2)};
  std::vector<int64_t> scalars = {n};
  device_->launch(add, {blocks_for(n, 64), 1, 1}, args, scalars);
  device_->copy(range(3), 0, range(2), 0, bytes);
  EXPECT_EQ(download_vector<float>(*device_, range(3), n), expected);
  EXPECT_EQ(download_vector<float>(*device_, range(0), n), a);  // the neighbours kept theirs
  uint8_t host[8] = {};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->upload(range(0), bytes - 4, host, 8); }),
                       "upload: the range [" + std::to_string(bytes - 4) + ", " +
                           std::to_string(bytes - 4) + " + 8) is outside buffer #"));
  DeviceBuffer past{block.id, bytes, 4 * stride - 4};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->download(host, past, 0, 4); }),
                       "download: buffer #" + std::to_string(block.id) +
                           " is given as the range [" + std::to_string(4 * stride - 4) + ", " +
                           std::to_string(4 * stride - 4) + " + " + std::to_string(bytes) +
                           ") of an allocation of " + std::to_string(4 * stride) + " bytes"));
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->release(range(1)); }),
                       "; a device releases whole allocations"));
  device_->release(block);
}

TEST_P(DeviceConformanceTest, DeviceToDeviceCopy) {
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

TEST_P(DeviceConformanceTest, CopiesIntoALargerBuffer) {
  std::vector<int32_t> values(1000);
  std::iota(values.begin(), values.end(), -500);
  size_t bytes = values.size() * 4;
  DeviceBuffer a = device_->allocate(bytes), b = device_->allocate(bytes * 2);
  device_->upload(a, 0, values.data(), bytes);
  device_->copy(b, bytes, a, 0, bytes);
  device_->copy(b, 0, b, bytes + 400, 400);  // within one buffer, not overlapping
  std::vector<int32_t> back = download_vector<int32_t>(*device_, b, values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) EXPECT_EQ(back[values.size() + i], values[i]);
  for (size_t i = 0; i < 100; ++i) EXPECT_EQ(back[i], values[100 + i]);
  device_->release(a);
  device_->release(b);
}

TEST_P(DeviceConformanceTest, VectorAddMatchesCpu) {
  KernelId add = load_vector_add();
  for (int64_t n : {1, 63, 64, 1000, 100000}) {
    std::vector<float> a(n), b(n), expected(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>(i) * 0.5f;
      b[i] = 3.0f - static_cast<float>(i % 97) * 0.25f;
      expected[i] = a[i] + b[i];
    }
    EXPECT_EQ(run_vector_add(*device_, add, a, b), expected) << "n = " << n;
  }
}

TEST_P(DeviceConformanceTest, DependentLaunchesWithoutSynchronize) {
  KernelId add = load_vector_add();
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

TEST_P(DeviceConformanceTest, ManyLaunchesBatchedThenOneDownload) {
  KernelId add = load_vector_add();
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

// The same launches again, as a VM's second call of a function makes them, with new
// input data, then with another scalar, another output buffer and a shorter sequence:
// every result is the CPU's, and every launch is counted, recorded or replayed (Vulkan
// replays a repeated run of dispatches; vulkan_device_test.cc counts which).
TEST_P(DeviceConformanceTest, RepeatedLaunchSequencesComputeFreshResults) {
  KernelId add = load_vector_add();
  const int64_t n = 2000;
  DeviceBuffer da = device_->allocate(n * 4), db = device_->allocate(n * 4);
  DeviceBuffer dc = device_->allocate(n * 4), dd = device_->allocate(n * 4);
  DeviceBuffer other = device_->allocate(n * 4);
  LaunchStats before = device_->launch_stats();
  uint64_t launches = 0;
  // c = a + b; d = c + a; c = d + b (rewriting c after d read it): d = 2a + b, c = 2a + 2b.
  auto run = [&](int round, int64_t count, DeviceBuffer out, bool third) {
    std::vector<float> a(n), b(n);
    for (int64_t i = 0; i < n; ++i) {
      a[i] = static_cast<float>((i + round) % 11);
      b[i] = static_cast<float>(round * 3 - i % 5);
    }
    device_->upload(da, 0, a.data(), n * 4);
    device_->upload(db, 0, b.data(), n * 4);
    std::vector<int64_t> scalars = {count};
    std::array<uint32_t, 3> grid = {blocks_for(count, 64), 1, 1};
    std::vector<DeviceBuffer> first = {da, db, dc}, second = {dc, da, out}, rewrite = {out, db, dc};
    device_->launch(add, grid, first, scalars);
    device_->launch(add, grid, second, scalars);
    launches += 2;
    if (third) {
      device_->launch(add, grid, rewrite, scalars);
      launches += 1;
    }
    std::vector<float> out_values = download_vector<float>(*device_, out, count);
    std::vector<float> c_values = download_vector<float>(*device_, dc, count);
    for (int64_t i = 0; i < count; ++i) {
      float d = 2 * a[i] + b[i];
      ASSERT_EQ(out_values[i], d) << "round " << round << ", element " << i;
      ASSERT_EQ(c_values[i], third ? d + b[i] : a[i] + b[i])
          << "round " << round << ", element " << i;
    }
  };
  for (int round = 0; round < 4; ++round) run(round, n, dd, true);
  run(4, n - 100, dd, true);  // another scalar and grid
  run(5, n, other, true);     // another output buffer
  run(6, n, dd, false);       // the sequence's beginning only
  run(7, n, dd, false);
  run(8, n, dd, true);
  LaunchStats after = device_->launch_stats();
  EXPECT_EQ((after.recorded - before.recorded) + (after.replayed - before.replayed), launches);
  for (DeviceBuffer buffer : {da, db, dc, dd, other}) device_->release(buffer);
}

// Kernel timing (relaxc bench): each launch made while it is on is timed under its
// kernel's name, in launch order, across batches (Vulkan submits 256 commands per
// batch); launches before and after are not, and taking the timings empties them.
TEST_P(DeviceConformanceTest, KernelTimingNamesEachLaunchInOrder) {
  KernelId add = load_vector_add();
  const std::string name = vector_add_kernel(device_->kernel_format()).name;
  const int64_t n = 300;
  std::vector<float> step(n, 1.0f), acc(n, 0.0f);
  DeviceBuffer dstep = upload_vector(*device_, step), dacc = upload_vector(*device_, acc);
  std::vector<DeviceBuffer> buffers = {dacc, dstep, dacc};  // acc = acc + step, in place
  std::vector<int64_t> scalars = {n};
  auto launch = [&] { device_->launch(add, {blocks_for(n, 64), 1, 1}, buffers, scalars); };
  launch();  // untimed
  if (!device_->set_kernel_timing(true)) {
    device_->synchronize();
    device_->release(dstep);
    device_->release(dacc);
    GTEST_SKIP() << "the device cannot time kernels";
  }
  const int timed = 600;
  for (int k = 0; k < timed; ++k) launch();
  std::vector<KernelTiming> timings = device_->take_kernel_timings();
  ASSERT_EQ(timings.size(), static_cast<size_t>(timed));
  for (const KernelTiming& t : timings) {
    EXPECT_EQ(t.kernel, name);
    EXPECT_GE(t.device_us, 0.0);
  }
  EXPECT_TRUE(device_->take_kernel_timings().empty());
  EXPECT_TRUE(device_->set_kernel_timing(false));
  launch();  // untimed again
  EXPECT_TRUE(device_->take_kernel_timings().empty());
  EXPECT_EQ(download_vector<float>(*device_, dacc, n), std::vector<float>(n, timed + 2.0f));
  device_->release(dstep);
  device_->release(dacc);
}

TEST_P(DeviceConformanceTest, Int64ScalarFollowsAnInt32) {
  if (!device_->limits().supports_int64) GTEST_SKIP() << "the device has no int64";
  KernelId iota = device_->load_kernel(iota64_kernel(device_->kernel_format()));
  const int64_t n = 300, start = (int64_t{1} << 40) + 7;
  DeviceBuffer out = device_->allocate(n * 8);
  device_->upload(out, 0, std::vector<int64_t>(n, -1).data(), n * 8);
  std::vector<DeviceBuffer> buffers = {out};
  std::vector<int64_t> scalars = {n - 1, start};  // the last element stays -1
  device_->launch(iota, {blocks_for(n, 64), 1, 1}, buffers, scalars);
  std::vector<int64_t> expected(n, -1);
  std::iota(expected.begin(), expected.end() - 1, start);
  EXPECT_EQ(download_vector<int64_t>(*device_, out, n), expected);
  device_->release(out);
}

TEST_P(DeviceConformanceTest, ReleaseWhileALaunchIsPendingIsDeferred) {
  KernelId add = load_vector_add();
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

TEST_P(DeviceConformanceTest, ReleasesOfManyPendingLaunchesAreDeferred) {
  KernelId add = load_vector_add();
  const int64_t n = 1 << 20;
  size_t bytes = n * sizeof(float);
  std::vector<int64_t> scalars = {n};
  for (int round = 0; round < 4; ++round) {
    std::vector<DeviceBuffer> args = {device_->allocate(bytes), device_->allocate(bytes),
                                      device_->allocate(bytes)};
    for (int i = 0; i < 8; ++i) device_->launch(add, {n / 64, 1, 1}, args, scalars);
    // Released while the launches may still run: freed once they are done.
    for (DeviceBuffer buffer : args) device_->release(buffer);
  }
  device_->synchronize();
  std::vector<float> a(512, 2.0f), b(512, 0.125f);
  EXPECT_EQ(run_vector_add(*device_, add, a, b), std::vector<float>(512, 2.125f));
}

TEST_P(DeviceConformanceTest, LoadingTheSameKernelTwiceReturnsItsId) {
  KernelId first = load_vector_add();
  EXPECT_EQ(load_vector_add(), first);
}

TEST_P(DeviceConformanceTest, KernelsOfAnotherFormatAreRefused) {
  bool spirv = device_->kernel_format() == KernelFormat::SpirV;
  KernelBinary other = vector_add_kernel(spirv ? KernelFormat::Ptx : KernelFormat::SpirV);
  EXPECT_EQ(runtime_error_of([&] { device_->load_kernel(other); }),
            std::string("kernel 'vector_add' is ") + (spirv ? "PTX" : "SPIR-V") + "; the " +
                std::string(find_device_kind(GetParam().kind)->display_name) + " device runs " +
                (spirv ? "SPIR-V" : "PTX"));
}

TEST_P(DeviceConformanceTest, AbiErrorsNameTheKernelAndArgumentThenTheDeviceWorks) {
  KernelId add = load_vector_add();
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
  std::vector<int64_t> far_too_big = {int64_t{1} << 33};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, three, far_too_big); }),
                       "its value 8589934592 does not fit in int32"));
  std::vector<int64_t> too_small = {-(int64_t{1} << 31) - 1};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, three, too_small); }),
                       "its value -2147483649 does not fit in int32"));
  for (int axis = 0; axis < 2; ++axis) {
    int64_t max = device_->limits().max_grid_size[axis];
    if (max >= UINT32_MAX) continue;
    std::array<uint32_t, 3> beyond = {1, 1, 1};
    beyond[axis] = static_cast<uint32_t>(max + 1);
    std::string grid_text =
        axis == 0 ? std::to_string(max + 1) + ", 1, 1" : "1, " + std::to_string(max + 1) + ", 1";
    EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, beyond, three, n); }),
                         "kernel 'vector_add': grid (" + grid_text + ") has dimension " +
                             std::to_string(axis) + " above the device's maximum"));
  }
  DeviceBuffer gone = device_->allocate(256);
  device_->release(gone);
  std::vector<DeviceBuffer> with_released = {a, b, gone};
  EXPECT_TRUE(contains(runtime_error_of([&] { device_->launch(add, grid, with_released, n); }),
                       "kernel 'vector_add': buffer argument 2 (buffer #" +
                           std::to_string(gone.id) + ") was released or never allocated"));
  EXPECT_TRUE(
      contains(runtime_error_of([&] { device_->launch(add + 100, grid, three, n); }),
               "kernel id " + std::to_string(add + 100) + " was not returned by load_kernel"));
  // A zero grid launches nothing, after the same checks.
  device_->launch(add, {0, 1, 1}, three, n);
  for (DeviceBuffer buffer : three) device_->release(buffer);

  std::vector<float> x = {1, 2, 3}, y = {10, 20, 30};
  EXPECT_EQ(run_vector_add(*device_, add, x, y), (std::vector<float>{11, 22, 33}));
}

}  // namespace
}  // namespace relaxc::runtime
