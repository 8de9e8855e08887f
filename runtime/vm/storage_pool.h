// StoragePool: the memory the VM allocates tensors from, one per device (and one for
// the host). A freed block goes onto a free list by size and is handed out again for a
// request of the same (rounded) size, so steady-state calls allocate nothing from the
// driver.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/vm/value.h"

namespace relaxc::runtime::vm {

class StoragePool : public std::enable_shared_from_this<StoragePool> {
 public:
  // `device` null: host memory. The device must outlive the pool and every storage.
  static std::shared_ptr<StoragePool> create(Device* device);
  ~StoragePool();  // releases the free blocks (blocks in use return to nobody)

  // A block of at least `bytes` (sizes round up to a multiple of kGranularity; zero
  // bytes gives a block of kGranularity), reused from the free list when one of that
  // size is there. RuntimeError when the device is out of memory after the free list
  // was released.
  std::shared_ptr<Storage> allocate(size_t bytes);
  // Gives the free blocks back to the device.
  void release_free_blocks();
  // Starts a new peak: peak_bytes_in_use := bytes_in_use.
  void reset_peak();

  struct Stats {
    size_t bytes_in_use = 0;     // blocks handed out
    size_t peak_bytes_in_use = 0;  // the most bytes_in_use since creation or reset_peak
    size_t bytes_free = 0;       // blocks on the free list
    int64_t fresh_allocations = 0;  // blocks the device allocated
    int64_t reuses = 0;             // requests served from the free list
  };
  Stats stats() const;
  Device* device() const { return device_; }

  static constexpr size_t kGranularity = 256;

 private:
  explicit StoragePool(Device* device) : device_(device) {}
  friend struct Storage;
  void give_back(Storage& storage);  // from ~Storage

  Device* device_;
  // Storage may die on any thread (a tensor held by the embedding program).
  mutable std::mutex mutex_;
  std::multimap<size_t, DeviceBuffer> free_device_;
  std::multimap<size_t, std::vector<uint8_t>> free_host_;
  Stats stats_;
};

}  // namespace relaxc::runtime::vm
