// Launch replay's test scenario, shared by the devices that replay (Vulkan's kept command
// buffers, CUDA's graphs): chains of vector_add over four buffers, each run ended by a
// download, and the launches each run recorded and replayed.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "runtime/device.h"

namespace relaxc::testing {

class ReplayRuns {
 public:
  struct Launch {
    std::vector<runtime::DeviceBuffer> buffers;  // a, b, c of vector_add
    int64_t n = 0;
  };
  static constexpr int64_t kN = 1000;

  // `add`: vector_add_kernel loaded on `device`. Makes a = 1 and b = 10 (kN floats each),
  // and c and d.
  ReplayRuns(runtime::Device& device, runtime::KernelId add);
  ~ReplayRuns();  // releases the four buffers
  ReplayRuns(const ReplayRuns&) = delete;
  ReplayRuns& operator=(const ReplayRuns&) = delete;

  runtime::DeviceBuffer upload(const std::vector<float>& values);
  // The launches, with grids of 64-wide blocks over n.
  void enqueue(const std::vector<Launch>& launches);
  // The launches, then a download of c (which ends the run): the launches recorded and
  // replayed meanwhile, and c.
  std::pair<runtime::LaunchStats, std::vector<float>> run(const std::vector<Launch>& launches);
  // c = a + b; d = c + a; c = d + b: c = 2a + 2b (22 everywhere with the first a and b).
  std::vector<Launch> chain(int64_t second_n = kN) const;

  runtime::Device& device;
  runtime::KernelId add;
  runtime::DeviceBuffer a, b, c, d;
};

// Success when `stats` counts `recorded` and `replayed` launches.
::testing::AssertionResult counts(const runtime::LaunchStats& stats, uint64_t recorded,
                                  uint64_t replayed);

// A repeated run is replayed; one with another scalar, one that ends inside a kept run
// and one with another buffer are recorded, and replayed when they repeat; results are
// unchanged throughout.
void check_repeated_runs(ReplayRuns& runs);
// With one more run than the device keeps (`max_kept`), the least recently used goes.
void check_least_recently_used_run_dropped(ReplayRuns& runs, size_t max_kept);

}  // namespace relaxc::testing
