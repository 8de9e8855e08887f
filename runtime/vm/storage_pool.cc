// StoragePool: free lists keyed by the rounded block size, so that a block freed by one
// call serves the same request in the next without asking the driver.
#include "runtime/vm/storage_pool.h"

#include <algorithm>
#include <cstdint>
#include <new>
#include <string>
#include <utility>

namespace relaxc::runtime::vm {
namespace {

size_t round_up(size_t bytes) {
  size_t g = StoragePool::kGranularity;
  if (bytes == 0) return g;
  if (bytes > SIZE_MAX - g) runtime_error() << "cannot allocate " << bytes << " bytes";
  return (bytes + g - 1) / g * g;
}

}  // namespace

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

std::shared_ptr<Storage> StoragePool::allocate(size_t bytes) {
  size_t size = round_up(bytes);
  auto storage = std::make_shared<Storage>();
  storage->device = device_;
  storage->bytes = size;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bool reused = false;
    if (device_ != nullptr) {
      auto it = free_device_.find(size);
      if (it != free_device_.end()) {
        storage->buffer = it->second;
        free_device_.erase(it);
        reused = true;
      }
    } else {
      auto it = free_host_.find(size);
      if (it != free_host_.end()) {
        storage->host = std::move(it->second);
        free_host_.erase(it);
        reused = true;
      }
    }
    if (reused) {
      ++stats_.reuses;
      stats_.bytes_free -= size;
      stats_.bytes_in_use += size;
      stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
      storage->pool = shared_from_this();
      return storage;
    }
  }
  // A fresh block; when the device refuses, the free blocks go back and it tries again.
  for (int attempt = 0;; ++attempt) {
    try {
      if (device_ != nullptr) {
        storage->buffer = device_->allocate(size);
      } else {
        storage->host.assign(size, 0);
      }
      break;
    } catch (const std::exception& e) {
      if (attempt > 0) {
        runtime_error() << "out of memory: cannot allocate " << size << " bytes on "
                        << (device_ != nullptr ? "device \"" + device_->limits().name + "\""
                                               : std::string("the host"))
                        << ": " << e.what();
      }
      release_free_blocks();
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  ++stats_.fresh_allocations;
  stats_.bytes_in_use += size;
  stats_.peak_bytes_in_use = std::max(stats_.peak_bytes_in_use, stats_.bytes_in_use);
  storage->pool = shared_from_this();
  return storage;
}

void StoragePool::release_free_blocks() {
  std::multimap<size_t, DeviceBuffer> device_blocks;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    device_blocks.swap(free_device_);
    free_host_.clear();
    stats_.bytes_free = 0;
  }
  for (const auto& [size, buffer] : device_blocks) device_->release(buffer);
}

void StoragePool::reset_peak() {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.peak_bytes_in_use = stats_.bytes_in_use;
}

StoragePool::Stats StoragePool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void StoragePool::give_back(Storage& storage) {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t size = storage.bytes;
  stats_.bytes_in_use -= size;
  stats_.bytes_free += size;
  if (device_ != nullptr) {
    free_device_.emplace(size, storage.buffer);
  } else {
    free_host_.emplace(size, std::move(storage.host));
  }
}

}  // namespace relaxc::runtime::vm
