// Command recording with hazard tracking at whole-buffer granularity: a command that
// reads a buffer written since the last barrier, or writes one read or written since,
// gets one global memory barrier from the stages of the pending accesses to its own
// stage; independent copies and dispatches run without barriers between them. The
// tracker spans batches, because a barrier also orders work submitted earlier to the
// same queue. Descriptor sets come from per-batch pools (when push descriptors are not
// used), reset when the batch's fence has signalled. With kernel timing on, each batch
// has a query pool of two timestamps per command, reset when the batch begins and read
// when its fence has signalled.
//
// Replay. Consecutive dispatches form a run, ended by the next copy or submit. A run
// starts with a barrier from everything pending (in the batch), so that its own
// barriers depend on its dispatches alone, and is recorded into a secondary command
// buffer that is kept with its dispatches, its descriptor pools and the tracker's state
// after it. While a new run's dispatches equal the beginning of kept runs, nothing is
// recorded: at its end a kept run of exactly those dispatches is executed again
// (vkCmdExecuteCommands) and the tracker takes that run's final state; on the first
// difference the dispatches so far are recorded after all, and the run is kept when it
// ends (the least recently used of more than kMaxKeptRuns is dropped). Buffers are
// compared by handle, so a buffer's destruction drops the runs that bind it. With kernel
// timing on, dispatches are recorded into the batch directly (their queries are per
// batch).
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

bool CommandQueue::KeptDispatch::operator==(const DispatchArgs& other) const {
  auto same_range = [](const VkDescriptorBufferInfo& a, const VkDescriptorBufferInfo& b) {
    return a.buffer == b.buffer && a.offset == b.offset && a.range == b.range;
  };
  return kernel == other.kernel && grid == other.grid &&
         std::ranges::equal(push_constants, other.push_constants) &&
         std::ranges::equal(buffers, other.buffers, same_range);
}

