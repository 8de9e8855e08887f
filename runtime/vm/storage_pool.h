// StoragePool: the memory the VM allocates storage from, one per device (and one for
// the host). On a device it sub-allocates: a few large device allocations (blocks),
// carved into aligned ranges by a RangeAllocator, so that steady-state calls allocate
// nothing from the driver and the driver holds few allocations. Blocks grow: the first
// is a sixteenth of the device's pool_block_bytes (4 MiB of 64 MiB), each next one
// twice the largest held, up to pool_block_bytes; a request larger than that gets a
// block of its size. A small model (a phone's) reserves little, and a large one reaches
// full blocks after four. Host storage is plain heap memory, which malloc already pools.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "runtime/vm/range_allocator.h"
#include "runtime/vm/value.h"

namespace relaxc::runtime::vm {

class StoragePool : public std::enable_shared_from_this<StoragePool> {
 public:
  // `device` null: host memory. The device must outlive the pool and every storage.
  static std::shared_ptr<StoragePool> create(Device* device);
  ~StoragePool();  // releases the free blocks (blocks in use return to nobody)

  // Storage of at least `bytes`: sizes round up to a multiple of alignment() (zero bytes
  // give one unit). `what` names the use ("a tensor") in errors. RuntimeError when the
  // request is past the device's largest allocation, or when the device is out of
  // memory even after the free blocks went back to it: the message names the request
  // and the pool's state, and the pool stays usable.
  std::shared_ptr<Storage> allocate(size_t bytes, std::string_view what = "storage");
  // Trim: gives the blocks with nothing in use back to the device.
  void release_free_blocks();
  // The peak restarts from the bytes in use now.
  void reset_peak();

  struct Stats {
    size_t bytes_in_use = 0;       // storage handed out and not yet given back
    size_t peak_bytes_in_use = 0;  // max of bytes_in_use since creation or reset_peak
    size_t bytes_reserved = 0;     // held from the device (the host: bytes_in_use)
    size_t bytes_free = 0;         // reserved and not in use
    size_t largest_free_range = 0;
    int64_t blocks = 0;             // device allocations held
    int64_t fresh_allocations = 0;  // device allocations made (host: every request)
    int64_t reuses = 0;             // requests served from memory already reserved
    int64_t blocks_released = 0;    // blocks given back to the device
  };
  Stats stats() const;
  Device* device() const { return device_; }
  size_t alignment() const { return ranges_.alignment(); }

  static constexpr size_t kGranularity = 256;
  // The first block is the device's pool_block_bytes over this.
  static constexpr size_t kFirstBlockDivisor = 16;

 private:
  explicit StoragePool(Device* device);
  friend struct Storage;
  void give_back(Storage& storage);  // from ~Storage
  // A new block for a request of `size` bytes (the lock held); RuntimeError when the
  // device refuses even after the free blocks went back.
  void add_block(size_t size, std::string_view what);
  // The size of the next block, before the request's own size (the lock held).
  size_t next_block_bytes() const;
  void trim();  // the lock held
  // The error refusing a request, with the pool's state (the lock held); `problem`
  // starts it ("out of memory: ").
  [[noreturn]] void refuse(std::string_view problem, size_t bytes, std::string_view what,
                           const std::string& why) const;
  void count_in_use(size_t bytes);

  Device* device_;
  // Storage may die on any thread (a tensor held by the embedding program).
  mutable std::mutex mutex_;
  RangeAllocator ranges_;
  std::map<uint64_t, DeviceBuffer> blocks_;  // by DeviceBuffer id, the RangeAllocator's name
  Stats stats_;
};

}  // namespace relaxc::runtime::vm
