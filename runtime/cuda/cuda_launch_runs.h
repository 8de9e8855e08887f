// Replay on CUDA, with CUDA graphs. A run is the launches between two other operations
// on the device's stream (a transfer, an event, a wait). Every run is kept as its list of
// launches; a later run that repeats a kept one, launch for launch (same kernels,
// addresses, scalars and grids), is launched as one CUDA graph instead of kernel by
// kernel. The graph is captured (cuStreamBeginCapture, the launches, cuStreamEndCapture)
// and instantiated the first time the run repeats, so a run seen once costs nothing
// more than its launches.
//
// While a run matches the beginning of kept ones, its launches wait: when it departs
// from all of them, the launches so far go out one by one and the rest follow as they
// come; when it ends, it is replayed if it matched a whole kept run, and launched one by
// one otherwise. A capture or instantiation that fails (a driver that cannot capture
// this stream) leaves that run launched kernel by kernel and replay off for the device:
// graphs are never needed for a result.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "runtime/cuda/cuda_kernels.h"
#include "runtime/cuda/cuda_loader.h"
#include "runtime/device.h"

namespace relaxc::runtime {

class CudaLaunchRuns {
 public:
  // How many runs are kept (the least recently used goes, with its graph).
  static constexpr size_t kMaxKeptRuns = 16;

  // `replay` false: every launch goes out at once, one by one. The caller makes the
  // device's context current around every call, the destructor included.
  CudaLaunchRuns(const CudaDriver& driver, CUstream stream, bool replay);
  ~CudaLaunchRuns();
  CudaLaunchRuns(const CudaLaunchRuns&) = delete;
  CudaLaunchRuns& operator=(const CudaLaunchRuns&) = delete;

  // One launch with a non-empty grid, checked by the caller (check_launch); it may wait
  // in the open run until close().
  void launch(const CudaKernel& kernel, std::array<uint32_t, 3> grid,
              std::span<const CUdeviceptr> buffers, std::span<const int64_t> scalars);
  // Ends the open run: everything given to launch() is on the stream when this returns.
  // The device calls it before every other use of the stream.
  void close();
  // Launches at once, outside any run (a launch timed by events); the caller has closed
  // the open run.
  void launch_alone(const CudaKernel& kernel, std::array<uint32_t, 3> grid,
                    std::span<const CUdeviceptr> buffers, std::span<const int64_t> scalars);

  const LaunchStats& stats() const { return stats_; }

 private:
  struct Launch {
    const CudaKernel* kernel = nullptr;
    std::array<uint32_t, 3> grid = {0, 0, 0};
    std::vector<CUdeviceptr> buffers;
    std::vector<int64_t> scalars;
    bool same_as(const CudaKernel& other_kernel, std::array<uint32_t, 3> other_grid,
                 std::span<const CUdeviceptr> other_buffers,
                 std::span<const int64_t> other_scalars) const;
  };
  struct KeptRun {
    std::vector<Launch> launches;
    CUgraphExec graph = nullptr;  // made the first time the run repeats
    uint64_t last_hit = 0;
  };

  void add_to_run(const CudaKernel& kernel, std::array<uint32_t, 3> grid,
                  std::span<const CUdeviceptr> buffers, std::span<const int64_t> scalars);
  void end_run();
  // After a failed launch: the open run is dropped, neither kept nor replayed (what it
  // launched so far stays launched).
  void abandon_run();
  // Ends the matching: the first `matched_` launches of `prefix` (a kept run the open run
  // matched so far) go out one by one, and the open run records from here on.
  void launch_matched_so_far(const KeptRun* prefix);
  void launch_now(const Launch& launch);
  // Launches a kept run that repeated: its graph (captured now if it has none yet).
  void replay(KeptRun& run);
  // Captures and instantiates `run`'s graph; false (nothing launched) if the driver fails.
  bool capture(KeptRun& run);
  void keep(std::vector<Launch> launches);
  void destroy_graph(KeptRun& run);

  const CudaDriver& driver_;
  CUstream stream_;
  bool replay_;
  CudaLaunchParams params_;
  std::vector<std::unique_ptr<KeptRun>> kept_;
  uint64_t clock_ = 0;
  LaunchStats stats_;
  // The open run: matching the kept runs in `candidates` (each begins with its first
  // `matched` launches, which wait), or, once it departed, `recording` what went out.
  bool open_ = false;
  std::vector<KeptRun*> candidates_;
  size_t matched_ = 0;
  bool recording_ = false;
  std::vector<Launch> recorded_;
};

}  // namespace relaxc::runtime
