// What each launch of a lowered PrimFunc costs, counted from its kernel: global bytes read
// and written and floating-point operations, as expressions of the function's shape
// variables, and the compulsory traffic they are judged against. The kernel report
// (driver/kernel_report.h) prints them; tests compare them with hand counts.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/tir/lowered_func.h"

namespace relaxc::tir {

// One launch. Counts are int64 expressions over the host vars (the shape variables of
// the function's parameters), simplified; null where a loop's trip count depends on data.
struct LaunchCounts {
  std::string kernel;            // DeviceKernel::name
  std::array<PrimExpr, 3> grid;  // blockIdx.x/y/z extents
  std::array<int64_t, 3> block = {1, 1, 1};
  // KernelLaunch::condition: where defined, the launch runs only where it holds; the
  // counts are those of a launch that runs.
  PrimExpr condition;
  int64_t shared_memory_bytes = 0;
  PrimExpr bytes_read, bytes_written, flops;
  // Loads and stores of shared memory, counted as the global ones: with the FLOPs they
  // show how much a tile in shared memory is reused.
  PrimExpr shared_bytes_read, shared_bytes_written;
  // True when some guard was not understood, so that its statements are counted on every
  // iteration of the loops around them: the counts are then upper bounds.
  bool upper_bound = false;
};

struct FuncCounts {
  std::string name;  // the PrimFunc's name (fused_<ops> after fusion)
  std::vector<LaunchCounts> launches;
  // Each parameter the kernels only read, read once; each parameter they write, written
  // once: the least traffic any schedule of the function can have.
  PrimExpr compulsory_read, compulsory_written;
};

// Counts every launch of `func`. Each global (and shared) load or store counts its dtype's
// bytes (all lanes), each floating-point add, sub, mul, div, mod, min, max and each call with a
// floating-point result (exp, sqrt, ...) counts one operation per lane; every one of them
// times the trip counts of the loops around it, thread-bound loops included (a blockIdx
// loop and its grid-stride loop, or its overflow axis under its guard, together run the
// grid's extent). A guard counts exactly
// the iterations it lets through where it is understood: a comparison of a mixed-radix
// index of loops with a bound (`i0 * 256 + i1 < n`, the tail guard of a split), or any
// condition on loops of constant trip count (thread indices: `tx < 32`, `tx % 32 == 0`;
// an else branch: where it fails), which is enumerated. Any other condition counts as its
// loops do (both values of a select too) and marks the launch an upper bound.
FuncCounts count_lowered(const LoweredFunc& func);

}  // namespace relaxc::tir