CommandQueue::CommandQueue(const VulkanContext& context, bool replay)
    : context_(&context), replay_(replay) {
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
  std::vector<std::shared_ptr<DispatchRun>> runs = std::move(kept_runs_);
  runs.insert(runs.end(), dropped_runs_.begin(), dropped_runs_.end());
  if (run_.recording) runs.push_back(run_.recording);
  for (const std::shared_ptr<DispatchRun>& run : runs) {
    pools.insert(pools.end(), run->descriptor_pools.begin(), run->descriptor_pools.end());
    if (run->commands != VK_NULL_HANDLE) fn.vkFreeCommandBuffers(device, pool_, 1, &run->commands);
  }
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

void CommandQueue::record_barrier(VkCommandBuffer commands) {
  // The barrier orders everything pending before every later command of either stage:
  // the tracker forgets what it ordered, so a write made visible to the compute stage
  // only would go unordered for a later copy (and the other way round).
  constexpr VkPipelineStageFlags kAllStages =
      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = pending_.writes;
  barrier.dstAccessMask = read_access(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) |
                          write_access(VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT) |
                          read_access(VK_PIPELINE_STAGE_TRANSFER_BIT) |
                          write_access(VK_PIPELINE_STAGE_TRANSFER_BIT);
  context_->fn().vkCmdPipelineBarrier(commands, pending_.stages, kAllStages, 0, 1, &barrier, 0,
                                      nullptr, 0, nullptr);
  pending_.clear();
}

void CommandQueue::order_access(VkCommandBuffer commands, VkPipelineStageFlags stage,
                                std::span<const VkBuffer> reads, std::span<const VkBuffer> writes) {
  bool hazard = pending_.read.size() + pending_.written.size() > kMaxTrackedBuffers;
  for (VkBuffer buffer : reads) hazard = hazard || pending_.written.contains(buffer);
  for (VkBuffer buffer : writes) {
    hazard = hazard || pending_.written.contains(buffer) || pending_.read.contains(buffer);
  }
  if (hazard) record_barrier(commands);
  pending_.stages |= stage;
  if (!writes.empty()) pending_.writes |= write_access(stage);
  pending_.read.insert(reads);
  pending_.written.insert(writes);
}

void CommandQueue::BufferSet::insert(std::span<const VkBuffer> buffers) {
  for (VkBuffer buffer : buffers) {
    auto at = std::lower_bound(items_.begin(), items_.end(), buffer);
    if (at == items_.end() || *at != buffer) items_.insert(at, buffer);
  }
}

void CommandQueue::copy(VkBuffer src, size_t src_offset, VkBuffer dst, size_t dst_offset,
                        size_t bytes) {
  close_run();
  Batch& batch = recording();
  order_access(batch.commands, VK_PIPELINE_STAGE_TRANSFER_BIT, std::span(&src, 1),
               std::span(&dst, 1));
  VkBufferCopy region{src_offset, dst_offset, bytes};
  context_->fn().vkCmdCopyBuffer(batch.commands, src, dst, 1, &region);
  after_command(batch);
}

void CommandQueue::make_transfers_visible_to_host() {
  close_run();
  VkMemoryBarrier barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  context_->fn().vkCmdPipelineBarrier(recording().commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr, 0,
                                      nullptr);
}

VkDescriptorSet CommandQueue::allocate_descriptor_set(std::vector<DescriptorPool>& pools,
                                                      const VulkanKernel& kernel) {
  const VulkanDeviceFunctions& fn = context_->fn();
  VkDevice device = context_->device();
  uint32_t needed = static_cast<uint32_t>(kernel.num_buffers());
  auto fits = [&](const DescriptorPool& pool) {
    return pool.sets_left > 0 && pool.descriptors_left >= needed;
  };
  if (pools.empty() || !fits(pools.back())) {
    auto reusable = std::find_if(free_descriptor_pools_.begin(), free_descriptor_pools_.end(),
                                 [&](const DescriptorPool& pool) { return fits(pool); });
    if (reusable != free_descriptor_pools_.end()) {
      pools.push_back(*reusable);
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
      pools.push_back(pool);
    }
  }
  DescriptorPool& pool = pools.back();
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
  Batch& batch = recording();
  DispatchArgs args{&kernel, buffers, push_constants, grid};
  if (!replay_ || timing_) {
    record_dispatch(batch.commands, batch.descriptor_pools, args,
                    timing_ && batch.queries_reset ? &batch : nullptr);
    stats_.recorded += 1;
  } else if (!run_.open) {
    open_run(args);
  } else if (run_.recording) {
    record_in_run(args);
  } else {
    match_in_run(args);
  }
  after_command(batch);
}

void CommandQueue::record_dispatch(VkCommandBuffer commands, std::vector<DescriptorPool>& pools,
                                   const DispatchArgs& args, Batch* timed) {
  const VulkanDeviceFunctions& fn = context_->fn();
  const VulkanKernel& kernel = *args.kernel;
  // A kernel may read and write any of its buffers. Accesses are tracked per VkBuffer:
  // ranges of one pool block count as one buffer (more barriers, never fewer).
  handles_.clear();
  for (const VkDescriptorBufferInfo& range : args.buffers) handles_.push_back(range.buffer);
  order_access(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, handles_, handles_);
  fn.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline());
  if (!args.buffers.empty()) {
    VkDescriptorSet set =
        kernel.uses_push_descriptors() ? VK_NULL_HANDLE : allocate_descriptor_set(pools, kernel);
    descriptor_infos_.assign(args.buffers.begin(), args.buffers.end());
    descriptor_writes_.assign(args.buffers.size(),
                              VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
    for (size_t i = 0; i < args.buffers.size(); ++i) {
      VkWriteDescriptorSet& write = descriptor_writes_[i];
      write.dstSet = set;
      write.dstBinding = static_cast<uint32_t>(i);
      write.descriptorCount = 1;
      write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      write.pBufferInfo = &descriptor_infos_[i];
    }
    auto num_writes = static_cast<uint32_t>(descriptor_writes_.size());
    if (kernel.uses_push_descriptors()) {
      fn.vkCmdPushDescriptorSetKHR(commands, VK_PIPELINE_BIND_POINT_COMPUTE,
                                   kernel.pipeline_layout(), 0, num_writes,
                                   descriptor_writes_.data());
    } else {
      fn.vkUpdateDescriptorSets(context_->device(), num_writes, descriptor_writes_.data(), 0,
                                nullptr);
      fn.vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_COMPUTE, kernel.pipeline_layout(),
                                 0, 1, &set, 0, nullptr);
    }
  }
  if (!args.push_constants.empty()) {
    fn.vkCmdPushConstants(commands, kernel.pipeline_layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                          static_cast<uint32_t>(args.push_constants.size()),
                          args.push_constants.data());
  }
  // Timing: from when the dispatch may start to when it (and the work before it) is done.
  auto query = timed != nullptr ? static_cast<uint32_t>(2 * timed->timed.size()) : 0;
  if (timed != nullptr) {
    fn.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timed->queries, query);
  }
  fn.vkCmdDispatch(commands, args.grid[0], args.grid[1], args.grid[2]);
  if (timed != nullptr) {
    fn.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timed->queries,
                           query + 1);
    timed->timed.push_back(kernel.name());
  }
}

