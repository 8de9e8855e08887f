// The pinned staging ring: slots allocated with cuMemAllocHost on first use, each reused
// only after the event recorded behind its last copy has completed.
#include "runtime/cuda/cuda_staging.h"

namespace relaxc::runtime {

PinnedStaging::PinnedStaging(const CudaDriver& driver, CUstream stream)
    : driver_(driver), stream_(stream) {}

PinnedStaging::~PinnedStaging() { free_slots(); }

void PinnedStaging::free_slots() {
  // The device synchronized its stream before destroying the ring, so no copy still reads
  // or writes a slot; errors cannot be reported from a destructor.
  for (Slot& slot : slots_) {
    if (slot.done != nullptr) (void)driver_.cuEventDestroy(slot.done);
    if (slot.data != nullptr) (void)driver_.cuMemFreeHost(slot.data);
  }
  slots_.clear();
}

void PinnedStaging::allocate() {
  try {
    for (size_t i = 0; i < kSlotCount; ++i) {
      Slot& slot = slots_.emplace_back();
      driver_.check(driver_.cuMemAllocHost(&slot.data, kSlotBytes), "cuMemAllocHost",
                    "allocating pinned staging memory");
      driver_.check(driver_.cuEventCreate(&slot.done, kCuEventDisableTiming), "cuEventCreate",
                    "creating a staging event");
    }
  } catch (const RuntimeError&) {
    free_slots();  // all or nothing: a later transfer tries again
    throw;
  }
}

PinnedStaging::Slot& PinnedStaging::wait(size_t index) {
  if (slots_.empty()) allocate();
  Slot& slot = slots_[index % kSlotCount];
  if (slot.pending) {
    driver_.check(driver_.cuEventSynchronize(slot.done), "cuEventSynchronize",
                  "waiting for a staged copy");
    slot.pending = false;
  }
  return slot;
}

void PinnedStaging::record(Slot& slot) {
  driver_.check(driver_.cuEventRecord(slot.done, stream_), "cuEventRecord",
                "recording a staged copy");
  slot.pending = true;
}

}  // namespace relaxc::runtime
