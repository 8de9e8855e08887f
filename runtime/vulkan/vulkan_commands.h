// Command recording and submission: copies and dispatches go into the batch being
// recorded, with the pipeline barriers their read/write hazards need, and batches are
// submitted to the compute queue with a fence each.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <unordered_set>
#include <vector>

#include "runtime/vulkan/vulkan_context.h"
#include "runtime/vulkan/vulkan_pipeline.h"

namespace relaxc::runtime {

// Every batch has a serial (1, 2, ...); work is known complete up to completed_serial().
// Only wait_for and finish block; submit blocks only for back-pressure, when more than
// kMaxBatchesInFlight batches are pending.
class CommandQueue {
 public:
  static constexpr size_t kMaxCommandsPerBatch = 256;
  static constexpr size_t kMaxBatchesInFlight = 16;

  explicit CommandQueue(const VulkanContext& context);
  CommandQueue(const CommandQueue&) = delete;
  CommandQueue& operator=(const CommandQueue&) = delete;
  // Waits for the submitted batches (errors ignored), then destroys everything.
  ~CommandQueue();

  // The serial of the batch being recorded: work recorded now completes with it.
  uint64_t recording_serial() const { return next_serial_; }
  uint64_t completed_serial() const { return completed_serial_; }

  void copy(VkBuffer src, size_t src_offset, VkBuffer dst, size_t dst_offset, size_t bytes);
  // Makes the copies recorded so far visible to host reads after the batch completes.
  void make_transfers_visible_to_host();
  // Binds buffer i of the kernel to the range `buffers[i]`.
  void dispatch(const VulkanKernel& kernel, std::span<const VkDescriptorBufferInfo> buffers,
                std::span<const uint8_t> push_constants, std::array<uint32_t, 3> grid);

  // Submits the batch being recorded, if it has commands.
  void submit();
  // Submits what `serial` needs and waits until batch `serial` has completed.
  void wait_for(uint64_t serial);
  // Submits and waits for everything.
  void finish() { wait_for(next_serial_); }
  // Retires the batches that have completed, without waiting.
  void poll();

  // Kernel timing: a timestamp before and after each dispatch, read when its batch
  // completes. `period_ns` is the device's timestampPeriod, `valid_bits` the queue's
  // timestampValidBits (the caller checks that the device has timestamps).
  void start_timing(double period_ns, uint32_t valid_bits);
  void stop_timing();
  // Waits for everything, then hands over the timings of the dispatches timed so far.
  std::vector<KernelTiming> take_timings();

 private:
  struct DescriptorPool {
    VkDescriptorPool pool = VK_NULL_HANDLE;
    uint32_t sets_left = 0;
    uint32_t descriptors_left = 0;
    uint32_t sets = 0, descriptors = 0;  // capacity
  };
  struct Batch {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    uint64_t serial = 0;
    size_t num_commands = 0;
    std::vector<DescriptorPool> descriptor_pools;
    // With timing on: queries 2i and 2i + 1 hold the timestamps around timed[i].
    VkQueryPool queries = VK_NULL_HANDLE;
    bool queries_reset = false;  // at the batch's start: it may time its dispatches
    std::vector<std::string> timed;
  };
  struct Timing {
    double period_ns = 0;
    uint64_t mask = 0;  // of the valid timestamp bits
    std::vector<KernelTiming> done;
  };
  // Buffers accessed since the last barrier, by whom: the hazard tracker.
  struct PendingAccesses {
    VkPipelineStageFlags stages = 0;
    VkAccessFlags writes = 0;
    std::unordered_set<VkBuffer> read, written;
  };

  Batch& recording();
  // Records the barrier that orders this command after earlier ones it conflicts with
  // (read-after-write, write-after-read, write-after-write), then notes its accesses.
  void order_access(VkPipelineStageFlags stage, std::span<const VkBuffer> reads,
                    std::span<const VkBuffer> writes);
  VkDescriptorSet allocate_descriptor_set(Batch& batch, const VulkanKernel& kernel);
  void after_command(Batch& batch);
  void retire(Batch batch);
  void recycle(Batch batch);

  const VulkanContext* context_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  uint64_t next_serial_ = 1;
  uint64_t completed_serial_ = 0;
  std::optional<Batch> recording_;
  std::deque<Batch> in_flight_;
  std::vector<Batch> free_batches_;
  std::vector<DescriptorPool> free_descriptor_pools_;
  PendingAccesses pending_;
  std::optional<Timing> timing_;
};

}  // namespace relaxc::runtime