void CommandQueue::open_run(const DispatchArgs& args) {
  if (!pending_.read.empty() || !pending_.written.empty()) record_barrier(recording().commands);
  run_.open = true;
  run_.keep = true;
  run_.matched = 0;
  run_.candidates.clear();
  for (const std::shared_ptr<DispatchRun>& kept : kept_runs_) {
    if (kept->dispatches.front() == args) run_.candidates.push_back(kept);
  }
  if (run_.candidates.empty()) {
    start_recording_run(nullptr, 0);
    record_in_run(args);
  } else {
    run_.matched = 1;
  }
}

void CommandQueue::match_in_run(const DispatchArgs& args) {
  std::shared_ptr<DispatchRun> prefix = run_.candidates.front();
  size_t at = run_.matched;
  std::erase_if(run_.candidates, [&](const std::shared_ptr<DispatchRun>& run) {
    return run->dispatches.size() <= at || !(run->dispatches[at] == args);
  });
  if (!run_.candidates.empty()) {
    run_.matched += 1;
    return;
  }
  start_recording_run(prefix.get(), at);
  record_in_run(args);
}

void CommandQueue::start_recording_run(const DispatchRun* prefix, size_t count) {
  const VulkanDeviceFunctions& fn = context_->fn();
  auto run = std::make_shared<DispatchRun>();
  VkCommandBufferAllocateInfo allocate_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  allocate_info.commandPool = pool_;
  allocate_info.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
  allocate_info.commandBufferCount = 1;
  VkResult allocated =
      fn.vkAllocateCommandBuffers(context_->device(), &allocate_info, &run->commands);
  if (allocated != VK_SUCCESS) {
    run_.open = false;
    check_vk(allocated, "vkAllocateCommandBuffers");
  }
  VkCommandBufferInheritanceInfo inheritance{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
  VkCommandBufferBeginInfo begin_info{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  // Executed by every batch that replays it, which may be in flight together.
  begin_info.flags = VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT;
  begin_info.pInheritanceInfo = &inheritance;
  VkResult result = fn.vkBeginCommandBuffer(run->commands, &begin_info);
  if (result != VK_SUCCESS) {
    // The run's dispatches so far are lost with it: the queue is in error, as after any
    // failed recording.
    run_.open = false;
    dropped_runs_.push_back(std::move(run));
    check_vk(result, "vkBeginCommandBuffer");
  }
  run_.recording = std::move(run);
  for (size_t i = 0; i < count; ++i) record_in_run(prefix->dispatches[i].args());
  run_.candidates.clear();
}

void CommandQueue::record_in_run(const DispatchArgs& args) {
  DispatchRun& run = *run_.recording;
  try {
    record_dispatch(run.commands, run.descriptor_pools, args, nullptr);
  } catch (const RuntimeError&) {
    run_.keep = false;  // its commands may stop halfway through this dispatch
    throw;
  }
  run.dispatches.push_back(KeptDispatch{
      args.kernel, std::vector<VkDescriptorBufferInfo>(args.buffers.begin(), args.buffers.end()),
      std::vector<uint8_t>(args.push_constants.begin(), args.push_constants.end()), args.grid});
  stats_.recorded += 1;
}

void CommandQueue::close_run() {
  if (!run_.open) return;
  run_.open = false;
  Batch& batch = recording();
  std::shared_ptr<DispatchRun> run = std::move(run_.recording);
  if (!run) {
    auto replayed = std::ranges::find_if(run_.candidates, [&](const auto& candidate) {
      return candidate->dispatches.size() == run_.matched;
    });
    if (replayed != run_.candidates.end()) {
      DispatchRun& kept = **replayed;
      context_->fn().vkCmdExecuteCommands(batch.commands, 1, &kept.commands);
      kept.last_use = batch.serial;
      kept.last_hit = ++run_clock_;
      pending_ = kept.accesses_after;
      stats_.replayed += run_.matched;
      run_.candidates.clear();
      return;
    }
    // The run ended inside every kept run it matched: it is a run of its own.
    start_recording_run(run_.candidates.front().get(), run_.matched);
    run = std::move(run_.recording);
  }
  VkResult result = context_->fn().vkEndCommandBuffer(run->commands);
  if (result != VK_SUCCESS) {
    dropped_runs_.push_back(std::move(run));
    check_vk(result, "vkEndCommandBuffer");
  }
  context_->fn().vkCmdExecuteCommands(batch.commands, 1, &run->commands);
  run->last_use = batch.serial;
  run->accesses_after = pending_;
  if (run_.keep) {
    keep_run(std::move(run));
  } else {
    dropped_runs_.push_back(std::move(run));
  }
}

void CommandQueue::keep_run(std::shared_ptr<DispatchRun> run) {
  run->last_hit = ++run_clock_;
  kept_runs_.push_back(std::move(run));
  if (kept_runs_.size() <= kMaxKeptRuns) return;
  auto oldest = std::ranges::min_element(
      kept_runs_, [](const auto& a, const auto& b) { return a->last_hit < b->last_hit; });
  dropped_runs_.push_back(std::move(*oldest));
  kept_runs_.erase(oldest);
}

void CommandQueue::forget_buffer(VkBuffer buffer) {
  auto binds = [&](std::span<const KeptDispatch> dispatches) {
    return std::ranges::any_of(dispatches, [&](const KeptDispatch& dispatch) {
      return std::ranges::any_of(dispatch.buffers, [&](const VkDescriptorBufferInfo& range) {
        return range.buffer == buffer;
      });
    });
  };
  // The open run's dispatches so far (recorded, or still the candidates' beginning) must
  // not make a kept run either, even when recorded after this.
  if (run_.open) {
    std::span<const KeptDispatch> so_far =
        run_.recording ? std::span<const KeptDispatch>(run_.recording->dispatches)
                       : std::span<const KeptDispatch>(run_.candidates.front()->dispatches)
                             .first(run_.matched);
    if (binds(so_far)) run_.keep = false;
  }
  for (auto it = kept_runs_.begin(); it != kept_runs_.end();) {
    if (binds((*it)->dispatches)) {
      dropped_runs_.push_back(std::move(*it));
      it = kept_runs_.erase(it);
    } else {
      ++it;
    }
  }
}

void CommandQueue::destroy_dropped_runs() {
  const VulkanDeviceFunctions& fn = context_->fn();
  std::erase_if(dropped_runs_, [&](const std::shared_ptr<DispatchRun>& run) {
    // Candidates of the open run are still compared against (and may be replayed).
    if (run.use_count() > 1 || run->last_use > completed_serial_) return false;
    recycle_descriptor_pools(run->descriptor_pools);
    fn.vkFreeCommandBuffers(context_->device(), pool_, 1, &run->commands);
    return true;
  });
}

void CommandQueue::after_command(Batch& batch) {
  batch.num_commands += 1;
  if (batch.num_commands >= kMaxCommandsPerBatch) submit();
}

void CommandQueue::submit() {
  if (!recording_ || recording_->num_commands == 0) return;
  close_run();
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
  destroy_dropped_runs();
}

void CommandQueue::poll() {
  const VulkanDeviceFunctions& fn = context_->fn();
  while (!in_flight_.empty()) {
    VkResult status = fn.vkGetFenceStatus(context_->device(), in_flight_.front().fence);
    if (status == VK_NOT_READY) break;
    check_vk(status, "vkGetFenceStatus");
    Batch batch = std::move(in_flight_.front());
    in_flight_.pop_front();
    retire(std::move(batch));
  }
  destroy_dropped_runs();
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

void CommandQueue::recycle_descriptor_pools(std::vector<DescriptorPool>& pools) {
  for (DescriptorPool& pool : pools) {
    // vkResetDescriptorPool returns only VK_SUCCESS.
    (void)context_->fn().vkResetDescriptorPool(context_->device(), pool.pool, 0);
    pool.sets_left = pool.sets;
    pool.descriptors_left = pool.descriptors;
    free_descriptor_pools_.push_back(pool);
  }
  pools.clear();
}

void CommandQueue::recycle(Batch batch) {
  recycle_descriptor_pools(batch.descriptor_pools);
  batch.timed.clear();
  VkResult result = context_->fn().vkResetFences(context_->device(), 1, &batch.fence);
  free_batches_.push_back(std::move(batch));
  check_vk(result, "vkResetFences");
}

}  // namespace relaxc::runtime
