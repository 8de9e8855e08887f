// StoragePool: device storage as ranges of pooled blocks (RangeAllocator), a new block
// only when no free range fits, and the free blocks given back before the pool reports
// the device out of memory.
#include "runtime/vm/storage_pool.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <exception>
#include <string>
#include <utility>

namespace relaxc::runtime::vm {
namespace {

// Vulkan's offset alignments are powers of two, CUDA's is 256.
size_t pool_alignment(const Device* device) {
  uint64_t device_alignment = device != nullptr ? device->limits().buffer_offset_alignment : 0;
  return std::bit_ceil(std::max<size_t>(StoragePool::kGranularity, device_alignment));
}

std::string place(const Device* device) {
  return device != nullptr ? "device \"" + device->limits().name + "\"" : "the host";
}

}  // namespace

StoragePool::StoragePool(Device* device) : device_(device), ranges_(pool_alignment(device)) {}

std::shared_ptr<StoragePool> StoragePool::create(Device* device) {
  return std::shared_ptr<StoragePool>(new StoragePool(device));
}

StoragePool::~StoragePool() {
  try {
    release_free_blocks();
  } catch (const RuntimeError&) {
    // The device is lost; its memory goes with it.
  }
}

std::shared_ptr<Storage> StoragePool::allocate(size_t bytes, std::string_view what) {
  std::optional<size_t> size = ranges_.aligned_size(bytes);
  auto storage = std::make_shared<Storage>();
  storage->device = device_;
  // Host memory is zeroed outside the lock.
  if (size && device_ == nullptr) storage->host.assign(*size, 0);
  std::lock_guard<std::mutex> lock(mutex_);
  if (!size) refuse("", bytes, what, "the size rounded up to the alignment overflows");
  storage->bytes = *size;
  if (device_ == nullptr) {
    ++stats_.fresh_allocations;
    count_in_use(*size);
    stats_.bytes_reserved += *size;
    storage->pool = shared_from_this();
    return storage;
  }
  std::optional<RangeAllocator::Range> range = ranges_.allocate(*size);
  if (range) {
    ++stats_.reuses;
  } else {
    add_block(*size, what);
    range = ranges_.allocate(*size);
  }
  storage->buffer = DeviceBuffer{range->block, range->bytes, range->offset};
  count_in_use(*size);
  storage->pool = shared_from_this();
  return storage;
}

void StoragePool::add_block(size_t size, std::string_view what) {
  uint64_t largest = device_->limits().max_allocation_bytes;
  if (largest != 0 && size > largest) {
    refuse("", size, what,
           "more than the device's largest allocation (" + std::to_string(largest) + " bytes)");
  }
  // A whole block where the device gives one; else the request alone, then the same
  // once the free blocks went back.
  std::string failure;
  auto try_allocate = [&](size_t bytes) {
    try {
      DeviceBuffer buffer = device_->allocate(bytes);
      ranges_.add_block(buffer.id, buffer.bytes);
      blocks_.emplace(buffer.id, buffer);
      ++stats_.fresh_allocations;
      return true;
    } catch (const std::exception& e) {
      failure = e.what();
      return false;
    }
  };
  size_t block = std::max(size, next_block_bytes());
  if (block > size && try_allocate(block)) return;
  if (try_allocate(size)) return;
  trim();
  if (try_allocate(size)) return;
  refuse("out of memory: ", size, what, failure);
}

size_t StoragePool::next_block_bytes() const {
  const size_t full = device_->limits().pool_block_bytes;
  size_t largest_held = 0;
  for (const auto& [id, buffer] : blocks_) largest_held = std::max(largest_held, buffer.bytes);
  if (largest_held == 0) return full / kFirstBlockDivisor;
  return largest_held >= full / 2 ? full : 2 * largest_held;
}

void StoragePool::release_free_blocks() {
  std::lock_guard<std::mutex> lock(mutex_);
  trim();
}

void StoragePool::trim() {
  for (uint64_t id : ranges_.remove_free_blocks()) {
    auto it = blocks_.find(id);
    DeviceBuffer buffer = it->second;
    blocks_.erase(it);
    ++stats_.blocks_released;
    device_->release(buffer);
  }
}

void StoragePool::reset_peak() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_bytes_in_use = stats_.bytes_in_use;
}

StoragePool::Stats StoragePool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats stats = stats_;
  if (device_ != nullptr) {
    stats.bytes_reserved = ranges_.bytes_reserved();
    stats.bytes_free = ranges_.bytes_free();
    stats.largest_free_range = ranges_.largest_free_range();
    stats.blocks = static_cast<int64_t>(ranges_.block_count());
  }
  return stats;
}

void StoragePool::give_back(Storage& storage) {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.bytes_in_use -= storage.bytes;
  if (device_ != nullptr) {
    ranges_.free({storage.buffer.id, storage.buffer.offset, storage.buffer.bytes});
  } else {
    stats_.bytes_reserved -= storage.bytes;
  }
}

void StoragePool::count_in_use(size_t bytes) {
  stats_.bytes_in_use += bytes;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
}

void StoragePool::refuse(std::string_view problem, size_t bytes, std::string_view what,
                         const std::string& why) const {
  runtime_error() << problem << "cannot allocate " << bytes << " bytes for " << what << " on "
                  << place(device_) << ": " << why << " (the pool has " << stats_.bytes_in_use
                  << " bytes in use of " << ranges_.bytes_reserved()
                  << " reserved, the largest free range " << ranges_.largest_free_range()
                  << " bytes)";
}

}  // namespace relaxc::runtime::vm
