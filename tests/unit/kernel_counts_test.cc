// Tests of count_lowered against hand counts: global and shared bytes, FLOPs, compulsory traffic
// of hand-scheduled kernels (elementwise, a shared-memory tiled matmul, two kernels
// through a workspace) and of the generic schedule's reduction kernels, at several sizes.
#include "passes/tir/kernel_counts.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ir/arith/analyzer.h"
#include "ir/text/printer.h"
#include "passes/tir/default_gpu_schedule.h"
#include "tests/unit/lower_to_kernels_checks.h"
#include "tests/unit/lower_to_kernels_inputs.h"

namespace relaxc {
namespace {

using lowering_checks::evaluate;
using lowering_checks::lower;
using Shapes = std::map<std::string, int64_t>;

struct Totals {
  int64_t read = 0, written = 0, flops = 0;
};

Totals totals(const tir::FuncCounts& counts, const Shapes& shapes) {
  Totals t;
  for (const tir::LaunchCounts& launch : counts.launches) {
    t.read += evaluate(launch.bytes_read, shapes);
    t.written += evaluate(launch.bytes_written, shapes);
    t.flops += evaluate(launch.flops, shapes);
  }
  return t;
}

// Elementwise add of n floats: reads 2 * 4n bytes, writes 4n, n FLOPs, exactly (the tail
// guard lets n of the padded iterations through), on Vulkan with its blocks past 65535
// on an overflow axis, on CUDA without one, and on a target whose grid is too small for
// either but a grid-stride loop (3 blocks a launch).
TEST(KernelCounts, ElementwiseAddIsCompulsory) {
  Target tiny = parse_target("vulkan");
  tiny.max_grid_size = {3, 2, 2};
  const std::pair<const char*, Target> targets[] = {
      {"vulkan", parse_target("vulkan -profile=desktop")},
      {"cuda", parse_target("cuda")},
      {"tiny", tiny}};
  for (const auto& [name, target] : targets) {
    tir::LoweredFunc lowered = tir::lower_to_kernels(
        lowering_checks::parse_func(tir_inputs::kVectorAdd, "add"), "add", target);
    std::string text = text::print_node(lowered.launches[0].kernel.func);
    EXPECT_EQ(text.find("_overflow") != std::string::npos, std::string(name) == "vulkan") << text;
    EXPECT_EQ(text.find("_stride") != std::string::npos, std::string(name) == "tiny") << text;
    tir::FuncCounts counts = tir::count_lowered(lowered);
    EXPECT_EQ(counts.name, "add");
    ASSERT_EQ(counts.launches.size(), 1u);
    EXPECT_FALSE(counts.launches[0].upper_bound) << name;
    EXPECT_EQ(counts.launches[0].block, (std::array<int64_t, 3>{256, 1, 1}));
    EXPECT_EQ(counts.launches[0].shared_memory_bytes, 0);
    for (int64_t n : {1, 7, 1000, 4097, 70000000}) {
      Totals t = totals(counts, {{"n", n}});
      EXPECT_EQ(t.read, 8 * n) << name << " n=" << n;
      EXPECT_EQ(t.written, 4 * n) << name << " n=" << n;
      EXPECT_EQ(t.flops, n) << name << " n=" << n;
      EXPECT_EQ(evaluate(counts.compulsory_read, {{"n", n}}), 8 * n);
      EXPECT_EQ(evaluate(counts.compulsory_written, {{"n", n}}), 4 * n);
    }
  }
}

// The counts are expressions of the shape variables, simplified: 8 * n, not a min of
// the padded grid and n.
TEST(KernelCounts, SymbolicExpressions) {
  tir::FuncCounts counts = tir::count_lowered(lower(tir_inputs::kVectorAdd, "add", "cuda"));
  const tir::LaunchCounts& launch = counts.launches[0];
  EXPECT_EQ(text::print_node(launch.bytes_read), "n * T.int64(8)");
  EXPECT_EQ(text::print_node(launch.flops), "n");
  EXPECT_EQ(text::print_node(counts.compulsory_written), "n * T.int64(4)");
}

// A reduction per output of a fused (n, 8) output, 256 outputs per thread block: the
// guard on the reduction reads the thread index through a quotient (b * 32 + t // 8 < n,
// as compute_at writes it), 8 threads per value of t // 8. Counted exactly: y is read and
// written at every step of its 16 and set once.
TEST(KernelCounts, GuardOnAQuotientOfTheThreadIndex) {
  const char* source = R"(@I.ir_module
class Module:
    @T.prim_func
    def rows(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 8, 16))
        y = T.match_buffer(var_y, (n, 8))
        for b in T.thread_binding((n * T.int64(8) + T.int64(255)) // T.int64(256), thread="blockIdx.x"):
            for t in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                for k in range(T.int64(16)):
                    with T.block("sum"):
                        v0 = T.axis.spatial(n, b * T.int64(32) + t // T.int64(8))
                        v1 = T.axis.spatial(T.int64(8), t % T.int64(8))
                        vk = T.axis.reduce(T.int64(16), k)
                        T.where(b * T.int64(32) + t // T.int64(8) < n)
                        with T.init():
                            y[v0, v1] = T.float32(0)
                        y[v0, v1] = y[v0, v1] + x[v0, v1, vk]
)";
  for (const char* target : {"vulkan -profile=desktop", "cuda"}) {
    tir::FuncCounts counts = tir::count_lowered(lower(source, "rows", target));
    ASSERT_EQ(counts.launches.size(), 1u);
    EXPECT_FALSE(counts.launches[0].upper_bound) << target;
    for (int64_t n : {1, 7, 33, 1000, 4097}) {
      Totals t = totals(counts, {{"n", n}});
      EXPECT_EQ(t.read, 8 * n * 16 * 2 * 4) << target << " n=" << n;
      EXPECT_EQ(t.written, 8 * n * 17 * 4) << target << " n=" << n;
      EXPECT_EQ(t.flops, 8 * n * 16) << target << " n=" << n;
    }
  }
}

// The tiled matmul: 32 x 32 output tiles per block, k in steps of 16 through shared tiles
// of A (32 x 16) and B (16 x 32). Each block reads a 32-row strip of A and a 32-column
// strip of B: A is read n / 32 times, B m / 32 times; C written once; 2 m n k FLOPs.
// Its 2-D tail guards are not understood, so the counts are upper bounds, exact when the
// sizes are multiples of the tiles.
TEST(KernelCounts, TiledMatmulWithSharedMemory) {
  tir::FuncCounts counts =
      tir::count_lowered(lower(tir_inputs::kCooperativeMatmul, "matmul", "cuda"));
  ASSERT_EQ(counts.launches.size(), 1u);
  const tir::LaunchCounts& launch = counts.launches[0];
  EXPECT_EQ(launch.shared_memory_bytes, (32 * 16 + 16 * 32) * 4);
  EXPECT_EQ(launch.block, (std::array<int64_t, 3>{32, 8, 1}));
  EXPECT_TRUE(launch.upper_bound);
  for (int64_t size : {64, 128}) {
    const int64_t m = size, n = size, k = size;
    Shapes shapes = {{"m", m}, {"n", n}, {"k", k}};
    Totals t = totals(counts, shapes);
    EXPECT_EQ(t.read, m * k * 4 * (n / 32) + k * n * 4 * (m / 32)) << size;
    EXPECT_EQ(t.written, m * n * 4) << size;
    EXPECT_EQ(t.flops, 2 * m * n * k) << size;
    // The tiles are written once per block and k step (what was read from global memory)
    // and read twice per FMA: 2 FLOPs per 8 shared bytes, no reuse in registers.
    EXPECT_EQ(evaluate(launch.shared_bytes_written, shapes), t.read) << size;
    EXPECT_EQ(evaluate(launch.shared_bytes_read, shapes), 8 * m * n * k) << size;
    EXPECT_EQ(evaluate(counts.compulsory_read, shapes), (m * k + k * n) * 4);
    EXPECT_EQ(evaluate(counts.compulsory_written, shapes), m * n * 4);
    EXPECT_EQ(evaluate(launch.grid[0], shapes), n / 32);
    EXPECT_EQ(evaluate(launch.grid[1], shapes), m / 32);
  }
}

// Two kernels through a global intermediate: 4n bytes written and read back that the
// compulsory traffic (A read, B written) does not have.
TEST(KernelCounts, WorkspaceTrafficExceedsCompulsory) {
  tir::FuncCounts counts =
      tir::count_lowered(lower(tir_inputs::kTwoKernels, "two_kernels", "cuda"));
  ASSERT_EQ(counts.launches.size(), 2u);
  for (int64_t n : {1, 1000}) {
    Totals t = totals(counts, {{"n", n}});
    EXPECT_EQ(t.read, 8 * n);
    EXPECT_EQ(t.written, 8 * n);
    EXPECT_EQ(t.flops, 2 * n);
    EXPECT_EQ(evaluate(counts.compulsory_read, {{"n", n}}) +
                  evaluate(counts.compulsory_written, {{"n", n}}),
              8 * n);
  }
}

// The generic schedule's row sum: one block of 256 threads per row, each thread summing a
// strided part of the row, then the tree. Reads the m x n input once and writes m sums:
// compulsory. FLOPs: m n adds, plus per row the tree of the target (CUDA: 5 shuffle steps
// over 256 threads, 3 over the 8 warp sums in the first warp, then the final add).
TEST(KernelCounts, RowSumOfTheGenericSchedule) {
  constexpr const char* kSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def sum(var_A: T.handle, var_B: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(var_A, (m, n))
        B = T.match_buffer(var_B, (m,))
        for i, j in T.grid(m, n):
            with T.block("B"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vj]
)";
  Target target = parse_target("cuda");
  tir::PrimFunc scheduled =
      tir::default_gpu_schedule(lowering_checks::parse_func(kSum, "sum"), target);
  tir::FuncCounts counts = tir::count_lowered(tir::lower_to_kernels(scheduled, "sum", target));
  ASSERT_EQ(counts.launches.size(), 1u);
  EXPECT_FALSE(counts.launches[0].upper_bound);
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {7, 1000}, {3, 4097}}) {
    Totals t = totals(counts, {{"m", m}, {"n", n}});
    EXPECT_EQ(t.read, 4 * m * n);
    EXPECT_EQ(t.written, 4 * m);
    EXPECT_EQ(t.flops, m * n + m * (5 * 256 + 3 * 32 + 1));
    // The 8 warp sums of each row through shared memory.
    EXPECT_EQ(evaluate(counts.launches[0].shared_bytes_written, {{"m", m}, {"n", n}}), 32 * m);
    EXPECT_EQ(evaluate(counts.launches[0].shared_bytes_read, {{"m", m}, {"n", n}}), 32 * m);
  }
}

}  // namespace
}  // namespace relaxc
