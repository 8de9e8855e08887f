// The storage pool over a fake device in host memory with a capacity: ranges of few
// device allocations, the device's offset alignment, dedicated blocks for large
// requests, statistics counted by hand, trim, and out-of-memory errors that name the
// request and the pool's state and leave the pool (and a VM over it) usable. Then the
// same pool on Vulkan (lavapipe here).
#include "runtime/vm/storage_pool.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/device_harness.h"
#include "tests/support/errors.h"
#include "tests/unit/vm_test_support.h"

namespace relaxc::testing {
namespace {

using runtime::DeviceBuffer;

// Host memory with at most `capacity` bytes allocated at once; counts driver calls.
class FakeDevice : public runtime::Device {
 public:
  FakeDevice(size_t capacity, uint64_t block_bytes, uint64_t alignment = 0,
             uint64_t max_allocation = 0)
      : capacity_(capacity) {
    limits_.name = "fake";
    limits_.pool_block_bytes = block_bytes;
    limits_.buffer_offset_alignment = alignment;
    limits_.max_allocation_bytes = max_allocation;
  }
  const runtime::DeviceLimits& limits() const override { return limits_; }
  runtime::KernelFormat kernel_format() const override { return runtime::KernelFormat::SpirV; }
  DeviceBuffer allocate(size_t bytes) override {
    if (bytes > capacity_ - used_) {
      runtime::runtime_error() << "the fake device has " << capacity_ - used_ << " bytes left";
    }
    ++allocations;
    used_ += bytes;
    DeviceBuffer b{next_id_++, bytes, 0};
    memory_[b.id].assign(bytes, 0);
    return b;
  }
  void release(DeviceBuffer b) override {
    ++releases;
    used_ -= memory_.at(b.id).size();
    memory_.erase(b.id);
  }
  void upload(DeviceBuffer dst, size_t offset, const void* src, size_t bytes) override {
    std::memcpy(memory_.at(dst.id).data() + dst.offset + offset, src, bytes);
  }
  void download(void* dst, DeviceBuffer src, size_t offset, size_t bytes) override {
    std::memcpy(dst, memory_.at(src.id).data() + src.offset + offset, bytes);
  }
  void copy(DeviceBuffer, size_t, DeviceBuffer, size_t, size_t) override {}
  runtime::KernelId load_kernel(const runtime::KernelBinary&) override { return 0; }
  void launch(runtime::KernelId, std::array<uint32_t, 3>, std::span<const DeviceBuffer>,
              std::span<const int64_t>) override {}
  void synchronize() override {}
  runtime::LaunchStats launch_stats() const override { return {}; }

  size_t live() const { return memory_.size(); }
  int allocations = 0, releases = 0;

