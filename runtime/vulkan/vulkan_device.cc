// The Vulkan implementation of Device: the buffers (a BufferTable), staged uploads and
// downloads, and device copies and kernel launches (checked by check_launch) recorded
// into batches.
// Buffers released while pending work may still use them are destroyed once that work
// has completed (each buffer remembers the serial of the last batch that touches it).
#include "runtime/vulkan/vulkan_device.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "runtime/buffer_table.h"
#include "runtime/kernel_checks.h"
#include "runtime/vulkan/vulkan_commands.h"
#include "runtime/vulkan/vulkan_context.h"
#include "runtime/vulkan/vulkan_memory.h"
#include "runtime/vulkan/vulkan_pipeline.h"

namespace relaxc::runtime {
namespace {

class VulkanDeviceImpl final : public VulkanDevice {
 public:
  VulkanDeviceImpl(std::unique_ptr<VulkanContext> context, bool replay)
      : context_(std::move(context)), staging_(*context_), commands_(*context_, replay) {}

  ~VulkanDeviceImpl() override {
    // Nothing may be destroyed while the device uses it; a lost device cannot be
    // reported from a destructor, and its objects are destroyed all the same.
    (void)context_->fn().vkDeviceWaitIdle(context_->device());
  }

  const DeviceLimits& limits() const override { return context_->physical().limits; }
  KernelFormat kernel_format() const override { return KernelFormat::SpirV; }

  std::vector<std::string> validation_messages() const override {
    return context_->instance().validation_messages();
  }

  DeviceBuffer allocate(size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    destroy_retired_buffers();
    BufferEntry entry;
    // Vulkan has no empty buffers: an empty DeviceBuffer holds no Vulkan object.
    if (bytes > 0) entry.buffer = VulkanBuffer::create(*context_, bytes, MemoryUse::Device);
    entry.bytes = bytes;
    return buffers_.add(std::move(entry));
  }

  void release(DeviceBuffer buffer) override {
    std::lock_guard<std::mutex> lock(mutex_);
    BufferEntry entry = buffers_.remove(buffer);
    if (entry.buffer.handle() != VK_NULL_HANDLE) commands_.forget_buffer(entry.buffer.handle());
    commands_.poll();
    if (entry.last_use > commands_.completed_serial()) {
      pending_releases_.push_back(std::move(entry));
    }
    destroy_retired_buffers();
  }

  void upload(DeviceBuffer dst, size_t dst_offset, const void* src, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [entry, at] = buffers_.lookup(dst, "upload", dst_offset, bytes);
    if (bytes == 0) return;
    if (src == nullptr) runtime_error() << "upload: the host source is null";
    const auto* host = static_cast<const uint8_t*>(src);
    for (size_t done = 0; done < bytes;) {
      StagingSlice slice = acquire_staging(bytes - done);
      std::memcpy(slice.data, host + done, slice.bytes);
      entry.last_use = commands_.recording_serial();
      commands_.copy(slice.buffer, slice.offset, entry.buffer.handle(), at + done, slice.bytes);
      done += slice.bytes;
    }
  }

  void download(void* dst, DeviceBuffer src, size_t src_offset, size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [entry, at] = buffers_.lookup(src, "download", src_offset, bytes);
    if (bytes == 0) return;
    if (dst == nullptr) runtime_error() << "download: the host destination is null";
    auto* host = static_cast<uint8_t*>(dst);
    for (size_t done = 0; done < bytes;) {
      // As many pieces as the staging pool holds at once, then one wait for them all.
      std::vector<std::pair<StagingSlice, size_t>> pieces;
      for (size_t next = done; next < bytes;) {
        commands_.poll();
        std::optional<StagingSlice> slice = staging_.acquire(
            bytes - next, commands_.recording_serial(), commands_.completed_serial());
        if (!slice) break;
        entry.last_use = commands_.recording_serial();
        commands_.copy(entry.buffer.handle(), at + next, slice->buffer, slice->offset,
                       slice->bytes);
        pieces.emplace_back(*slice, next);
        next += slice->bytes;
      }
      if (!pieces.empty()) commands_.make_transfers_visible_to_host();
      commands_.finish();
      for (const auto& [slice, at] : pieces) {
        std::memcpy(host + at, slice.data, slice.bytes);
        done = at + slice.bytes;
      }
    }
    destroy_retired_buffers();
  }

  void copy(DeviceBuffer dst, size_t dst_offset, DeviceBuffer src, size_t src_offset,
            size_t bytes) override {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [to, to_at] = buffers_.lookup(dst, "copy", dst_offset, bytes);
    auto [from, from_at] = buffers_.lookup(src, "copy", src_offset, bytes);
    if (bytes == 0) return;
    if (dst.id == src.id && to_at < from_at + bytes && from_at < to_at + bytes) {
      runtime_error() << "copy: the source [" << src_offset << ", " << src_offset + bytes
                      << ") and destination [" << dst_offset << ", " << dst_offset + bytes
                      << ") overlap in " << buffer_name(dst);
    }
    to.last_use = from.last_use = commands_.recording_serial();
    commands_.copy(from.buffer.handle(), from_at, to.buffer.handle(), to_at, bytes);
  }

  KernelId load_kernel(const KernelBinary& kernel) override {
    std::lock_guard<std::mutex> lock(mutex_);
    return kernels_.load(*context_, kernel);
  }

