// Buffer creation with a memory type chosen by required and preferred properties, and
// the staging chunk pool.
#include "runtime/vulkan/vulkan_memory.h"

#include <algorithm>
#include <string>
#include <utility>

namespace relaxc::runtime {
namespace {

// The first memory type allowed by `type_bits` that has `required` and `preferred`,
// else the first with `required`; nullopt when none has `required`.
std::optional<uint32_t> choose_memory_type(const VkPhysicalDeviceMemoryProperties& memory,
                                           uint32_t type_bits, VkMemoryPropertyFlags required,
                                           VkMemoryPropertyFlags preferred) {
  for (VkMemoryPropertyFlags wanted : {required | preferred, required}) {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((type_bits & (1u << i)) != 0 &&
          (memory.memoryTypes[i].propertyFlags & wanted) == wanted) {
        return i;
      }
    }
  }
  return std::nullopt;
}

constexpr size_t kSliceAlignment = 16;

}  // namespace

VulkanBuffer VulkanBuffer::create(const VulkanContext& context, size_t bytes, MemoryUse use) {
  const PhysicalDeviceInfo& physical = context.physical();
  std::string what = "allocating a buffer of " + std::to_string(bytes) + " bytes";
  if (physical.max_memory_allocation_size != 0 && bytes > physical.max_memory_allocation_size) {
    runtime_error() << what << ": more than the largest allocation of \"" << physical.limits.name
                    << "\" (maxMemoryAllocationSize = " << physical.max_memory_allocation_size
                    << ")";
  }
  const VulkanDeviceFunctions& fn = context.fn();
  VulkanBuffer buffer;
  buffer.context_ = &context;
  buffer.bytes_ = bytes;
  VkBufferCreateInfo buffer_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  buffer_info.size = bytes;
  buffer_info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  if (use == MemoryUse::Device) buffer_info.usage |= VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  buffer_info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check_vk(fn.vkCreateBuffer(context.device(), &buffer_info, nullptr, &buffer.buffer_),
           "vkCreateBuffer", what);

  VkMemoryRequirements requirements{};
  fn.vkGetBufferMemoryRequirements(context.device(), buffer.buffer_, &requirements);
  VkMemoryPropertyFlags required =
      use == MemoryUse::Staging
          ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
          : 0;
  VkMemoryPropertyFlags preferred = use == MemoryUse::Staging ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT
                                                              : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  std::optional<uint32_t> type =
      choose_memory_type(physical.memory, requirements.memoryTypeBits, required, preferred);
  if (!type) {
    runtime_error() << what << ": \"" << physical.limits.name
                    << "\" has no suitable memory type for it";
  }
  VkMemoryAllocateInfo allocate_info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  allocate_info.allocationSize = requirements.size;
  allocate_info.memoryTypeIndex = *type;
  check_vk(fn.vkAllocateMemory(context.device(), &allocate_info, nullptr, &buffer.memory_),
           "vkAllocateMemory", what);
  check_vk(fn.vkBindBufferMemory(context.device(), buffer.buffer_, buffer.memory_, 0),
           "vkBindBufferMemory", what);
  if (use == MemoryUse::Staging) {
    void* mapped = nullptr;
    check_vk(fn.vkMapMemory(context.device(), buffer.memory_, 0, VK_WHOLE_SIZE, 0, &mapped),
             "vkMapMemory", what);
    buffer.mapped_ = static_cast<uint8_t*>(mapped);
  }
  return buffer;
}

VulkanBuffer::VulkanBuffer(VulkanBuffer&& other) noexcept
    : context_(other.context_),
      buffer_(std::exchange(other.buffer_, VK_NULL_HANDLE)),
      memory_(std::exchange(other.memory_, VK_NULL_HANDLE)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, nullptr)) {}

VulkanBuffer& VulkanBuffer::operator=(VulkanBuffer&& other) noexcept {
  if (this != &other) {
    destroy();
    context_ = other.context_;
    buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
    memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
    bytes_ = std::exchange(other.bytes_, 0);
    mapped_ = std::exchange(other.mapped_, nullptr);
  }
  return *this;
}

VulkanBuffer::~VulkanBuffer() { destroy(); }

void VulkanBuffer::destroy() {
  if (context_ == nullptr) return;
  const VulkanDeviceFunctions& fn = context_->fn();
  // Unmapping is implicit in vkFreeMemory.
  if (buffer_ != VK_NULL_HANDLE) fn.vkDestroyBuffer(context_->device(), buffer_, nullptr);
  if (memory_ != VK_NULL_HANDLE) fn.vkFreeMemory(context_->device(), memory_, nullptr);
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
}

std::optional<StagingSlice> StagingPool::acquire(size_t bytes, uint64_t serial,
                                                 uint64_t completed_serial) {
  size_t want = std::min(bytes, kChunkBytes);
  for (Chunk& chunk : chunks_) {
    if (chunk.last_serial <= completed_serial) chunk.used = 0;
  }
  Chunk* found = nullptr;
  for (Chunk& chunk : chunks_) {
    if (chunk.buffer.bytes() - chunk.used >= want) {
      found = &chunk;
      break;
    }
  }
  if (found == nullptr) {
    if ((chunks_.size() + 1) * kChunkBytes > kMaxBytes) return std::nullopt;
    chunks_.push_back(Chunk{VulkanBuffer::create(*context_, kChunkBytes, MemoryUse::Staging)});
    found = &chunks_.back();
  }
  StagingSlice slice{found->buffer.handle(), found->used, want,
                     found->buffer.mapped() + found->used};
  found->used = std::min(found->buffer.bytes(), (found->used + want + kSliceAlignment - 1) /
                                                    kSliceAlignment * kSliceAlignment);
  found->last_serial = std::max(found->last_serial, serial);
  return slice;
}

}  // namespace relaxc::runtime
