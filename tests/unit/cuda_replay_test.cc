// Replay on CUDA (runtime/cuda/cuda_launch_runs.h): a repeated run of launches goes out as
// one CUDA graph, anything else kernel by kernel, and results never change. ctest runs
// this binary on the fake driver of tests/fake_cuda (RELAXC_CUDA_LIBRARY), so it runs in
// CI, where the fake's counters also show the graphs made and launched; tests/gpu/run.sh
// runs it on the NVIDIA driver, where the same results and launch counts must hold.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_device.h"
#include "runtime/cuda/cuda_launch_runs.h"
#include "tests/fake_cuda/fake_cuda.h"
#include "tests/support/allocation_counter.h"
#include "tests/support/hand_written_kernels.h"
#include "tests/support/replay_runs.h"

namespace relaxc::runtime {
namespace {

using relaxc::testing::check_least_recently_used_run_dropped;
using relaxc::testing::check_repeated_runs;
using relaxc::testing::counts;
using relaxc::testing::ReplayRuns;
using relaxc::testing::vector_add_kernel;

// The fake driver's test hooks, when the device runs on it; null on a real driver.
struct FakeDriver {
  RelaxcFakeCudaCountsFn counts = nullptr;
  RelaxcFakeCudaFailInstantiationFn fail_instantiation = nullptr;
};

FakeDriver fake_driver() {
  FakeDriver fake;
  const char* library = std::getenv("RELAXC_CUDA_LIBRARY");
  if (library == nullptr || *library == '\0') return fake;
  void* handle = dlopen(library, RTLD_NOW | RTLD_NOLOAD);
  if (handle == nullptr) return fake;
  fake.counts = reinterpret_cast<RelaxcFakeCudaCountsFn>(dlsym(handle, "relaxc_fake_cuda_counts"));
  fake.fail_instantiation = reinterpret_cast<RelaxcFakeCudaFailInstantiationFn>(
      dlsym(handle, "relaxc_fake_cuda_fail_instantiation"));
  return fake;
}

std::unique_ptr<CudaDevice> open_or_skip_reason(const CudaOptions& options, std::string* why_not) {
  try {
    return open_cuda_device(options);
  } catch (const RuntimeError& error) {
    *why_not = error.what();
    return nullptr;
  }
}

class CudaReplayTest : public ::testing::Test {
 protected:
  void SetUp() override { open({}); }
  void TearDown() override { runs_.reset(); }

  void open(const CudaOptions& options) {
    runs_.reset();
    std::string why_not;
    device_ = open_or_skip_reason(options, &why_not);
    if (device_ == nullptr) GTEST_SKIP() << "no CUDA device: " << why_not;
    fake_ = fake_driver();
    runs_.emplace(*device_, device_->load_kernel(vector_add_kernel(KernelFormat::Ptx)));
  }

