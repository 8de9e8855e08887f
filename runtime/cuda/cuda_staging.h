// Pinned (page-locked) host memory for large transfers: a ring of slots, each with an
// event that marks when the stream's last copy through it has finished.
#pragma once
#include <cstddef>
#include <vector>

#include "runtime/cuda/cuda_loader.h"

namespace relaxc::runtime {

// Copies between pageable host memory and the device go through a bounce buffer the
// driver manages, synchronously with the host; copying through pinned slots lets the
// host fill (or drain) one slot while the DMA engine moves another. The slots are
// allocated on first use, so a device that only makes small copies never pins memory.
// The owner makes the device's context current around every call.
class PinnedStaging {
 public:
  static constexpr size_t kSlotBytes = size_t{4} << 20;
  static constexpr size_t kSlotCount = 4;

  struct Slot {
    void* data = nullptr;
    CUevent done = nullptr;  // recorded after the last copy that uses the slot
    bool pending = false;    // `done` was recorded and not waited for
  };

  PinnedStaging(const CudaDriver& driver, CUstream stream);
  ~PinnedStaging();
  PinnedStaging(const PinnedStaging&) = delete;
  PinnedStaging& operator=(const PinnedStaging&) = delete;

  // Slot `index` (modulo kSlotCount), once the copies that used it have finished.
  Slot& wait(size_t index);
  // Marks the slot busy until the work enqueued on the stream so far has finished.
  void record(Slot& slot);
  // The slot after the one `next_slot` returned last (for uploads, which do not wait
  // for their own copies: the ring's length is how far they run ahead).
  size_t next_slot() { return cursor_++; }

 private:
  void allocate();
  void free_slots();

  const CudaDriver& driver_;
  CUstream stream_;
  std::vector<Slot> slots_;
  size_t cursor_ = 0;
};

}  // namespace relaxc::runtime