  void launch(KernelId kernel_id, std::array<uint32_t, 3> grid_size,
              std::span<const DeviceBuffer> buffers, std::span<const int64_t> scalars) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const VulkanKernel& kernel = kernels_.get(kernel_id);
    check_launch(kernel.abi(), limits(), grid_size, buffers.size(), scalars);
    kernel.pack_scalars(scalars, push_constants_);
    ranges_.clear();
    entries_.clear();
    for (size_t i = 0; i < buffers.size(); ++i) {
      auto [entry, at] = buffers_.argument(kernel.name(), i, buffers[i]);
      // Vulkan binds buffers through descriptors, which have bounds of their own.
      if (buffers[i].bytes == 0) {
        runtime_error() << buffer_argument_text(kernel.name(), i, buffers[i])
                        << " is empty; Vulkan cannot bind an empty buffer";
      }
      if (buffers[i].bytes > context_->physical().max_storage_buffer_range) {
        runtime_error() << buffer_argument_text(kernel.name(), i, buffers[i]) << " has "
                        << buffers[i].bytes
                        << " bytes, more than the device binds (maxStorageBufferRange = "
                        << context_->physical().max_storage_buffer_range << ")";
      }
      uint64_t alignment = limits().buffer_offset_alignment;
      if (alignment != 0 && at % alignment != 0) {
        runtime_error() << buffer_argument_text(kernel.name(), i, buffers[i]) << " starts at byte "
                        << at << " of its allocation, not a multiple of the device's "
                        << "minStorageBufferOffsetAlignment (" << alignment << ")";
      }
      ranges_.push_back(VkDescriptorBufferInfo{entry.buffer.handle(), at, buffers[i].bytes});
      entries_.push_back(&entry);
    }
    if (grid_size[0] == 0 || grid_size[1] == 0 || grid_size[2] == 0) return;
    for (BufferEntry* entry : entries_) entry->last_use = commands_.recording_serial();
    commands_.dispatch(kernel, ranges_, push_constants_, grid_size);
  }

  LaunchStats launch_stats() const override {
    std::lock_guard<std::mutex> lock(mutex_);
    return commands_.stats();
  }

  void synchronize() override {
    std::lock_guard<std::mutex> lock(mutex_);
    commands_.finish();
    destroy_retired_buffers();
  }

  bool set_kernel_timing(bool on) override {
    std::lock_guard<std::mutex> lock(mutex_);
    const PhysicalDeviceInfo& physical = context_->physical();
    if (!on) {
      commands_.stop_timing();
      return true;
    }
    if (physical.timestamp_valid_bits == 0) return false;
    commands_.start_timing(physical.timestamp_period_ns, physical.timestamp_valid_bits);
    return true;
  }

  std::vector<KernelTiming> take_kernel_timings() override {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<KernelTiming> timings = commands_.take_timings();
    destroy_retired_buffers();
    return timings;
  }

 private:
  struct BufferEntry {
    VulkanBuffer buffer;
    size_t bytes = 0;
    uint64_t last_use = 0;  // serial of the last batch that touches it
  };

  // Staging memory for the batch being recorded; when all of it is busy, waits for the
  // oldest pending batch (back-pressure, so that staging memory stays bounded).
  StagingSlice acquire_staging(size_t bytes) {
    for (;;) {
      commands_.poll();
      std::optional<StagingSlice> slice =
          staging_.acquire(bytes, commands_.recording_serial(), commands_.completed_serial());
      if (slice) return *slice;
      commands_.wait_for(commands_.completed_serial() + 1);
    }
  }

  void destroy_retired_buffers() {
    uint64_t completed = commands_.completed_serial();
    std::erase_if(pending_releases_,
                  [&](const BufferEntry& entry) { return entry.last_use <= completed; });
  }

  mutable std::mutex mutex_;
  // Destroyed in reverse order: commands, kernels, buffers, staging, then the device.
  std::unique_ptr<VulkanContext> context_;
  StagingPool staging_;
  BufferTable<BufferEntry> buffers_;
  std::vector<BufferEntry> pending_releases_;
  KernelCache kernels_;
  CommandQueue commands_;
  // launch()'s vectors, reused so that a launch allocates nothing once warm.
  std::vector<uint8_t> push_constants_;
  std::vector<VkDescriptorBufferInfo> ranges_;
  std::vector<BufferEntry*> entries_;
};

bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace

std::vector<DeviceLimits> list_vulkan_devices() {
  VulkanInstance instance = VulkanInstance::create(/*validation=*/false);
  std::vector<DeviceLimits> devices;
  for (PhysicalDeviceInfo& device : query_physical_devices(instance)) {
    devices.push_back(std::move(device.limits));
  }
  if (devices.empty()) {
    runtime_error() << "the Vulkan loader reports no device; install a driver (e.g. "
                       "mesa-vulkan-drivers for the lavapipe CPU device)";
  }
  return devices;
}

std::unique_ptr<VulkanDevice> open_vulkan_device(const VulkanOptions& options) {
  bool validation = options.validation || env_flag("RELAXC_VULKAN_VALIDATION");
  VulkanInstance instance = VulkanInstance::create(validation);
  std::vector<PhysicalDeviceInfo> devices = query_physical_devices(instance);
  std::string request = options.device;
  std::string origin = "VulkanOptions::device";
  if (request.empty()) {
    if (const char* env = std::getenv("RELAXC_VULKAN_DEVICE")) {
      request = env;
      origin = "RELAXC_VULKAN_DEVICE";
    }
  }
  size_t index = choose_physical_device(devices, request, origin);
  std::unique_ptr<VulkanContext> context = VulkanContext::create(
      std::move(instance), std::move(devices[index]), options.push_descriptors);
  const char* replay_env = std::getenv("RELAXC_VULKAN_REPLAY");
  bool replay = options.replay && !(replay_env != nullptr && std::strcmp(replay_env, "0") == 0);
  return std::make_unique<VulkanDeviceImpl>(std::move(context), replay);
}

}  // namespace relaxc::runtime