  static constexpr int64_t kN = ReplayRuns::kN;
  std::unique_ptr<CudaDevice> device_;
  std::optional<ReplayRuns> runs_;  // on device_
  FakeDriver fake_;
};

TEST_F(CudaReplayTest, ARepeatedRunIsReplayedAsAGraphAndAnyOtherLaunchedOneByOne) {
  RelaxcFakeCudaCounts fake_before{};
  if (fake_.counts != nullptr) fake_before = *fake_.counts();
  check_repeated_runs(*runs_);
  if (fake_.counts != nullptr) {
    // One graph per run that repeated (the chain, the other scalar, the first two), each
    // made once; the kernels of the replays ran from them.
    const RelaxcFakeCudaCounts& now = *fake_.counts();
    EXPECT_EQ(now.graphs_instantiated - fake_before.graphs_instantiated, 3u);
    EXPECT_EQ(now.graph_launches - fake_before.graph_launches, 5u);
    EXPECT_EQ(now.live_graph_execs - fake_before.live_graph_execs, 3u);
  }
}

TEST_F(CudaReplayTest, EveryOtherUseOfTheStreamEndsTheRun) {
  ReplayRuns& r = *runs_;
  EXPECT_TRUE(counts(r.run(r.chain()).first, 3, 0));
  EXPECT_TRUE(counts(r.run(r.chain()).first, 0, 3));
  // The chain, then a copy of c into d: the run (replayed) ends before the copy, so the
  // copy reads the chain's c.
  LaunchStats before = device_->launch_stats();
  r.enqueue(r.chain());
  device_->copy(r.d, 0, r.c, 0, kN * 4);
  std::vector<float> d(kN);
  device_->download(d.data(), r.d, 0, kN * 4);
  EXPECT_EQ(d, std::vector<float>(kN, 22.0f));
  EXPECT_EQ(device_->launch_stats().replayed - before.replayed, 3u);
  // The chain, then an upload into a (which the chain reads) and a synchronize: a is
  // read before it is overwritten.
  std::vector<float> c(kN, 0.0f);
  device_->upload(r.c, 0, c.data(), kN * 4);
  r.enqueue(r.chain());
  device_->upload(r.a, 0, std::vector<float>(kN, 2.0f).data(), kN * 4);
  device_->synchronize();
  device_->download(c.data(), r.c, 0, kN * 4);
  EXPECT_EQ(c, std::vector<float>(kN, 22.0f));
  // A release while the chain waits in the run: the chain goes out before b is freed
  // (the fake driver poisons freed memory and refuses launches on it).
  r.enqueue(r.chain());
  device_->release(r.b);
  r.b = r.upload(std::vector<float>(kN, 10.0f));
  device_->download(c.data(), r.c, 0, kN * 4);
  EXPECT_EQ(c, std::vector<float>(kN, 24.0f));  // a is 2 now
}

TEST_F(CudaReplayTest, AReplayedRunAllocatesNothingOnTheHost) {
  ReplayRuns& r = *runs_;
  std::vector<ReplayRuns::Launch> chain = r.chain();
  const std::array<uint32_t, 3> grid = {static_cast<uint32_t>((kN + 63) / 64), 1, 1};
  const std::vector<int64_t> n = {kN};
  auto launch_chain = [&] {
    for (const ReplayRuns::Launch& launch : chain) device_->launch(r.add, grid, launch.buffers, n);
    device_->synchronize();
  };
  launch_chain();
  launch_chain();  // kept, then replayed: the graph is made
  LaunchStats before = device_->launch_stats();
  int64_t allocations = relaxc::testing::heap_allocations();
  launch_chain();
  EXPECT_EQ(relaxc::testing::heap_allocations() - allocations, 0);
  EXPECT_EQ(device_->launch_stats().replayed - before.replayed, 3u);
}

TEST_F(CudaReplayTest, TheLeastRecentlyUsedRunIsDroppedPastTheLimit) {
  check_least_recently_used_run_dropped(*runs_, CudaLaunchRuns::kMaxKeptRuns);
}

TEST_F(CudaReplayTest, TimedLaunchesAreNotReplayed) {
  ReplayRuns& r = *runs_;
  EXPECT_TRUE(counts(r.run(r.chain()).first, 3, 0));
  ASSERT_TRUE(device_->set_kernel_timing(true));
  auto [timed, c] = r.run(r.chain());
  EXPECT_TRUE(counts(timed, 3, 0));
  EXPECT_EQ(c, std::vector<float>(kN, 22.0f));
  std::vector<KernelTiming> timings = device_->take_kernel_timings();
  ASSERT_EQ(timings.size(), 3u);
  for (const KernelTiming& timing : timings) EXPECT_EQ(timing.kernel, "vector_add");
  device_->set_kernel_timing(false);
  EXPECT_TRUE(counts(r.run(r.chain()).first, 0, 3));
}

TEST_F(CudaReplayTest, EmptyGridsAreNeitherLaunchedNorPartOfARun) {
  ReplayRuns& r = *runs_;
  EXPECT_TRUE(counts(r.run(r.chain()).first, 3, 0));
  // The chain with an empty launch in the middle: still the chain.
  std::vector<ReplayRuns::Launch> launches = r.chain();
  launches.insert(launches.begin() + 1, ReplayRuns::Launch{launches[1].buffers, 0});
  auto [stats, c] = r.run(launches);
  EXPECT_TRUE(counts(stats, 0, 3));
  EXPECT_EQ(c, std::vector<float>(kN, 22.0f));
}

TEST_F(CudaReplayTest, ReplayOffLaunchesEveryKernel) {
  open({.replay = false});
  for (int call = 0; call < 3; ++call) {
    auto [stats, c] = runs_->run(runs_->chain());
    EXPECT_TRUE(counts(stats, 3, 0));
    EXPECT_EQ(c, std::vector<float>(kN, 22.0f));
  }
  setenv("RELAXC_CUDA_REPLAY", "0", 1);
  open({});
  unsetenv("RELAXC_CUDA_REPLAY");
  for (int call = 0; call < 3; ++call) {
    EXPECT_TRUE(counts(runs_->run(runs_->chain()).first, 3, 0));
  }
}

TEST_F(CudaReplayTest, AGraphTheDriverRefusesLeavesReplayOff) {
  if (fake_.fail_instantiation == nullptr) GTEST_SKIP() << "needs the fake driver";
  ReplayRuns& r = *runs_;
  fake_.fail_instantiation(1);
  EXPECT_TRUE(counts(r.run(r.chain()).first, 3, 0));
  auto [refused, c] = r.run(r.chain());
  fake_.fail_instantiation(0);
  EXPECT_TRUE(counts(refused, 3, 0));
  EXPECT_EQ(c, std::vector<float>(kN, 22.0f));
  EXPECT_TRUE(counts(r.run(r.chain()).first, 3, 0)) << "replay stays off for the device";
}

}  // namespace
}  // namespace relaxc::runtime
