// Vulkan buffers with their own memory: device-local storage buffers for tensors, and
// a pool of host-visible staging chunks for uploads and downloads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/vulkan/vulkan_context.h"

namespace relaxc::runtime {

enum class MemoryUse : uint8_t {
  Device,   // device-local where the device has such memory; storage, transfer src/dst
  Staging,  // host-visible, coherent and mapped (cached where possible); transfer src/dst
};

class VulkanBuffer {
 public:
  // RuntimeError saying the device (or host) is out of memory, or that `bytes` exceeds
  // the device's largest allocation.
  static VulkanBuffer create(const VulkanContext& context, size_t bytes, MemoryUse use);

  VulkanBuffer() = default;
  VulkanBuffer(VulkanBuffer&& other) noexcept;
  VulkanBuffer& operator=(VulkanBuffer&& other) noexcept;
  VulkanBuffer(const VulkanBuffer&) = delete;
  VulkanBuffer& operator=(const VulkanBuffer&) = delete;
  ~VulkanBuffer();

  VkBuffer handle() const { return buffer_; }
  size_t bytes() const { return bytes_; }
  uint8_t* mapped() const { return mapped_; }  // null unless MemoryUse::Staging

 private:
  void destroy();

  const VulkanContext* context_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  size_t bytes_ = 0;
  uint8_t* mapped_ = nullptr;
};

// A piece of staging memory: host pointer and the buffer range it maps.
struct StagingSlice {
  VkBuffer buffer = VK_NULL_HANDLE;
  size_t offset = 0;
  size_t bytes = 0;
  uint8_t* data = nullptr;
};

// Staging memory in fixed-size chunks, carved into slices. A chunk is tagged with the
// last batch (serial) that uses it and is reused whole once that batch has completed,
// so the host never writes memory a pending copy still reads. Large copies go through
// it in pieces of at most kChunkBytes; at most kMaxBytes exist at once.
class StagingPool {
 public:
  static constexpr size_t kChunkBytes = size_t{8} << 20;
  static constexpr size_t kMaxBytes = size_t{64} << 20;

  explicit StagingPool(const VulkanContext& context) : context_(&context) {}

  // A slice of min(bytes, kChunkBytes) bytes used by batch `serial`, or nullopt when
  // every chunk is busy with batches after `completed_serial` and no more may be made:
  // the caller waits for a batch and asks again.
  std::optional<StagingSlice> acquire(size_t bytes, uint64_t serial, uint64_t completed_serial);

 private:
  struct Chunk {
    VulkanBuffer buffer;
    size_t used = 0;
    uint64_t last_serial = 0;
  };
  const VulkanContext* context_;
  std::vector<Chunk> chunks_;
};

}  // namespace relaxc::runtime
