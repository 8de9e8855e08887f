// Command recording and submission: copies and dispatches go into the batch being
// recorded, with the pipeline barriers their read/write hazards need, and batches are
// submitted to the compute queue with a fence each. With replay on, each run of
// consecutive dispatches is recorded into a secondary command buffer that is kept: a
// later run that repeats a kept one, dispatch for dispatch (same kernels, buffer
// ranges, scalars and grids), executes it again instead of being recorded anew.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
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

  // How many runs of dispatches are kept for replay (the least recently used goes).
  static constexpr size_t kMaxKeptRuns = 16;

  // `replay`: keep runs of dispatches and replay them (see the top of this file).
  CommandQueue(const VulkanContext& context, bool replay);
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

  // `buffer` is about to be destroyed: the kept runs that bind it are dropped (a new
  // buffer may get its handle; they could never be replayed correctly).
  void forget_buffer(VkBuffer buffer);
  // Dispatches recorded and replayed since the queue was made.
  const LaunchStats& stats() const { return stats_; }

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
  // A dispatch as given to dispatch() (`kernel` not null), and as a run keeps it.
  struct DispatchArgs {
    const VulkanKernel* kernel = nullptr;
    std::span<const VkDescriptorBufferInfo> buffers;
    std::span<const uint8_t> push_constants;
    std::array<uint32_t, 3> grid = {0, 0, 0};
  };
  struct KeptDispatch {
    const VulkanKernel* kernel = nullptr;
    std::vector<VkDescriptorBufferInfo> buffers;
    std::vector<uint8_t> push_constants;
    std::array<uint32_t, 3> grid = {0, 0, 0};
    DispatchArgs args() const { return {kernel, buffers, push_constants, grid}; }
    bool operator==(const DispatchArgs& other) const;
  };
  struct Timing {
    double period_ns = 0;
    uint64_t mask = 0;  // of the valid timestamp bits
    std::vector<KernelTiming> done;
  };
  // A set of buffers, as a sorted vector: clearing and copying it keep its capacity, so
  // that a warm queue (a replayed run restoring the tracker) allocates nothing.
  class BufferSet {
   public:
    bool contains(VkBuffer buffer) const {
      return std::binary_search(items_.begin(), items_.end(), buffer);
    }
    void insert(std::span<const VkBuffer> buffers);
    size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    void clear() { items_.clear(); }

   private:
    std::vector<VkBuffer> items_;
  };
  // Buffers accessed since the last barrier, by whom: the hazard tracker.
  struct PendingAccesses {
    VkPipelineStageFlags stages = 0;
    VkAccessFlags writes = 0;
    BufferSet read, written;
    void clear() {
      stages = 0;
      writes = 0;
      read.clear();
      written.clear();
    }
  };

  // A run of consecutive dispatches in a secondary command buffer, recorded with an
  // empty hazard tracker (the barrier before a run orders everything pending).
  struct DispatchRun {
    VkCommandBuffer commands = VK_NULL_HANDLE;  // secondary, simultaneous use
    std::vector<KeptDispatch> dispatches;
    PendingAccesses accesses_after;                // the tracker after the run
    std::vector<DescriptorPool> descriptor_pools;  // its sets, without push descriptors
    // The serial of the last batch that executes it, and when it was last kept or
    // replayed (for eviction).
    uint64_t last_use = 0;
    uint64_t last_hit = 0;
  };
  // The run that the dispatches since the last other command belong to: matched against
  // kept runs (`candidates`, which begin with the `matched` dispatches so far) until it
  // departs from all of them, then recorded (`recording`).
  struct OpenRun {
    bool open = false;
    std::vector<std::shared_ptr<DispatchRun>> candidates;
    size_t matched = 0;
    std::shared_ptr<DispatchRun> recording;
    bool keep = true;  // false once a buffer it binds is forgotten
  };

  Batch& recording();
  // Records the barrier that orders this command after earlier ones it conflicts with
  // (read-after-write, write-after-read, write-after-write) into `commands`, then notes
  // its accesses.
  void order_access(VkCommandBuffer commands, VkPipelineStageFlags stage,
                    std::span<const VkBuffer> reads, std::span<const VkBuffer> writes);
  // A barrier from every pending access to every later command; the tracker is emptied.
  void record_barrier(VkCommandBuffer commands);
  // Records `args` (its barrier included) into `commands`, taking descriptor sets from
  // `pools`; timestamps around it in `timed`'s queries when that is not null.
  void record_dispatch(VkCommandBuffer commands, std::vector<DescriptorPool>& pools,
                       const DispatchArgs& args, Batch* timed);
  VkDescriptorSet allocate_descriptor_set(std::vector<DescriptorPool>& pools,
                                          const VulkanKernel& kernel);
  // The open run's steps: its first dispatch, a later one while matching, one while
  // recording, and its end (at the next copy or submit).
  void open_run(const DispatchArgs& args);
  void match_in_run(const DispatchArgs& args);
  void record_in_run(const DispatchArgs& args);
  void close_run();
  // Starts recording the open run, with the first `count` dispatches of `prefix`.
  void start_recording_run(const DispatchRun* prefix, size_t count);
  void keep_run(std::shared_ptr<DispatchRun> run);
  // Frees the dropped runs that no batch in flight executes any more.
  void destroy_dropped_runs();
  void recycle_descriptor_pools(std::vector<DescriptorPool>& pools);
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
  bool replay_ = false;
  OpenRun run_;
  std::vector<std::shared_ptr<DispatchRun>> kept_runs_;
  std::vector<std::shared_ptr<DispatchRun>> dropped_runs_;  // freed once no batch uses them
  uint64_t run_clock_ = 0;
  LaunchStats stats_;
  // Reused by record_dispatch, so that recording allocates nothing once warm.
  std::vector<VkBuffer> handles_;
  std::vector<VkDescriptorBufferInfo> descriptor_infos_;
  std::vector<VkWriteDescriptorSet> descriptor_writes_;
};

}  // namespace relaxc::runtime
