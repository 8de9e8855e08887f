#include "tests/support/replay_runs.h"

namespace relaxc::testing {

using runtime::DeviceBuffer;
using runtime::LaunchStats;

ReplayRuns::ReplayRuns(runtime::Device& device, runtime::KernelId add) : device(device), add(add) {
  a = upload(std::vector<float>(kN, 1.0f));
  b = upload(std::vector<float>(kN, 10.0f));
  c = device.allocate(kN * 4);
  d = device.allocate(kN * 4);
}

ReplayRuns::~ReplayRuns() {
  for (DeviceBuffer buffer : {a, b, c, d}) {
    if (buffer.id != 0) device.release(buffer);
  }
}

DeviceBuffer ReplayRuns::upload(const std::vector<float>& values) {
  DeviceBuffer buffer = device.allocate(values.size() * 4);
  device.upload(buffer, 0, values.data(), values.size() * 4);
  return buffer;
}

void ReplayRuns::enqueue(const std::vector<Launch>& launches) {
  for (const Launch& launch : launches) {
    std::vector<int64_t> scalars = {launch.n};
    device.launch(add, {static_cast<uint32_t>((launch.n + 63) / 64), 1, 1}, launch.buffers,
                  scalars);
  }
}

std::pair<LaunchStats, std::vector<float>> ReplayRuns::run(const std::vector<Launch>& launches) {
  LaunchStats before = device.launch_stats();
  enqueue(launches);
  std::vector<float> values(kN);
  device.download(values.data(), c, 0, kN * 4);
  LaunchStats after = device.launch_stats();
  return {{after.recorded - before.recorded, after.replayed - before.replayed}, values};
}

std::vector<ReplayRuns::Launch> ReplayRuns::chain(int64_t second_n) const {
  return {{{a, b, c}, kN}, {{c, a, d}, second_n}, {{d, b, c}, kN}};
}

::testing::AssertionResult counts(const LaunchStats& stats, uint64_t recorded, uint64_t replayed) {
  if (stats.recorded == recorded && stats.replayed == replayed) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << stats.recorded << " recorded and " << stats.replayed
                                       << " replayed; expected " << recorded << " and " << replayed;
}

void check_repeated_runs(ReplayRuns& runs) {
  const std::vector<float> expected(ReplayRuns::kN, 22.0f);
  auto [first, c1] = runs.run(runs.chain());
  EXPECT_TRUE(counts(first, 3, 0));
  EXPECT_EQ(c1, expected);
  auto [again, c2] = runs.run(runs.chain());
  EXPECT_TRUE(counts(again, 0, 3));
  EXPECT_EQ(c2, expected);
  // The second launch's scalar differs: the first is recorded after all, with the rest.
  // d = c + a over its first 999 elements only; d's last one is still 12 from before.
  auto [other_scalar, c3] = runs.run(runs.chain(ReplayRuns::kN - 1));
  EXPECT_TRUE(counts(other_scalar, 3, 0));
  EXPECT_EQ(c3, expected);
  EXPECT_TRUE(counts(runs.run(runs.chain(ReplayRuns::kN - 1)).first, 0, 3));
  // Ending inside the kept runs: a run of its own.
  std::vector<ReplayRuns::Launch> two = {runs.chain()[0], runs.chain()[1]};
  EXPECT_TRUE(counts(runs.run(two).first, 2, 0));
  EXPECT_TRUE(counts(runs.run(two).first, 0, 2));
  EXPECT_TRUE(counts(runs.run(runs.chain()).first, 0, 3));
  // Another output buffer (c and d swapped in the last launch).
  std::vector<ReplayRuns::Launch> swapped = runs.chain();
  swapped[2].buffers = {runs.c, runs.b, runs.d};
  EXPECT_TRUE(counts(runs.run(swapped).first, 3, 0));
  auto [last, c4] = runs.run(runs.chain());
  EXPECT_TRUE(counts(last, 0, 3));
  EXPECT_EQ(c4, expected);
}

void check_least_recently_used_run_dropped(ReplayRuns& runs, size_t max_kept) {
  const auto kept = static_cast<int64_t>(max_kept);
  auto single = [&](int64_t n) {
    return std::vector<ReplayRuns::Launch>{{{runs.a, runs.b, runs.c}, n}};
  };
  for (int64_t n = 1; n <= kept + 1; ++n) EXPECT_TRUE(counts(runs.run(single(n)).first, 1, 0));
  EXPECT_TRUE(counts(runs.run(single(kept + 1)).first, 0, 1));
  EXPECT_TRUE(counts(runs.run(single(1)).first, 1, 0)) << "the run of n = 1 was the oldest";
  EXPECT_TRUE(counts(runs.run(single(3)).first, 0, 1));
}

}  // namespace relaxc::testing
