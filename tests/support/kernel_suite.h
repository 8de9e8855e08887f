// The GPU kernel suite: TensorIR functions with their schedules, argument makers and
// CPU references, run by every back end's tests and benchmarks (one suite instantiated
// per device, as IREE's conformance tests are).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/target/target.h"
#include "ir/tir/stmt.h"
#include "passes/tir/schedule/schedule.h"
#include "tests/support/host_array.h"

namespace relaxc::testing {

using Sizes = std::map<std::string, int64_t>;

struct SuiteKernel {
  std::string name;    // the PrimFunc's name in `source`
  std::string source;  // a TVMScript module holding the PrimFunc
  // The hand-written schedule; null: the default GPU schedule.
  std::function<void(tir::Schedule&, const Target&)> schedule;
  std::vector<Sizes> sizes;  // values of the symbolic dims to test
  // The arguments for `sizes`: inputs pseudo-random from `seed`, outputs zero.
  std::function<std::vector<HostArray>(const Sizes&, uint64_t seed)> make_args;
  // Overwrites the outputs of `args` with their expected values, computed on the CPU.
  std::function<void(std::vector<HostArray>& args)> reference;
  std::vector<int> outputs;  // which arguments the kernel writes
  double atol = 1e-5, rtol = 1e-5;
  DataType element_type = DataType::Float(32);  // skipped where the device lacks it
};

const std::vector<SuiteKernel>& kernel_suite();
const SuiteKernel& suite_kernel(const std::string& name);

// The kernel's PrimFunc, scheduled for `target` (its schedule, or the default one).
tir::PrimFunc scheduled_kernel(const SuiteKernel& kernel, const Target& target);

// The tiled matrix multiply's schedule (shared-memory tiles of A and B, a local
// accumulator; 32x32 tiles per block of 8x32 threads), also used by the benchmarks.
void schedule_tiled_matmul(tir::Schedule& s, const Target& target);

}  // namespace relaxc::testing