 private:
  runtime::DeviceLimits limits_;
  size_t capacity_, used_ = 0;
  std::map<uint64_t, std::vector<uint8_t>> memory_;
  uint64_t next_id_ = 1;
};

constexpr size_t kKiB = 1024;

TEST(StoragePoolTest, RangesOfOneBlockWithStatisticsCountedByHand) {
  FakeDevice device(kKiB * kKiB, 64 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  auto a = pool->allocate(1000);  // 1024 bytes
  auto b = pool->allocate(3000);  // 3072 bytes
  EXPECT_EQ(device.allocations, 1);
  EXPECT_EQ(a->buffer.id, b->buffer.id);
  EXPECT_EQ(a->buffer.offset, 0u);
  EXPECT_EQ(a->buffer.bytes, 1024u);
  EXPECT_EQ(b->buffer.offset, 1024u);
  EXPECT_EQ(b->buffer.bytes, 3072u);
  vm::StoragePool::Stats stats = pool->stats();
  EXPECT_EQ(stats.bytes_in_use, 4096u);
  EXPECT_EQ(stats.peak_bytes_in_use, 4096u);
  // The first block is a sixteenth of the device's block size: 4 KiB, full now.
  EXPECT_EQ(stats.bytes_reserved, 4 * kKiB);
  EXPECT_EQ(stats.bytes_free, 0u);
  EXPECT_EQ(stats.largest_free_range, 0u);
  EXPECT_EQ(stats.blocks, 1);
  EXPECT_EQ(stats.fresh_allocations, 1);
  EXPECT_EQ(stats.reuses, 1);  // b came from the reserved block
  a.reset();
  stats = pool->stats();
  EXPECT_EQ(stats.bytes_in_use, 3072u);
  EXPECT_EQ(stats.peak_bytes_in_use, 4096u);
  pool->reset_peak();
  EXPECT_EQ(pool->stats().peak_bytes_in_use, 3072u);
  auto c = pool->allocate(512);  // best fit: the freed 1024 at offset 0
  EXPECT_EQ(c->buffer.offset, 0u);
  EXPECT_EQ(pool->stats().peak_bytes_in_use, 3072u + 512u);
  // Data written to one range stays apart from its neighbours.
  std::vector<uint8_t> ones(512, 1), twos(3072, 2), back(512);
  device.upload(c->buffer, 0, ones.data(), ones.size());
  device.upload(b->buffer, 0, twos.data(), twos.size());
  device.download(back.data(), c->buffer, 0, back.size());
  EXPECT_EQ(back, ones);
}

// Blocks double from a sixteenth of the device's block size up to it; with every block
// given back, the next starts small again.
TEST(StoragePoolTest, BlocksGrowFromASixteenthToTheDeviceBlockSize) {
  FakeDevice device(kKiB * kKiB, 64 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  std::vector<std::shared_ptr<vm::Storage>> held;
  std::vector<int> blocks;
  for (size_t kib : {4, 8, 16, 32, 64, 64}) {  // each fills the block it makes
    held.push_back(pool->allocate(kib * kKiB));
    blocks.push_back(device.allocations);
  }
  EXPECT_EQ(blocks, (std::vector<int>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(pool->stats().bytes_reserved, (4 + 8 + 16 + 32 + 64 + 64) * kKiB);
  EXPECT_EQ(pool->stats().bytes_free, 0u);
  held.clear();
  pool->release_free_blocks();
  auto small = pool->allocate(kKiB);
  EXPECT_EQ(pool->stats().bytes_reserved, 4 * kKiB);
}

TEST(StoragePoolTest, OffsetsFollowTheDeviceAlignment) {
  FakeDevice device(kKiB * kKiB, 64 * kKiB, /*alignment=*/1024);
  auto pool = vm::StoragePool::create(&device);
  EXPECT_EQ(pool->alignment(), 1024u);
  auto a = pool->allocate(4), b = pool->allocate(1025), c = pool->allocate(1);
  EXPECT_EQ(b->buffer.offset, 1024u);
  EXPECT_EQ(c->buffer.offset, 3072u);
  EXPECT_EQ(pool->stats().bytes_in_use, 4096u);
}

TEST(StoragePoolTest, ARequestLargerThanABlockGetsABlockOfItsOwn) {
  FakeDevice device(kKiB * kKiB, 64 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  auto small = pool->allocate(256);
  auto large = pool->allocate(100 * kKiB);
  EXPECT_EQ(device.allocations, 2);
  EXPECT_NE(large->buffer.id, small->buffer.id);
  EXPECT_EQ(pool->stats().bytes_reserved, 104 * kKiB);
  large.reset();
  // The freed large block serves later requests instead of a new block.
  auto again = pool->allocate(80 * kKiB);
  EXPECT_EQ(device.allocations, 2);
}

TEST(StoragePoolTest, TrimGivesBackTheBlocksWithNothingInUse) {
  FakeDevice device(kKiB * kKiB, 64 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  auto held = pool->allocate(60 * kKiB);   // a block of its size, past the first's 4 KiB
  auto freed = pool->allocate(60 * kKiB);  // a second block, of 64 KiB
  freed.reset();
  EXPECT_EQ(pool->stats().blocks, 2);
  pool->release_free_blocks();
  vm::StoragePool::Stats stats = pool->stats();
  EXPECT_EQ(stats.blocks, 1);
  EXPECT_EQ(stats.blocks_released, 1);
  EXPECT_EQ(stats.bytes_reserved, 60 * kKiB);
  EXPECT_EQ(device.live(), 1u);
  held.reset();
  pool->release_free_blocks();
  EXPECT_EQ(device.live(), 0u);
  EXPECT_EQ(pool->stats().bytes_reserved, 0u);
}

TEST(StoragePoolTest, OutOfMemoryTrimsAndTriesAgain) {
  FakeDevice device(192 * kKiB, 64 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  auto held = pool->allocate(60 * kKiB);
  auto freed = pool->allocate(60 * kKiB);
  freed.reset();
  // 100 KiB fit no free range and the device has 68 KiB left, until block 2 (64 KiB)
  // goes back.
  auto large = pool->allocate(100 * kKiB);
  EXPECT_EQ(pool->stats().blocks_released, 1);
  EXPECT_EQ(pool->stats().bytes_reserved, 160 * kKiB);
}

TEST(StoragePoolTest, OutOfMemoryNamesTheRequestAndThePoolThenThePoolWorks) {
  FakeDevice device(128 * kKiB, 64 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  auto a = pool->allocate(60 * kKiB), b = pool->allocate(60 * kKiB);
  // Block 1 (60 KiB) is full, block 2 (64 KiB) has 4 KiB free, the device 4 KiB left.
  EXPECT_EQ(runtime_error_of([&] { pool->allocate(8 * kKiB, "a tensor"); }),
            "out of memory: cannot allocate 8192 bytes for a tensor on device \"fake\": the "
            "fake device has 4096 bytes left (the pool has 122880 bytes in use of 126976 "
            "reserved, the largest free range 4096 bytes)");
  EXPECT_EQ(pool->stats().bytes_in_use, 120 * kKiB);
  auto fits = pool->allocate(4 * kKiB);
  b.reset();
  auto after = pool->allocate(8 * kKiB);
  EXPECT_EQ(after->buffer.id, 2u);
}

TEST(StoragePoolTest, ARequestPastTheLargestAllocationIsRefused) {
  FakeDevice device(kKiB * kKiB, 64 * kKiB, 0, /*max_allocation=*/256 * kKiB);
  auto pool = vm::StoragePool::create(&device);
  EXPECT_EQ(runtime_error_of([&] { pool->allocate(300 * kKiB, "a kernel workspace"); }),
            "cannot allocate 307200 bytes for a kernel workspace on device "
            "\"fake\": more than the device's largest allocation (262144 bytes) (the pool has 0 "
            "bytes in use of 0 reserved, the largest free range 0 bytes)");
  EXPECT_EQ(device.allocations, 0);
  auto fits = pool->allocate(256 * kKiB);
  EXPECT_EQ(device.allocations, 1);
  EXPECT_TRUE(runtime_error_of([&] { pool->allocate(SIZE_MAX); })
                  .starts_with("cannot allocate " + std::to_string(SIZE_MAX) +
                               " bytes for storage on device \"fake\": the size rounded up"));
}

TEST(StoragePoolTest, HostStorageCountsItsBytes) {
  auto pool = vm::StoragePool::create(nullptr);
  auto a = pool->allocate(100);
  EXPECT_EQ(a->host.size(), 256u);
  vm::StoragePool::Stats stats = pool->stats();
  EXPECT_EQ(stats.bytes_in_use, 256u);
  EXPECT_EQ(stats.bytes_reserved, 256u);
  a.reset();
  EXPECT_EQ(pool->stats().bytes_in_use, 0u);
  EXPECT_EQ(pool->stats().peak_bytes_in_use, 256u);
}

// A VM whose call runs out of device memory reports it and runs the next, smaller call.
TEST(StoragePoolTest, TheVmStaysUsableAfterOutOfMemory) {
  ExecutableBuilder b;
  int64_t big = b.shape({200 * 1024}), small = b.shape({1000}), global = b.string("global");
  int64_t u8 = b.dtype(runtime::DType::UInt(8));
  for (auto [name, size] : {std::pair{"big", big}, std::pair{"small", small}}) {
    b.function(name, {}, 2);
    b.call(0, "vm.builtin.alloc_storage", {cst(size), imm(0), cst(global), cst(u8)});
    b.call(1, "vm.builtin.alloc_storage", {cst(size), imm(0), cst(global), cst(u8)});
    b.ret(1);
  }
  FakeDevice device(256 * kKiB, 64 * kKiB);
  vm::VirtualMachine machine(b.finish(), device);
  // The first 200 KiB take a block of their own; the second find 56 KiB left.
  EXPECT_EQ(runtime_error_of([&] { machine.call("big", {}); }),
            "in big, instruction 1: out of memory: cannot allocate 204800 bytes for "
            "vm.builtin.alloc_storage on device "
            "\"fake\": the fake device has 57344 bytes left (the pool has 204800 bytes in use of "
            "204800 reserved, the largest free range 0 bytes)");
  EXPECT_EQ(machine.device_pool().stats().bytes_in_use, 0u);
  vm::Value kept = machine.call("small", {});
  EXPECT_EQ(kept.as_storage()->bytes, 1024u);
}

// On Vulkan: many tensors share one VkDeviceMemory, each range keeps its own data, and
// a request past maxMemoryAllocationSize is refused with the pool usable after.
TEST(StoragePoolTest, RangesOfOneBlockOnVulkan) {
  std::string why_not;
  runtime::Device* device = test_device(TargetKind::Vulkan, &why_not);
  if (device == nullptr) GTEST_SKIP() << "no Vulkan device: " << why_not;
  auto pool = vm::StoragePool::create(device);
  std::vector<std::shared_ptr<vm::Storage>> storages;
  for (uint8_t i = 0; i < 100; ++i) {
    storages.push_back(pool->allocate(10000));
    std::vector<uint8_t> fill(10000, i);
    device->upload(storages.back()->buffer, 0, fill.data(), fill.size());
  }
  vm::StoragePool::Stats stats = pool->stats();
  EXPECT_EQ(stats.blocks, 1);
  EXPECT_EQ(stats.fresh_allocations, 1);
  EXPECT_EQ(stats.bytes_in_use, 100u * 10240u);  // 10000 rounded up to 256
  for (uint8_t i = 0; i < 100; ++i) {
    std::vector<uint8_t> back(10000);
    device->download(back.data(), storages[i]->buffer, 0, back.size());
    ASSERT_EQ(back, std::vector<uint8_t>(10000, i)) << "storage " << int{i};
  }
  uint64_t largest = device->limits().max_allocation_bytes;
  if (largest != 0 && largest < SIZE_MAX - 4096) {
    EXPECT_TRUE(runtime_error_of([&] { pool->allocate(largest + 4096, "a tensor"); })
                    .ends_with("more than the device's largest allocation (" +
                               std::to_string(largest) + " bytes) (the pool has 1024000 bytes " +
                               "in use of " + std::to_string(stats.bytes_reserved) +
                               " reserved, the largest free range " +
                               std::to_string(stats.bytes_reserved - 1024000) + " bytes)"));
  }
  storages.clear();
  EXPECT_EQ(pool->allocate(1000)->buffer.offset, 0u);
  pool->release_free_blocks();
  EXPECT_EQ(pool->stats().bytes_reserved, 0u);
  std::vector<std::string> messages = validation_messages(TargetKind::Vulkan);
  EXPECT_TRUE(messages.empty()) << "validation layer: " << messages.front();
}

}  // namespace
}  // namespace relaxc::testing
