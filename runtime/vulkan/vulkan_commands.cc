// Command recording with hazard tracking at whole-buffer granularity: a command that
// reads a buffer written since the last barrier, or writes one read or written since,
// gets one global memory barrier from the stages of the pending accesses to its own
// stage; independent copies and dispatches run without barriers between them. The
// tracker spans batches, because a barrier also orders work submitted earlier to the
// same queue. Descriptor sets come from per-batch pools (when push descriptors are not
// used), reset when the batch's fence has signalled. With kernel timing on, each batch
// has a query pool of two timestamps per command, reset when the batch begins and read
// when its fence has signalled.
#include "runtime/vulkan/vulkan_commands.h"

#include <algorithm>
#include <utility>

namespace relaxc::runtime {
namespace {

// Past this many tracked buffers a barrier is recorded anyway, to bound the sets.
constexpr size_t kMaxTrackedBuffers = 1024;
constexpr uint32_t kPoolSets = 256;
constexpr uint32_t kPoolDescriptors = 1024;

VkAccessFlags read_access(VkPipelineStageFlags stage) {
  return stage == VK_PIPELINE_STAGE_TRANSFER_BIT ? VK_ACCESS_TRANSFER_READ_BIT
                                                 : VK_ACCESS_SHADER_READ_BIT;
}

VkAccessFlags write_access(VkPipelineStageFlags stage) {
  return stage == VK_PIPELINE_STAGE_TRANSFER_BIT ? VK_ACCESS_TRANSFER_WRITE_BIT
                                                 : VK_ACCESS_SHADER_WRITE_BIT;
}

}  // namespace

CommandQueue::CommandQueue(const VulkanContext& context) : context_(&context) {
  VkCommandPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = context.queue_family();
  check_vk(context.fn().vkCreateCommandPool(context.device(), &pool_info, nullptr, &pool_),
           "vkCreateCommandPool");
}

CommandQueue::~CommandQueue() {
  const VulkanDeviceFunctions& fn = context_->fn();
  VkDevice device = context_->device();
  std::vector<Batch> batches = std::move(free_batches_);
  if (recording_) batches.push_back(std::move(*recording_));
  for (Batch& batch : in_flight_) {
    // A destructor cannot report a lost device; the batch is destroyed either way.
    (void)fn.vkWaitForFences(device, 1, &batch.fence, VK_TRUE, UINT64_MAX);
    batches.push_back(std::move(batch));
  }
  std::vector<DescriptorPool> pools = std::move(free_descriptor_pools_);
  for (Batch& batch : batches) {
    for (DescriptorPool& pool : batch.descriptor_pools) pools.push_back(pool);
    if (batch.fence != VK_NULL_HANDLE) fn.vkDestroyFence(device, batch.fence, nullptr);
    if (batch.queries != VK_NULL_HANDLE) fn.vkDestroyQueryPool(device, batch.queries, nullptr);
    if (batch.commands != VK_NULL_HANDLE) {
      fn.vkFreeCommandBuffers(device, pool_, 1, &batch.commands);
    }
  }
  for (DescriptorPool& pool : pools) fn.vkDestroyDescriptorPool(device, pool.pool, nullptr);
  if (pool_ != VK_NULL_HANDLE) fn.vkDestroyCommandPool(device, pool_, nullptr);
}

CommandQueue::Batch& CommandQueue::recording() {
  if (recording_) return *recording_;
  const VulkanDeviceFunctions& fn = context_->fn();
  VkDevice device = context_->device();
  poll();
  Batch batch;
  if (!free_batches_.empty()) {
    batch = std::move(free_batches_.back());
    free_batches_.pop_back();
  } else {
    VkCommandBufferAllocateInfo allocate_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    allocate_info.commandPool = pool_;
    allocate_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate_info.commandBufferCount = 1;
    check_vk(fn.vkAllocateCommandBuffers(device, &allocate_info, &batch.commands),
             "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence_info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkResult result = fn.vkCreateFence(device, &fence_info, nullptr, &batch.fence);
    if (result != VK_SUCCESS) {
      fn.vkFreeCommandBuffers(device, pool_, 1, &batch.commands);
      check_vk(result, "vkCreateFence");
    }
  }
  VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin_info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  VkResult result = fn.vkBeginCommandBuffer(batch.commands, &begin_info);
  if (result != VK_SUCCESS) {
    free_batches_.push_back(std::move(batch));
    check_vk(result, "vkBeginCommandBuffer");
  }
  batch.serial = next_serial_;
  batch.num_commands = 0;
  recording_ = std::move(batch);
  recording_->queries_reset = timing_.has_value();
  if (timing_) {
    constexpr uint32_t kQueries = 2 * kMaxCommandsPerBatch;
    if (recording_->queries == VK_NULL_HANDLE) {
      VkQueryPoolCreateInfo query_info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      query_info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      query_info.queryCount = kQueries;
      check_vk(fn.vkCreateQueryPool(device, &query_info, nullptr, &recording_->queries),
               "vkCreateQueryPool");
    }
    fn.vkCmdResetQueryPool(recording_->commands, recording_->queries, 0, kQueries);
  }
  return *recording_;
}

void CommandQueue::order_access(VkPipelineStageFlags stage, std::span<const VkBuffer> reads,
                                std::span<const VkBuffer> writes) {
  bool hazard = pending_.read.size() + pending_.written.size() > kMaxTrackedBuffers;
  for (VkBuffer buffer : reads) hazard = hazard || pending_.written.count(buffer) != 0;
  for (VkBuffer buffer : writes) {
    hazard = hazard || pending_.written.count(buffer) != 0 || pending_.read.count(buffer) != 0;
  }
  if (hazard) {
    // The barrier orders everything pending before every later command of either stage:
    // the tracker forgets what it ordered, so a write made visible to the compute stage
    // only would go unordered for a later copy (and the other way round).
    constexpr VkPipelineStageFlags kAllStages =
        VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = pending_.writes;
    barrier.dstAccessMask =
        read_access(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) |
        write_access(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) |
        read_access(VK_PIPELINE_STAGE_TRANSFER_BIT) | write_access(VK_PIPELINE_STAGE_TRANSFER_BIT);
    context_->fn().vkCmdPipelineBarrier(recording().commands, pending_.stages, kAllStages, 0, 1,
                                        &barrier, 0, nullptr, 0, nullptr);
    pending_ = PendingAccesses{};
  }
  pending_.stages |= stage;
  if (!writes.empty()) pending_.writes |= write_access(stage);
  pending_.read.insert(reads.begin(), reads.end());
  pending_.written.insert(writes.begin(), writes.end());
}

void CommandQueue::copy(VkBuffer src, size_t src_offset, VkBuffer dst, size_t dst_offset,
                        size_t bytes) {
  Batch& batch = recording();
  order_access(VK_PIPELINE_STAGE_TRANSFER_BIT, std::span(&src, 1), std::span(&dst, 1));
  VkBufferCopy region{src_offset, dst_offset, bytes};
  context_->fn().vkCmdCopyBuffer(batch.commands, src, dst, 1, &region);
  after_command(batch);
}

void CommandQueue::make_transfers_visible_to_host() {
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  context_->fn().vkCmdPipelineBarrier(recording().commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                      nullptr);
}

VkDescriptorSet CommandQueue::allocate_descriptor_set(Batch& batch, const VulkanKernel& kernel) {
  const VulkanDeviceFunctions& fn = context_->fn();
  VkDevice device = context_->device();
  uint32_t needed = static_cast<uint32_t>(kernel.num_buffers());
  auto fits = [&](const DescriptorPool& pool) {
    return pool.sets_left > 0 && pool.descriptors_left >= needed;
  };
  if (batch.descriptor_pools.empty() || !fits(batch.descriptor_pools.back())) {
    auto reusable = std::find_if(free_descriptor_pools_.begin(), free_descriptor_pools_.end(),
                                 [&](const DescriptorPool& pool) { return fits(pool); });
    if (reusable != free_descriptor_pools_.end()) {
      batch.descriptor_pools.push_back(*reusable);
      free_descriptor_pools_.erase(reusable);
    } else {
      DescriptorPool pool;
      pool.sets = kPoolSets;
      pool.descriptors = std::max(kPoolDescriptors, needed);
      VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, pool.descriptors};
      VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      pool_info.maxSets = pool.sets;
      pool_info.poolSizeCount = 1;
      pool_info.pPoolSizes = &size;
      check_vk(fn.vkCreateDescriptorPool(device, &pool_info, nullptr, &pool.pool),
               "vkCreateDescriptorPool", "launching kernel '" + kernel.name() + "'");
      pool.sets_left = pool.sets;
      pool.descriptors_left = pool.descriptors;
      batch.descriptor_pools.push_back(pool);
    }
  }
  DescriptorPool& pool = batch.descriptor_pools.back();
  VkDescriptorSetLayout layout = kernel.set_layout();
  VkDescriptorSetAllocateInfo allocate_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  allocate_info.descriptorPool = pool.pool;
  allocate_info.descriptorSetCount = 1;
  allocate_info.pSetLayouts = &layout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  check_vk(fn.vkAllocateDescriptorSets(device, &allocate_info, &set), "vkAllocateDescriptorSets",
           "launching kernel '" + kernel.name() + "'");
  pool.sets_left -= 1;
  pool.descriptors_left -= needed;
  return set;
}

void CommandQueue::dispatch(const VulkanKernel& kernel,
                            std::span<const VkDescriptorBufferInfo> buffers,
                            std::span<const uint8_t> push_constants, std::array<uint32_t, 3> grid) {
  const VulkanDeviceFunctions& fn = context_->fn();
  Batch& batch = recording();
  // A kernel may read and write any of its buffers. Accesses are tracked per VkBuffer:
  // ranges of one pool block count as one buffer (more barriers, never fewer).
  std::vector<VkBuffer> handles;
  handles.reserve(buffers.size());
  for (const VkDescriptorBufferInfo& range : buffers) handles.push_back(range.buffer);
  order_access(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, handles, handles);
  fn.vkCmdBindPipeline(batch.commands, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline());
  if (!buffers.empty()) {
    std::vector<VkDescriptorBufferInfo> infos(buffers.size());
    std::vector<VkWriteDescriptorSet> writes(buffers.size());
    VkDescriptorSet set =
        kernel.uses_push_descriptors() ? VK_NULL_HANDLE : allocate_descriptor_set(batch, kernel);
    for (size_t i = 0; i < buffers.size(); ++i) {
      infos[i] = buffers[i];
      writes[i] = VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstSet = set;
      writes[i].dstBinding = static_cast<uint32_t>(i);
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    if (kernel.uses_push_descriptors()) {
      fn.vkCmdPushDescriptorSetKHR(batch.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                   kernel.pipeline_layout(), 0,
                                   static_cast<uint32_t>(writes.size()), writes.data());
    } else {
      fn.vkUpdateDescriptorSets(context_->device(), static_cast<uint32_t>(writes.size()),
                                writes.data(), 0, nullptr);
      fn.vkCmdBindDescriptorSets(batch.commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                 kernel.pipeline_layout(), 0, 1, &set, 0, nullptr);
    }
  }
  if (!push_constants.empty()) {
    fn.vkCmdPushConstants(batch.commands, kernel.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                          static_cast<uint32_t>(push_constants.size()), push_constants.data());
  }
  // Timing: from when the dispatch may start to when it (and the work before it) is done.
  auto query = static_cast<uint32_t>(2 * batch.timed.size());
  bool timed = timing_ && batch.queries_reset;
  if (timed) {
    fn.vkCmdWriteTimestamp(batch.commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, batch.queries, query);
  }
  fn.vkCmdDispatch(batch.commands, grid[0], grid[1], grid[2]);
  if (timed) {
    fn.vkCmdWriteTimestamp(batch.commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, batch.queries,
                           query + 1);
    batch.timed.push_back(kernel.name());
  }
  after_command(batch);
}

void CommandQueue::after_command(Batch& batch) {
  batch.num_commands += 1;
  if (batch.num_commands >= kMaxCommandsPerBatch) submit();
}

void CommandQueue::submit() {
  if (!recording_ || recording_->num_commands == 0) return;
  const VulkanDeviceFunctions& fn = context_->fn();
  Batch batch = std::move(*recording_);
  recording_.reset();
  VkResult result = fn.vkEndCommandBuffer(batch.commands);
  if (result == VK_SUCCESS) {
    VkSubmitInfo submit_info{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit_info.commandBufferCount = 1;
    submit_info.pCommandBuffers = &batch.commands;
    result = fn.vkQueueSubmit(context_->queue(), 1, &submit_info, batch.fence);
  }
  if (result != VK_SUCCESS) {
    recycle(std::move(batch));
    check_vk(result, "vkQueueSubmit");
  }
  next_serial_ += 1;
  in_flight_.push_back(std::move(batch));
  if (in_flight_.size() > kMaxBatchesInFlight) wait_for(in_flight_.front().serial);
}

void CommandQueue::wait_for(uint64_t serial) {
  if (serial <= completed_serial_) return;
  if (recording_ && recording_->serial <= serial) submit();
  const VulkanDeviceFunctions& fn = context_->fn();
  while (!in_flight_.empty() && in_flight_.front().serial <= serial) {
    check_vk(
        fn.vkWaitForFences(context_->device(), 1, &in_flight_.front().fence, VK_TRUE, UINT64_MAX),
        "vkWaitForFences");
    Batch batch = std::move(in_flight_.front());
    in_flight_.pop_front();
    retire(std::move(batch));
  }
  // Empty batches are never submitted; their serials complete with the rest.
  if (in_flight_.empty()) completed_serial_ = std::max(completed_serial_, next_serial_ - 1);
  completed_serial_ = std::max(completed_serial_, std::min(serial, next_serial_ - 1));
}

void CommandQueue::poll() {
  const VulkanDeviceFunctions& fn = context_->fn();
  while (!in_flight_.empty()) {
    VkResult status = fn.vkGetFenceStatus(context_->device(), in_flight_.front().fence);
    if (status == VK_NOT_READY) return;
    check_vk(status, "vkGetFenceStatus");
    Batch batch = std::move(in_flight_.front());
    in_flight_.pop_front();
    retire(std::move(batch));
  }
}

void CommandQueue::retire(Batch batch) {
  completed_serial_ = std::max(completed_serial_, batch.serial);
  if (timing_ && !batch.timed.empty()) {
    std::vector<uint64_t> stamps(2 * batch.timed.size());
    VkResult result = context_->fn().vkGetQueryPoolResults(
        context_->device(), batch.queries, 0, static_cast<uint32_t>(stamps.size()),
        stamps.size() * sizeof(uint64_t), stamps.data(), sizeof(uint64_t),
        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (result != VK_SUCCESS) {
      recycle(std::move(batch));
      check_vk(result, "vkGetQueryPoolResults");
    }
    for (size_t i = 0; i < batch.timed.size(); ++i) {
      // A counter narrower than 64 bits wraps; the difference modulo its width is right.
      uint64_t ticks = (stamps[2 * i + 1] - stamps[2 * i]) & timing_->mask;
      timing_->done.push_back(
          {std::move(batch.timed[i]), static_cast<double>(ticks) * timing_->period_ns / 1000.0});
    }
  }
  recycle(std::move(batch));
}

void CommandQueue::start_timing(double period_ns, uint32_t valid_bits) {
  if (timing_) return;
  submit();  // every batch that times its dispatches starts with its queries reset
  timing_ =
      Timing{period_ns, valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valid_bits) - 1, {}};
}

void CommandQueue::stop_timing() {
  if (!timing_) return;
  submit();
  timing_.reset();
}

std::vector<KernelTiming> CommandQueue::take_timings() {
  finish();
  if (!timing_) return {};
  return std::exchange(timing_->done, {});
}

void CommandQueue::recycle(Batch batch) {
  const VulkanDeviceFunctions& fn = context_->fn();
  VkDevice device = context_->device();
  for (DescriptorPool& pool : batch.descriptor_pools) {
    // vkResetDescriptorPool returns only VK_SUCCESS.
    (void)fn.vkResetDescriptorPool(device, pool.pool, 0);
    pool.sets_left = pool.sets;
    pool.descriptors_left = pool.descriptors;
    free_descriptor_pools_.push_back(pool);
  }
  batch.descriptor_pools.clear();
  batch.timed.clear();
  VkResult result = fn.vkResetFences(device, 1, &batch.fence);
  free_batches_.push_back(std::move(batch));
  check_vk(result, "vkResetFences");
}

}  // namespace relaxc::runtime
