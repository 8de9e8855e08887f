// The CUDA implementation of Device: device choice and limits, a primary context and one
// non-blocking stream that orders every copy and launch, the buffers (a BufferTable),
// transfers (pinned staging for large ones), and launches (checked by check_launch),
// which go through CudaLaunchRuns: a run of launches that repeats is replayed as a CUDA
// graph, so every other use of the stream first closes the open run.
// A buffer released while the stream may still use it is freed once an event recorded
// behind that work has completed, so that release never waits for the device.
#include "runtime/cuda/cuda_device.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/buffer_table.h"
#include "runtime/cuda/cuda_kernels.h"
#include "runtime/cuda/cuda_launch_runs.h"
#include "runtime/cuda/cuda_loader.h"
#include "runtime/cuda/cuda_staging.h"
#include "runtime/kernel_checks.h"

namespace relaxc::runtime {
namespace {

// Below this, copies go straight from or to pageable memory: the driver copies small
// transfers through its own buffers at least as fast as staging them would.
constexpr size_t kDirectCopyBytes = size_t{64} << 10;
// The kernel parameter space: 4 KiB on every architecture CUDA 12 supports.
constexpr int64_t kKernelParamBytes = 4096;

DeviceLimits query_limits(const CudaDriver& driver, CUdevice device) {
  DeviceLimits limits;
  char name[256] = {};
  driver.check(driver.cuDeviceGetName(name, static_cast<int>(sizeof(name)) - 1, device),
               "cuDeviceGetName");
  limits.name = name;
  auto attribute = [&](CUdevice_attribute which) {
    int value = 0;
    driver.check(driver.cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute",
                 "reading the limits of \"" + limits.name + "\"");
    return value;
  };
  limits.is_cpu = false;
  limits.is_discrete = attribute(CU_DEVICE_ATTRIBUTE_INTEGRATED) == 0;
  limits.max_threads_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  limits.max_block_size = {attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                           attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                           attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
  limits.max_grid_size = {attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                          attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                          attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
  // Static shared memory (the only kind the kernels use) is limited to this; the larger
  // opt-in amount needs dynamic shared memory.
  limits.max_shared_memory_bytes = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  limits.max_push_constant_bytes = kKernelParamBytes;
  limits.subgroup_size = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  int major = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  int minor = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  limits.compute_capability = 10 * major + minor;
  limits.supports_fp16 = limits.compute_capability >= 53;  // half arithmetic from sm_53
  limits.supports_fp64 = true;
  limits.supports_int8 = true;
  limits.supports_int16 = true;
  limits.supports_int64 = true;
  limits.supports_subgroup_arithmetic = true;  // warp shuffles
  limits.api_version_major = driver.version / 1000;
  limits.api_version_minor = driver.version % 1000 / 10;
  // cuMemAlloc aligns to 256 bytes; kernels load vectors of at most 16 from any buffer.
  limits.buffer_offset_alignment = 256;
  limits.pool_block_bytes = kPoolBlockBytes;
  return limits;
}

int device_count(const CudaDriver& driver) {
  int count = 0;
  driver.check(driver.cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

// The ordinal `options` asks for (or RELAXC_CUDA_DEVICE, else 0), checked against the
// devices present.
int choose_ordinal(const CudaDriver& driver, const CudaOptions& options) {
  int count = device_count(driver);
  std::string origin = "CudaOptions::device=" + std::to_string(options.device);
  int ordinal = options.device;
  if (ordinal < -1) {
    runtime_error() << origin << " is not a device ordinal (-1 chooses by RELAXC_CUDA_DEVICE)";
  }
  if (ordinal == -1) {
    ordinal = 0;
    origin = "the default device 0";
    if (const char* env = std::getenv("RELAXC_CUDA_DEVICE"); env != nullptr && *env != '\0') {
      origin = std::string("RELAXC_CUDA_DEVICE=") + env;
      char* end = nullptr;
      long long value = std::strtoll(env, &end, 10);
      if (*end != '\0' || value < 0 || value > 1'000'000) {
        runtime_error() << origin << " is not a device ordinal; expected an integer from 0 to "
                        << std::max(count - 1, 0);
      }
      ordinal = static_cast<int>(value);
    }
  }
  if (ordinal >= count) {
    std::string present;
    for (int i = 0; i < count; ++i) {
      CUdevice device = 0;
      driver.check(driver.cuDeviceGet(&device, i), "cuDeviceGet");
      char name[256] = {};
      driver.check(driver.cuDeviceGetName(name, static_cast<int>(sizeof(name)) - 1, device),
                   "cuDeviceGetName");
      present +=
          std::string(present.empty() ? ": " : ", ") + std::to_string(i) + " \"" + name + "\"";
    }
    runtime_error() << origin << " is out of range: the driver reports " << count
                    << " CUDA device(s)" << present;
  }
  return ordinal;
}

class CudaDeviceImpl final : public CudaDevice {
 public:
  CudaDeviceImpl(const CudaDriver& driver, CUdevice device, DeviceLimits limits, bool replay)
      : driver_(driver), device_(device), limits_(std::move(limits)), replay_(replay) {}

  // Separate from the constructor so that the destructor undoes a partial open.
  void open() {
    driver_.check(driver_.cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain",
                  "opening \"" + limits_.name + "\"");
    ScopedCudaContext scope(driver_, context_);
    // Non-blocking: the stream does not wait for work a host program puts on the legacy
    // default stream, nor that work for it.
    driver_.check(driver_.cuStreamCreate(&stream_, kCuStreamNonBlocking), "cuStreamCreate",
                  "opening \"" + limits_.name + "\"");
    staging_ = std::make_unique<PinnedStaging>(driver_, stream_);
    kernels_ = std::make_unique<CudaKernelCache>(driver_, limits_);
    runs_ = std::make_unique<CudaLaunchRuns>(driver_, stream_, replay_);
  }

  ~CudaDeviceImpl() override {
    if (context_ == nullptr) return;
    // Nothing may be freed while the stream uses it; errors (a lost device) cannot be
    // reported from a destructor, and everything is freed all the same.
    if (driver_.cuCtxPushCurrent(context_) == CUDA_SUCCESS) {
      if (stream_ != nullptr) (void)driver_.cuStreamSynchronize(stream_);
      for (const PendingFree& pending : pending_frees_) {
        (void)driver_.cuMemFree(pending.address);
        (void)driver_.cuEventDestroy(pending.done);
      }
      destroy_timed_launches();
      runs_.reset();
      for (const auto& [id, entry] : buffers_.entries()) {
        if (entry.address != 0) (void)driver_.cuMemFree(entry.address);
      }
      kernels_.reset();
      staging_.reset();
      if (stream_ != nullptr) (void)driver_.cuStreamDestroy(stream_);
      CUcontext popped = nullptr;
      (void)driver_.cuCtxPopCurrent(&popped);
    }
    (void)driver_.cuDevicePrimaryCtxRelease(device_);
  }

  const DeviceLimits& limits() const override { return limits_; }
  KernelFormat kernel_format() const override { return KernelFormat::Ptx; }

  DeviceBuffer allocate(size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ScopedCudaContext scope(driver_, context_);
    free_completed();
    BufferEntry entry{0, bytes};
    // cuMemAlloc refuses 0 bytes: an empty DeviceBuffer holds no allocation.
    if (bytes > 0) {
      CUresult result = driver_.cuMemAlloc(&entry.address, bytes);
      if (result == CUDA_ERROR_OUT_OF_MEMORY && !pending_frees_.empty()) {
        // Memory released while the stream used it comes back once the stream is done.
        driver_.check(driver_.cuStreamSynchronize(stream_), "cuStreamSynchronize");
        free_completed();
        result = driver_.cuMemAlloc(&entry.address, bytes);
      }
      driver_.check(result, "cuMemAlloc",
                    "allocating " + std::to_string(bytes) + " bytes on \"" + limits_.name + "\"");
    }
    return buffers_.add(entry);
  }

  void release(DeviceBuffer buffer) override {
    std::lock_guard<std::mutex> lock(mutex_);
    CUdeviceptr address = buffers_.remove(buffer).address;
    if (address == 0) return;
    ScopedCudaContext scope(driver_, context_);
    runs_->close();  // launches waiting in the run may use the buffer
    CUresult idle = driver_.cuStreamQuery(stream_);
    if (idle == CUDA_SUCCESS) {
      driver_.check(driver_.cuMemFree(address), "cuMemFree", "releasing " + buffer_name(buffer));
    } else if (idle == CUDA_ERROR_NOT_READY) {
      PendingFree pending{address, nullptr};
      driver_.check(driver_.cuEventCreate(&pending.done, kCuEventDisableTiming), "cuEventCreate",
                    "releasing " + buffer_name(buffer));
      pending_frees_.push_back(pending);
      driver_.check(driver_.cuEventRecord(pending.done, stream_), "cuEventRecord",
                    "releasing " + buffer_name(buffer));
    } else {
      driver_.check(idle, "cuStreamQuery", "releasing " + buffer_name(buffer));
    }
    free_completed();
  }

  void upload(DeviceBuffer dst, size_t dst_offset, const void* src, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [entry, at] = buffers_.lookup(dst, "upload", dst_offset, bytes);
    CUdeviceptr address = entry.address + at;
    if (bytes == 0) return;
    if (src == nullptr) runtime_error() << "upload: the host source is null";
    ScopedCudaContext scope(driver_, context_);
    runs_->close();
    const std::string what = "uploading to " + buffer_name(dst);
    if (bytes < kDirectCopyBytes) {
      // From pageable memory the driver has consumed `src` when the call returns.
      driver_.check(driver_.cuMemcpyHtoDAsync(address, src, bytes, stream_), "cuMemcpyHtoDAsync",
                    what);
      return;
    }
    const auto* host = static_cast<const uint8_t*>(src);
    for (size_t done = 0; done < bytes;) {
      size_t piece = std::min(PinnedStaging::kSlotBytes, bytes - done);
      PinnedStaging::Slot& slot = staging_->wait(staging_->next_slot());
      std::memcpy(slot.data, host + done, piece);
      driver_.check(driver_.cuMemcpyHtoDAsync(address + done, slot.data, piece, stream_),
                    "cuMemcpyHtoDAsync", what);
      staging_->record(slot);
      done += piece;
    }
  }

  void download(void* dst, DeviceBuffer src, size_t src_offset, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [entry, at] = buffers_.lookup(src, "download", src_offset, bytes);
    CUdeviceptr address = entry.address + at;
    if (bytes == 0) return;
    if (dst == nullptr) runtime_error() << "download: the host destination is null";
    ScopedCudaContext scope(driver_, context_);
    runs_->close();
    const std::string what = "downloading from " + buffer_name(src);
    auto* host = static_cast<uint8_t*>(dst);
    if (bytes < kDirectCopyBytes) {
      driver_.check(driver_.cuMemcpyDtoHAsync(host, address, bytes, stream_), "cuMemcpyDtoHAsync",
                    what);
      driver_.check(driver_.cuStreamSynchronize(stream_), "cuStreamSynchronize", what);
      free_completed();
      return;
    }
    // Up to kSlotCount pieces in flight: the host drains the oldest while the DMA engine
    // fills the others.
    struct Piece {
      size_t slot, at, bytes;
    };
    std::deque<Piece> in_flight;
    for (size_t next = 0; next < bytes || !in_flight.empty();) {
      if (next < bytes && in_flight.size() < PinnedStaging::kSlotCount) {
        Piece piece{staging_->next_slot(), next, std::min(PinnedStaging::kSlotBytes, bytes - next)};
        PinnedStaging::Slot& slot = staging_->wait(piece.slot);
        driver_.check(driver_.cuMemcpyDtoHAsync(slot.data, address + next, piece.bytes, stream_),
                      "cuMemcpyDtoHAsync", what);
        staging_->record(slot);
        in_flight.push_back(piece);
        next += piece.bytes;
        continue;
      }
      Piece piece = in_flight.front();
      in_flight.pop_front();
      std::memcpy(host + piece.at, staging_->wait(piece.slot).data, piece.bytes);
    }
    free_completed();
  }

  void copy(DeviceBuffer dst, size_t dst_offset, DeviceBuffer src, size_t src_offset,
            size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [to_entry, to_at] = buffers_.lookup(dst, "copy", dst_offset, bytes);
    auto [from_entry, from_at] = buffers_.lookup(src, "copy", src_offset, bytes);
    CUdeviceptr to = to_entry.address + to_at, from = from_entry.address + from_at;
    if (bytes == 0) return;
    if (dst.id == src.id && to_at < from_at + bytes && from_at < to_at + bytes) {
      runtime_error() << "copy: the source [" << src_offset << ", " << src_offset + bytes
                      << ") and destination [" << dst_offset << ", " << dst_offset + bytes
                      << ") overlap in " << buffer_name(dst);
    }
    ScopedCudaContext scope(driver_, context_);
    runs_->close();
    driver_.check(driver_.cuMemcpyDtoDAsync(to, from, bytes, stream_), "cuMemcpyDtoDAsync",
                  "copying " + buffer_name(src) + " to " + buffer_name(dst));
  }

  KernelId load_kernel(const KernelBinary& kernel) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ScopedCudaContext scope(driver_, context_);
    return kernels_->load(kernel);
  }

  void launch(KernelId kernel_id, std::array<uint32_t, 3> grid_size,
              std::span<const DeviceBuffer> buffers, std::span<const int64_t> scalars) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const CudaKernel& kernel = kernels_->get(kernel_id);
    check_launch(kernel.abi, limits_, grid_size, buffers.size(), scalars);
    std::vector<CUdeviceptr>& addresses = launch_addresses_;
    addresses.clear();
    for (size_t i = 0; i < buffers.size(); ++i) {
      auto [entry, at] = buffers_.argument(kernel.abi.name, i, buffers[i]);
      addresses.push_back(entry.address + at);
    }
    if (grid_size[0] == 0 || grid_size[1] == 0 || grid_size[2] == 0) return;  // no work
    ScopedCudaContext scope(driver_, context_);
    if (!timing_) {
      runs_->launch(kernel, grid_size, addresses, scalars);
      return;
    }
    // Timed: an event pair around the launch, read by take_kernel_timings.
    runs_->close();
    TimedLaunch& timed = timed_.emplace_back(TimedLaunch{kernel.abi.name, nullptr, nullptr});
    driver_.check(driver_.cuEventCreate(&timed.start, kCuEventDefault), "cuEventCreate");
    driver_.check(driver_.cuEventCreate(&timed.end, kCuEventDefault), "cuEventCreate");
    driver_.check(driver_.cuEventRecord(timed.start, stream_), "cuEventRecord", "timing a launch");
    runs_->launch_alone(kernel, grid_size, addresses, scalars);
    driver_.check(driver_.cuEventRecord(timed.end, stream_), "cuEventRecord", "timing a launch");
  }

  LaunchStats launch_stats() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return runs_->stats();
  }

  bool set_kernel_timing(bool on) override {
    std::lock_guard<std::mutex> lock(mutex_);
    ScopedCudaContext scope(driver_, context_);
    timing_ = on;
    if (!on) destroy_timed_launches();
    return true;
  }

  std::vector<KernelTiming> take_kernel_timings() override {
    std::lock_guard<std::mutex> lock(mutex_);
    ScopedCudaContext scope(driver_, context_);
    std::vector<KernelTiming> timings;
    try {
      runs_->close();
      driver_.check(driver_.cuStreamSynchronize(stream_), "cuStreamSynchronize");
      for (const TimedLaunch& timed : timed_) {
        float milliseconds = 0;
        driver_.check(driver_.cuEventElapsedTime(&milliseconds, timed.start, timed.end),
                      "cuEventElapsedTime", "timing kernel '" + timed.kernel + "'");
        timings.push_back({timed.kernel, 1000.0 * milliseconds});
      }
    } catch (...) {
      destroy_timed_launches();
      throw;
    }
    destroy_timed_launches();
    return timings;
  }

  void synchronize() override {
    std::lock_guard<std::mutex> lock(mutex_);
    ScopedCudaContext scope(driver_, context_);
    runs_->close();
    driver_.check(driver_.cuStreamSynchronize(stream_), "cuStreamSynchronize");
    free_completed();
  }

  double time_ms(const std::function<void()>& enqueue) override {
    CUevent start = nullptr, end = nullptr;
    float milliseconds = 0;
    try {
      {
        std::lock_guard<std::mutex> lock(mutex_);
        ScopedCudaContext scope(driver_, context_);
        driver_.check(driver_.cuEventCreate(&start, kCuEventDefault), "cuEventCreate");
        driver_.check(driver_.cuEventCreate(&end, kCuEventDefault), "cuEventCreate");
        runs_->close();
        driver_.check(driver_.cuEventRecord(start, stream_), "cuEventRecord", "starting a timing");
      }
      enqueue();  // its launches and copies take the lock one by one
      std::lock_guard<std::mutex> lock(mutex_);
      ScopedCudaContext scope(driver_, context_);
      runs_->close();
      driver_.check(driver_.cuEventRecord(end, stream_), "cuEventRecord", "ending a timing");
      driver_.check(driver_.cuEventSynchronize(end), "cuEventSynchronize", "ending a timing");
      driver_.check(driver_.cuEventElapsedTime(&milliseconds, start, end), "cuEventElapsedTime");
    } catch (...) {
      destroy_events(start, end);
      throw;
    }
    destroy_events(start, end);
    return milliseconds;
  }

 private:
  struct BufferEntry {
    CUdeviceptr address = 0;  // 0 for an empty buffer
    size_t bytes = 0;
  };
  struct TimedLaunch {
    std::string kernel;
    CUevent start = nullptr, end = nullptr;
  };
  struct PendingFree {
    CUdeviceptr address = 0;
    CUevent done = nullptr;  // recorded behind the last work that may use the memory
  };

  // Frees the released buffers whose last work has completed. The context is current.
  void free_completed() {
    for (auto it = pending_frees_.begin(); it != pending_frees_.end();) {
      CUresult state = driver_.cuEventQuery(it->done);
      if (state == CUDA_ERROR_NOT_READY) {
        ++it;
        continue;
      }
      PendingFree pending = *it;
      it = pending_frees_.erase(it);
      (void)driver_.cuEventDestroy(pending.done);
      // After an error (the device is lost), the memory is freed all the same.
      CUresult freed = driver_.cuMemFree(pending.address);
      driver_.check(state, "cuEventQuery", "freeing a released buffer");
      driver_.check(freed, "cuMemFree", "freeing a released buffer");
    }
  }

  // The events of the timed launches, once read or dropped. The context is current.
  void destroy_timed_launches() {
    for (const TimedLaunch& timed : timed_) {
      if (timed.start != nullptr) (void)driver_.cuEventDestroy(timed.start);
      if (timed.end != nullptr) (void)driver_.cuEventDestroy(timed.end);
    }
    timed_.clear();
  }

  // Cleanup after a timing, also on its error path: nothing to report.
  void destroy_events(CUevent start, CUevent end) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (driver_.cuCtxPushCurrent(context_) != CUDA_SUCCESS) return;
    if (start != nullptr) (void)driver_.cuEventDestroy(start);
    if (end != nullptr) (void)driver_.cuEventDestroy(end);
    CUcontext popped = nullptr;
    (void)driver_.cuCtxPopCurrent(&popped);
  }

  const CudaDriver& driver_;
  CUdevice device_;
  DeviceLimits limits_;
  CUcontext context_ = nullptr;
  CUstream stream_ = nullptr;
  std::unique_ptr<PinnedStaging> staging_;
  std::unique_ptr<CudaKernelCache> kernels_;
  BufferTable<BufferEntry> buffers_;
  std::vector<PendingFree> pending_frees_;
  bool timing_ = false;  // kernel timing (off unless relaxc bench turns it on)
  std::vector<TimedLaunch> timed_;
  bool replay_ = true;
  std::unique_ptr<CudaLaunchRuns> runs_;
  std::vector<CUdeviceptr> launch_addresses_;  // launch()'s, reused: no allocation once warm
  mutable std::mutex mutex_;
};

}  // namespace

std::vector<DeviceLimits> list_cuda_devices() {
  const CudaDriver& driver = cuda_driver();
  std::vector<DeviceLimits> devices;
  int count = device_count(driver);
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    driver.check(driver.cuDeviceGet(&device, i), "cuDeviceGet");
    devices.push_back(query_limits(driver, device));
  }
  return devices;
}

std::unique_ptr<CudaDevice> open_cuda_device(const CudaOptions& options) {
  const CudaDriver& driver = cuda_driver();
  int ordinal = choose_ordinal(driver, options);
  CUdevice device = 0;
  driver.check(driver.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  const char* replay_env = std::getenv("RELAXC_CUDA_REPLAY");
  bool replay = options.replay && !(replay_env != nullptr && std::strcmp(replay_env, "0") == 0);
  auto opened =
      std::make_unique<CudaDeviceImpl>(driver, device, query_limits(driver, device), replay);
  opened->open();
  return opened;
}

}  // namespace relaxc::runtime
