#include "runtime/cuda/cuda_launch_runs.h"

#include <algorithm>
#include <string>
#include <utility>

namespace relaxc::runtime {

bool CudaLaunchRuns::Launch::same_as(const CudaKernel& other_kernel,
                                     std::array<uint32_t, 3> other_grid,
                                     std::span<const CUdeviceptr> other_buffers,
                                     std::span<const int64_t> other_scalars) const {
  return kernel == &other_kernel && grid == other_grid &&
         std::ranges::equal(buffers, other_buffers) && std::ranges::equal(scalars, other_scalars);
}

CudaLaunchRuns::CudaLaunchRuns(const CudaDriver& driver, CUstream stream, bool replay)
    : driver_(driver), stream_(stream), replay_(replay) {}

CudaLaunchRuns::~CudaLaunchRuns() {
  // The launches still waiting are dropped with the device; the graphs may still run,
  // and the driver frees them when they are done.
  for (const std::unique_ptr<KeptRun>& run : kept_) destroy_graph(*run);
}

void CudaLaunchRuns::launch(const CudaKernel& kernel, std::array<uint32_t, 3> grid,
                            std::span<const CUdeviceptr> buffers,
                            std::span<const int64_t> scalars) {
  try {
    add_to_run(kernel, grid, buffers, scalars);
  } catch (const RuntimeError&) {
    abandon_run();
    throw;
  }
}

void CudaLaunchRuns::close() {
  try {
    end_run();
  } catch (const RuntimeError&) {
    abandon_run();
    throw;
  }
}

void CudaLaunchRuns::abandon_run() {
  open_ = false;
  recording_ = false;
  candidates_.clear();
  recorded_.clear();
}

void CudaLaunchRuns::add_to_run(const CudaKernel& kernel, std::array<uint32_t, 3> grid,
                                std::span<const CUdeviceptr> buffers,
                                std::span<const int64_t> scalars) {
  if (!replay_) {
    launch_now({&kernel, grid, {buffers.begin(), buffers.end()}, {scalars.begin(), scalars.end()}});
    return;
  }
  if (!open_) {
    open_ = true;
    matched_ = 0;
    recording_ = false;
    candidates_.clear();
    for (const std::unique_ptr<KeptRun>& run : kept_) candidates_.push_back(run.get());
  }
  if (!recording_) {
    const KeptRun* prefix = candidates_.empty() ? nullptr : candidates_.front();
    std::erase_if(candidates_, [&](const KeptRun* run) {
      return run->launches.size() <= matched_ ||
             !run->launches[matched_].same_as(kernel, grid, buffers, scalars);
    });
    if (!candidates_.empty()) {
      matched_ += 1;
      return;
    }
    // Departed from every kept run (or there was none): a run of its own.
    launch_matched_so_far(prefix);
  }
  Launch launch{&kernel, grid, {buffers.begin(), buffers.end()}, {scalars.begin(), scalars.end()}};
  launch_now(launch);
  recorded_.push_back(std::move(launch));
}

void CudaLaunchRuns::end_run() {
  if (!open_) return;
  open_ = false;
  if (!recording_) {
    auto whole = std::ranges::find_if(
        candidates_, [&](const KeptRun* run) { return run->launches.size() == matched_; });
    if (whole != candidates_.end()) {
      KeptRun& run = **whole;
      candidates_.clear();
      replay(run);
      return;
    }
    // It ended inside every kept run it matched: a run of its own.
    launch_matched_so_far(candidates_.empty() ? nullptr : candidates_.front());
  }
  candidates_.clear();
  recording_ = false;
  keep(std::move(recorded_));
  recorded_.clear();
}

void CudaLaunchRuns::launch_alone(const CudaKernel& kernel, std::array<uint32_t, 3> grid,
                                  std::span<const CUdeviceptr> buffers,
                                  std::span<const int64_t> scalars) {
  launch_now({&kernel, grid, {buffers.begin(), buffers.end()}, {scalars.begin(), scalars.end()}});
}

void CudaLaunchRuns::launch_matched_so_far(const KeptRun* prefix) {
  recording_ = true;
  recorded_.clear();
  candidates_.clear();
  for (size_t i = 0; i < matched_; ++i) {
    launch_now(prefix->launches[i]);
    recorded_.push_back(prefix->launches[i]);
  }
}

void CudaLaunchRuns::launch_now(const Launch& launch) {
  launch.kernel->launch(driver_, stream_, launch.grid, launch.buffers, launch.scalars, params_);
  stats_.recorded += 1;
}

void CudaLaunchRuns::replay(KeptRun& run) {
  run.last_hit = ++clock_;
  if (run.graph == nullptr && !capture(run)) {
    replay_ = false;
    for (const Launch& launch : run.launches) launch_now(launch);
    return;
  }
  CUresult result = driver_.cuGraphLaunch(run.graph, stream_);
  if (result != CUDA_SUCCESS) {
    driver_.check(result, "cuGraphLaunch",
                  "replaying a run of " + std::to_string(run.launches.size()) + " launch(es)");
  }
  stats_.replayed += run.launches.size();
}

bool CudaLaunchRuns::capture(KeptRun& run) {
  if (driver_.cuStreamBeginCapture(stream_, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) != CUDA_SUCCESS) {
    return false;
  }
  bool captured = true;
  for (const Launch& launch : run.launches) {
    try {
      launch.kernel->launch(driver_, stream_, launch.grid, launch.buffers, launch.scalars, params_);
    } catch (const RuntimeError&) {
      captured = false;  // the capture is invalid; it still has to be ended
      break;
    }
  }
  CUgraph graph = nullptr;
  CUresult ended = driver_.cuStreamEndCapture(stream_, &graph);
  if (captured && ended == CUDA_SUCCESS && graph != nullptr) {
    captured = driver_.cuGraphInstantiateWithFlags(&run.graph, graph, 0) == CUDA_SUCCESS;
  } else {
    captured = false;
  }
  if (graph != nullptr) (void)driver_.cuGraphDestroy(graph);
  if (!captured) run.graph = nullptr;
  return captured;
}

void CudaLaunchRuns::keep(std::vector<Launch> launches) {
  auto run = std::make_unique<KeptRun>();
  run->launches = std::move(launches);
  run->last_hit = ++clock_;
  kept_.push_back(std::move(run));
  if (kept_.size() <= kMaxKeptRuns) return;
  auto oldest = std::ranges::min_element(
      kept_, [](const auto& a, const auto& b) { return a->last_hit < b->last_hit; });
  destroy_graph(**oldest);
  kept_.erase(oldest);
}

void CudaLaunchRuns::destroy_graph(KeptRun& run) {
  // An executable graph destroyed while it runs is freed when it completes.
  if (run.graph != nullptr) (void)driver_.cuGraphExecDestroy(run.graph);
  run.graph = nullptr;
}

}  // namespace relaxc::runtime
