// Tests of lower_to_kernels on hand-scheduled functions: kernels, their params, launch
// dimensions and shared memory, the lowered text, and results on the reference
// interpreter against the scheduled function.
#include "passes/tir/lower_to_kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "ir/arith/analyzer.h"
#include "ir/module.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "tests/support/host_array.h"
#include "tests/support/tir_interpreter.h"
#include "tests/unit/lower_to_kernels_checks.h"
#include "tests/unit/lower_to_kernels_inputs.h"

namespace relaxc {
namespace {

using namespace lowering_checks;  // NOLINT(google-build-using-namespace)

constexpr const char* kExpectedAddKernel = R"(@I.ir_module
class Module:
    @T.prim_func
    def add_kernel(var_A: T.handle, var_B: T.handle, var_C: T.handle, n: T.int32):
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i_0 in T.thread_binding(T.min(65535, (n + 255) // 256), thread="blockIdx.x"):
            for i_0_overflow in T.thread_binding(((n + 255) // 256 + 65534) // 65535, thread="blockIdx.y"):
                for i_1 in T.thread_binding(256, thread="threadIdx.x"):
                    if i_0 + i_0_overflow * 65535 < (n + 255) // 256:
                        if i_0 * 256 + i_0_overflow * 16776960 + i_1 < n:
                            C[i_0 * 256 + i_0_overflow * 16776960 + i_1] = A[i_0 * 256 + i_0_overflow * 16776960 + i_1] + B[i_0 * 256 + i_0_overflow * 16776960 + i_1]
)";

TEST(LowerToKernels, VectorAddSymbolic) {
  tir::LoweredFunc lowered = lower(tir_inputs::kVectorAdd, "add");
  EXPECT_EQ(lowered.name, "add");
  ASSERT_EQ(lowered.params.size(), 3u);
  EXPECT_TRUE(lowered.workspaces.empty());
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::KernelLaunch& launch = lowered.launches[0];
  const tir::DeviceKernel& kernel = launch.kernel;
  EXPECT_EQ(kernel.name, "add_kernel");
  EXPECT_EQ(param_names(kernel.func), "A, B, C, n:int32");
  EXPECT_EQ(kernel.num_buffer_params(), 3);
  EXPECT_EQ(launch.buffer_args, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(launch.scalar_args.size(), 1u);
  EXPECT_EQ(evaluate(launch.scalar_args[0], {{"n", 77}}), 77);
  EXPECT_EQ(kernel.block_size, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(kernel.shared_memory_bytes, 0);
  // A symbolic grid may exceed Vulkan's 65535 blocks: the launch is capped there and the
  // blocks past it overflow onto blockIdx.y.
  for (int64_t n : {1, 255, 256, 257, 1000, 4096, 65535 * 256, 65535 * 256 + 1, 1 << 30}) {
    const int64_t blocks = (n + 255) / 256;
    EXPECT_EQ(evaluate(launch.grid_size[0], {{"n", n}}), std::min<int64_t>(65535, blocks)) << n;
    EXPECT_EQ(evaluate(launch.grid_size[1], {{"n", n}}), (blocks + 65534) / 65535) << n;
    EXPECT_EQ(evaluate(launch.grid_size[2], {{"n", n}}), 1);
  }
  expect_same(expected_kernel(kExpectedAddKernel, "add_kernel"), kernel.func);
  expect_round_trip(kernel);
}

TEST(LowerToKernels, VectorAddRunsLikeTheSource) {
  tir::PrimFunc source = parse_func(tir_inputs::kVectorAdd, "add");
  tir::LoweredFunc lowered = tir::lower_to_kernels(source, "add", parse_target("vulkan"));
  for (int64_t n : {1, 200, 256, 1000}) {
    HostArray a = testing::random_array(DataType::Float(32), {n}, 1);
    HostArray b = testing::random_array(DataType::Float(32), {n}, 2);
    HostArray c = testing::zeros(DataType::Float(32), {n});
    run_lowered(lowered, {&a, &b, &c}, {{"n", n}});
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_FLOAT_EQ(static_cast<float>(c.data[i]), static_cast<float>(a.data[i] + b.data[i]))
          << "n=" << n << " i=" << i;
    }
    HostArray c_source = testing::zeros(DataType::Float(32), {n});
    testing::interpret(source, {&a, &b, &c_source});
    EXPECT_EQ(c.data, c_source.data);
  }
}

// The vector add (n = 1 to 5000) and the transpose (up to 100 x 70) lowered for `target`
// run like their sources on the interpreter; returns the add's lowering.
tir::LoweredFunc expect_add_and_transpose_run_like_the_source(const Target& target) {
  tir::PrimFunc add = parse_func(tir_inputs::kVectorAdd, "add");
  tir::LoweredFunc lowered_add = tir::lower_to_kernels(add, "add", target);
  for (int64_t n : {1, 256 * 3, 256 * 3 + 1, 5000}) {
    HostArray a = testing::random_array(DataType::Float(32), {n}, 1);
    HostArray b = testing::random_array(DataType::Float(32), {n}, 2);
    HostArray c = testing::zeros(DataType::Float(32), {n});
    run_lowered(lowered_add, {&a, &b, &c}, {{"n", n}});
    HostArray c_source = testing::zeros(DataType::Float(32), {n});
    testing::interpret(add, {&a, &b, &c_source});
    EXPECT_EQ(c.data, c_source.data) << "n=" << n;
  }
  tir::PrimFunc transpose = parse_func(tir_inputs::kTranspose, "transpose");
  tir::LoweredFunc lowered = tir::lower_to_kernels(transpose, "transpose", target);
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{40, 17}, {100, 70}, {1, 33}}) {
    HostArray a = testing::random_array(DataType::Float(32), {m, n}, 3);
    HostArray b = testing::zeros(DataType::Float(32), {n, m});
    run_lowered(lowered, {&a, &b}, {{"m", m}, {"n", n}});
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j)
        EXPECT_EQ(b.data[j * m + i], a.data[i * n + j]) << m << "x" << n;
    }
  }
  return lowered_add;
}

// Doubles 64 floats, 4 per block, with the blocks bound as `bindings` says.
tir::PrimFunc double_64(const std::string& bindings) {
  return parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32")):
)" + bindings + R"(
                with T.block("B"):
                    vi = T.axis.spatial(64, b * 4 + t)
                    B[vi] = A[vi] * T.float32(2)
)",
                    "f");
}

void expect_doubles(const tir::LoweredFunc& lowered) {
  HostArray a = testing::random_array(DataType::Float(32), {64}, 5);
  HostArray b = testing::zeros(DataType::Float(32), {64});
  run_lowered(lowered, {&a, &b}, {});
  for (int64_t i = 0; i < 64; ++i) ASSERT_EQ(b.data[i], a.data[i] * 2) << i;
}

// A grid over the target's limit, symbolic or constant, on one axis or two, where no
// other axis holds the blocks past the limit: the launch is capped at the limit and each
// block strides over the rest, with the same results. (The interpreter runs a block's
// threads one after another, so kernels whose threads exchange values are run on a
// device instead: tests/lit/tools/grid_stride.py.)
TEST(LowerToKernels, GridStrideLoopsRunLikeTheSource) {
  Target tiny = parse_target("vulkan");
  tiny.max_grid_size = {3, 2, 2};
  tir::LoweredFunc add = expect_add_and_transpose_run_like_the_source(tiny);
  for (int64_t n : {1, 256 * 3, 256 * 3 + 1, 5000}) {
    EXPECT_EQ(evaluate(add.launches[0].grid_size[0], {{"n", n}}),
              std::min<int64_t>(3, (n + 255) / 256));
  }
  // A constant grid of 16 blocks: 3 launched, 6 strides for the first block.
  tir::LoweredFunc lowered = tir::lower_to_kernels(double_64(R"(
        for b in T.thread_binding(16, thread="blockIdx.x"):
            for t in T.thread_binding(4, thread="threadIdx.x"):)"),
                                                   "f", tiny);
  EXPECT_EQ(evaluate(lowered.launches[0].grid_size[0], std::map<std::string, int64_t>{}), 3);
  expect_doubles(lowered);
}

// A grid over the target's limit where another blockIdx axis is free (unused, or bound
// only by loops of extent 1) and holds the blocks past the limit: they overflow onto it,
// under a guard, with the same results. The transpose's x overflows onto z; its y, with
// no free axis left, strides.
TEST(LowerToKernels, OverflowAxesRunLikeTheSource) {
  Target tiny = parse_target("vulkan");
  tiny.max_grid_size = {3, 1 << 30, 1 << 30};
  tir::LoweredFunc add = expect_add_and_transpose_run_like_the_source(tiny);
  EXPECT_EQ(text::print_node(add.launches[0].kernel.func).find("stride"), std::string::npos);
  for (int64_t n : {1, 256 * 3, 256 * 3 + 1, 5000}) {
    const int64_t blocks = (n + 255) / 256;
    EXPECT_EQ(evaluate(add.launches[0].grid_size[0], {{"n", n}}), std::min<int64_t>(3, blocks));
    EXPECT_EQ(evaluate(add.launches[0].grid_size[1], {{"n", n}}), (blocks + 2) / 3);
  }
  tir::LoweredFunc transpose =
      tir::lower_to_kernels(parse_func(tir_inputs::kTranspose, "transpose"), "transpose", tiny);
  EXPECT_EQ(evaluate(transpose.launches[0].grid_size[2], {{"m", 100}, {"n", 70}}), 2);

  // A constant grid of 16 blocks beside a blockIdx.y loop of extent 1: 3 blocks in x, the
  // rest overflow onto y, 6 of them, whose loop of extent 1 runs once.
  tir::LoweredFunc lowered = tir::lower_to_kernels(double_64(R"(
        for u in T.thread_binding(1, thread="blockIdx.y"):
          for b in T.thread_binding(16, thread="blockIdx.x"):
            for t in T.thread_binding(4, thread="threadIdx.x"):)"),
                                                   "f", tiny);
  const std::map<std::string, int64_t> none;
  EXPECT_EQ(evaluate(lowered.launches[0].grid_size[0], none), 3);
  EXPECT_EQ(evaluate(lowered.launches[0].grid_size[1], none), 6);
  EXPECT_EQ(evaluate(lowered.launches[0].grid_size[2], none), 1);
  expect_doubles(lowered);
}

// Rows of C columns, a thread block per row: the VM refuses a buffer of 2^31 elements
// or more, so n is at most (2^31 - 1) / C. With C = 65536 (n <= 32767) the grid fits
// Vulkan's 65535 blocks as it is; with C = 1024 (n <= 2097151) it may not, and the
// blocks past the limit overflow onto blockIdx.y.
TEST(LowerToKernels, Int32IndexingBoundsTheGrid) {
  for (int64_t columns : {65536, 1024}) {
    std::string c = std::to_string(columns);
    tir::LoweredFunc lowered = lower(R"(@I.ir_module
class Module:
    @T.prim_func
    def rows(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, )" +
                                         c + R"())
        B = T.match_buffer(var_B, (n, )" +
                                         c + R"())
        for b in T.thread_binding(n, thread="blockIdx.x"):
            for t in T.thread_binding(256, thread="threadIdx.x"):
                for k in range()" + std::to_string(columns / 256) +
                                         R"():
                    with T.block("B"):
                        vi = T.axis.spatial(n, b)
                        vj = T.axis.spatial()" +
                                         c + R"(, k * 256 + t)
                        B[vi, vj] = A[vi, vj] * T.float32(2)
)",
                                     "rows");
    const tir::KernelLaunch& launch = lowered.launches[0];
    std::string text = text::print_node(launch.kernel.func);
    EXPECT_EQ(text.find("_overflow") != std::string::npos, columns == 1024) << text;
    EXPECT_EQ(text.find("_stride"), std::string::npos) << text;
    EXPECT_EQ(evaluate(launch.grid_size[0], {{"n", 32767}}), 32767);
    EXPECT_EQ(evaluate(launch.grid_size[1], {{"n", 32767}}), 1);
  }
}

// On CUDA the x limit (2^31 - 1) is above any extent an int32-indexed kernel has: no
// overflow axis and no grid-stride loop in the common case.
TEST(LowerToKernels, NoGridStrideLoopOnCudaX) {
  tir::LoweredFunc lowered = lower(tir_inputs::kVectorAdd, "add", "cuda");
  std::string text = text::print_node(lowered.launches[0].kernel.func);
  EXPECT_EQ(text.find("overflow"), std::string::npos) << text;
  EXPECT_EQ(text.find("stride"), std::string::npos) << text;
}

constexpr const char* kExpectedTransposeKernel = R"(@I.ir_module
class Module:
    @T.prim_func
    def transpose_kernel(var_A: T.handle, var_B: T.handle, m: T.int32, n: T.int32):
        A = T.match_buffer(var_A, (m * n,))
        B = T.match_buffer(var_B, (m * n,))
        for by in T.thread_binding(T.min(65535, (m + 15) // 16), thread="blockIdx.y"):
            for bx in T.thread_binding(T.min(65535, (n + 15) // 16), thread="blockIdx.x"):
                for bx_overflow in T.thread_binding(((n + 15) // 16 + 65534) // 65535, thread="blockIdx.z"):
                    for ty in T.thread_binding(16, thread="threadIdx.y"):
                        for tx in T.thread_binding(16, thread="threadIdx.x"):
                            for by_stride in range(((m + 15) // 16 - by + 65534) // 65535):
                                if bx + bx_overflow * 65535 < (n + 15) // 16:
                                    if by * 16 + by_stride * 1048560 + ty < m and bx * 16 + bx_overflow * 1048560 + tx < n:
                                        B[bx * m * 16 + bx_overflow * m * 1048560 + by * 16 + by_stride * 1048560 + m * tx + ty] = A[bx * 16 + bx_overflow * 1048560 + by * n * 16 + by_stride * n * 1048560 + n * ty + tx]
)";

// Both grid axes may pass Vulkan's limit: x's blocks past it overflow onto the free
// blockIdx.z; y, with no free axis left, strides.
TEST(LowerToKernels, Transpose2DThreads) {
  tir::PrimFunc source = parse_func(tir_inputs::kTranspose, "transpose");
  tir::LoweredFunc lowered = tir::lower_to_kernels(source, "transpose", parse_target("vulkan"));
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::KernelLaunch& launch = lowered.launches[0];
  EXPECT_EQ(param_names(launch.kernel.func), "A, B, m:int32, n:int32");
  EXPECT_EQ(launch.kernel.block_size, (std::array<int64_t, 3>{16, 16, 1}));
  EXPECT_EQ(evaluate(launch.grid_size[0], {{"m", 40}, {"n", 17}}), 2);
  EXPECT_EQ(evaluate(launch.grid_size[1], {{"m", 40}, {"n", 17}}), 3);
  EXPECT_EQ(evaluate(launch.grid_size[2], {{"m", 40}, {"n", 17}}), 1);
  EXPECT_EQ(evaluate(launch.grid_size[2], {{"m", 40}, {"n", 65536 * 16}}), 2);
  expect_same(expected_kernel(kExpectedTransposeKernel, "transpose_kernel"), launch.kernel.func);
  expect_round_trip(launch.kernel);

  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{{16, 16}, {40, 17}, {1, 33}}) {
    HostArray a = testing::random_array(DataType::Float(32), {m, n}, 3);
    HostArray b = testing::zeros(DataType::Float(32), {n, m});
    run_lowered(lowered, {&a, &b}, {{"m", m}, {"n", n}});
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) ASSERT_EQ(b.data[j * m + i], a.data[i * n + j]);
    }
  }
}

// A loop of one iteration (here a batch of one on blockIdx.z) runs at its min: the kernel
// simplifier drops its var from the indices, so that the thread's register array is
// indexed by constants once its loops unroll (a var there would put it in memory on a
// Vulkan driver, which does not know blockIdx.z < 1).
TEST(LowerToKernels, LoopsOfOneIterationRunAtTheirMin) {
  tir::PrimFunc source = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def k(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for z in T.thread_binding(1, thread="blockIdx.z"):
            for t in T.thread_binding(16, thread="threadIdx.x"):
                R = T.alloc_buffer((8,), scope="local")
                for j in range(1):
                    for i in T.unroll(8):
                        R[z * 8 + j * 8 + i] = A[z * 128 + t * 8 + i + j]
                for i in T.unroll(8):
                    B[t * 8 + i] = R[z * 8 + i] * T.float32(2)
)",
                                    "k");
  tir::PrimFunc expected = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def k(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32")):
        for z in T.thread_binding(1, thread="blockIdx.z"):
            for t in T.thread_binding(16, thread="threadIdx.x"):
                R = T.alloc_buffer((8,), scope="local")
                for j in range(1):
                    for i in T.unroll(8):
                        R[i] = A[t * 8 + i]
                for i in T.unroll(8):
                    B[t * 8 + i] = R[i] * T.float32(2)
)",
                                      "k");
  expect_same(tir::simplify_kernel(expected), tir::simplify_kernel(source));
}

TEST(LowerToKernels, CrossThreadRowSum) {
  tir::LoweredFunc lowered = lower(tir_inputs::kRowSum, "row_sum");
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::KernelLaunch& launch = lowered.launches[0];
  const tir::PrimFunc& f = launch.kernel.func;
  EXPECT_EQ(param_names(f), "A, S, n:int32");
  EXPECT_EQ(launch.kernel.block_size, (std::array<int64_t, 3>{256, 1, 1}));
  EXPECT_EQ(evaluate(launch.grid_size[0], {{"n", 37}}), 37);
  // One float per thread in shared memory, one partial result per thread in local memory.
  EXPECT_EQ(launch.kernel.shared_memory_bytes, 256 * 4);
  auto allocs = allocations(f);
  EXPECT_EQ(allocs["S_shared"], (std::pair<std::string, int64_t>{"shared", 256}));
  EXPECT_EQ(allocs["S_partial"], (std::pair<std::string, int64_t>{"local", 1}));
  // A barrier after the slots are written and one after each of the log2(256) = 8 tree
  // steps. None before the slots are written: nothing used them before. (The rows past
  // Vulkan's 65535 blocks overflow onto blockIdx.y, so no loop runs the body again.)
  EXPECT_EQ(count_barriers(f), 9);
  std::string text = text::print_node(f);
  EXPECT_NE(text.find("if tx < 128:"), std::string::npos) << text;
  EXPECT_NE(text.find("if tx == 0:\n"), std::string::npos) << text;
  EXPECT_NE(text.find("S[b + b_overflow * 65535] = T.float32(0) + S_shared[0]"), std::string::npos)
      << text;
  expect_round_trip(launch.kernel);
}

constexpr const char* kNonPowerOfTwoMax = R"(@I.ir_module
class Module:
    @T.prim_func
    def row_max(A: T.Buffer((8, 100), "int32"), M: T.Buffer((8,), "int32")):
        for b in T.thread_binding(8, thread="blockIdx.x"):
            for tx in T.thread_binding(100, thread="threadIdx.x"):
                with T.block("M"):
                    vb = T.axis.spatial(8, b)
                    vk = T.axis.reduce(100, tx)
                    with T.init():
                        M[vb] = 7
                    M[vb] = T.max(M[vb], A[vb, vk])
)";

TEST(LowerToKernels, CrossThreadMaxOverNonPowerOfTwoThreads) {
  tir::LoweredFunc lowered = lower(kNonPowerOfTwoMax, "row_max");
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::PrimFunc& f = lowered.launches[0].kernel.func;
  std::string text = text::print_node(f);
  // 100 threads: the tree starts at 64, and its first step guards the partner index
  // (tx + 64 < 100, that is tx < 36); from 32 down every partner exists.
  EXPECT_NE(text.find("if tx < 64 and tx < 36:"), std::string::npos) << text;
  EXPECT_NE(text.find("if tx < 32:"), std::string::npos) << text;
  EXPECT_NE(text.find("if tx < 1:"), std::string::npos) << text;
  // The identity of max on int32 starts each thread; the init value joins at the end.
  EXPECT_NE(text.find("M_partial[0] = -2147483648"), std::string::npos) << text;
  EXPECT_NE(text.find("M[b] = T.max(7, M_shared[0])"), std::string::npos) << text;
  EXPECT_EQ(count_barriers(f), 1 + 7);
}

TEST(LowerToKernels, SoftmaxTwoReductionsInOneKernel) {
  tir::LoweredFunc lowered = lower(tir_inputs::kSoftmax, "softmax");
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::KernelLaunch& launch = lowered.launches[0];
  const tir::PrimFunc& f = launch.kernel.func;
  EXPECT_EQ(param_names(f), "A, B, n:int32");
  EXPECT_EQ(launch.kernel.block_size, (std::array<int64_t, 3>{128, 1, 1}));
  EXPECT_EQ(evaluate(launch.grid_size[0], {{"n", 5}}), 5);
  auto allocs = allocations(f);
  // The row's max and sum shrink from (n,) to one value per block.
  EXPECT_EQ(allocs["row_max"], (std::pair<std::string, int64_t>{"shared", 1}));
  EXPECT_EQ(allocs["row_sum"], (std::pair<std::string, int64_t>{"shared", 1}));
  EXPECT_EQ(allocs["max_shared"], (std::pair<std::string, int64_t>{"shared", 128}));
  EXPECT_EQ(allocs["sum_shared"], (std::pair<std::string, int64_t>{"shared", 128}));
  EXPECT_EQ(launch.kernel.shared_memory_bytes, (128 + 128 + 1 + 1) * 4);
  // Each reduction: 1 + log2(128) = 8 barriers; one more after each reduction's final
  // write, before the next region reads it.
  EXPECT_EQ(count_barriers(f), 8 + 8 + 2);
  expect_round_trip(launch.kernel);
}

TEST(LowerToKernels, TiledMatmulSharedAndLocal) {
  tir::LoweredFunc lowered = lower(tir_inputs::kMatmul, "matmul");
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::KernelLaunch& launch = lowered.launches[0];
  const tir::PrimFunc& f = launch.kernel.func;
  EXPECT_EQ(param_names(f), "A, B, C, m:int32, k:int32, n:int32");
  EXPECT_EQ(launch.kernel.block_size, (std::array<int64_t, 3>{16, 16, 1}));
  std::map<std::string, int64_t> dims = {{"m", 33}, {"n", 50}, {"k", 7}};
  EXPECT_EQ(evaluate(launch.grid_size[0], dims), 4);
  EXPECT_EQ(evaluate(launch.grid_size[1], dims), 3);
  EXPECT_EQ(evaluate(launch.grid_size[2], dims), 1);
  auto allocs = allocations(f);
  // Root allocations of the full (m, k), (k, n) and (m, n) shrink to one tile per block
  // and one value per thread.
  EXPECT_EQ(allocs["A_shared"], (std::pair<std::string, int64_t>{"shared", 256}));
  EXPECT_EQ(allocs["B_shared"], (std::pair<std::string, int64_t>{"shared", 256}));
  EXPECT_EQ(allocs["C_local"], (std::pair<std::string, int64_t>{"local", 1}));
  EXPECT_EQ(launch.kernel.shared_memory_bytes, 2 * 256 * 4);
  // Loading the tiles and reading them are separated, and so are reading them and
  // loading the next tiles.
  EXPECT_EQ(count_barriers(f), 2);
  std::string text = text::print_node(f);
  EXPECT_NE(text.find("A_shared[tx + ty * 16] = A["), std::string::npos) << text;
  expect_round_trip(launch.kernel);
}

TEST(LowerToKernels, TwoKernelsThroughAWorkspace) {
  tir::PrimFunc source = parse_func(tir_inputs::kTwoKernels, "two_kernels");
  tir::LoweredFunc lowered = tir::lower_to_kernels(source, "two_kernels", parse_target("vulkan"));
  ASSERT_EQ(lowered.workspaces.size(), 1u);
  EXPECT_EQ(lowered.workspaces[0]->name, "tmp");
  EXPECT_EQ(lowered.buffers().size(), 3u);
  ASSERT_EQ(lowered.launches.size(), 2u);
  EXPECT_EQ(lowered.launches[0].kernel.name, "two_kernels_kernel_0");
  EXPECT_EQ(lowered.launches[1].kernel.name, "two_kernels_kernel_1");
  EXPECT_EQ(lowered.launches[0].buffer_args, (std::vector<int>{0, 2}));
  EXPECT_EQ(lowered.launches[1].buffer_args, (std::vector<int>{1, 2}));
  EXPECT_EQ(param_names(lowered.launches[1].kernel.func), "B, tmp, n:int32");
  EXPECT_EQ(lowered.launches[1].kernel.block_size, (std::array<int64_t, 3>{64, 1, 1}));
  for (int64_t n : {5, 64, 130}) {
    HostArray a = testing::random_array(DataType::Float(32), {n}, 4);
    HostArray b = testing::zeros(DataType::Float(32), {n});
    run_lowered(lowered, {&a, &b}, {{"n", n}});
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_FLOAT_EQ(static_cast<float>(b.data[i]), static_cast<float>(a.data[i] * 2 + 1));
    }
  }
  for (const tir::KernelLaunch& launch : lowered.launches) expect_round_trip(launch.kernel);
}

// A schedule specialized by shape: two variants under `if n <= 4` on the host become
// two launches, each with its condition, of which the host runs the one that holds.
constexpr const char* kSpecialized = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_C: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        C = T.match_buffer(var_C, (n,))
        if n <= T.int64(4):
            for i in T.thread_binding(n, thread="blockIdx.x"):
                with T.block("double"):
                    vi = T.axis.spatial(n, i)
                    C[vi] = A[vi] * T.float32(2)
        else:
            for i0 in T.thread_binding((n + T.int64(63)) // T.int64(64), thread="blockIdx.x"):
                for i1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                    with T.block("increment"):
                        vi = T.axis.spatial(n, i0 * T.int64(64) + i1)
                        T.where(i0 * T.int64(64) + i1 < n)
                        C[vi] = A[vi] + T.float32(1)
)";

TEST(LowerToKernels, HostConditionsBecomeLaunchConditions) {
  tir::LoweredFunc lowered = lower(kSpecialized, "f");
  ASSERT_EQ(lowered.launches.size(), 2u);
  for (const tir::KernelLaunch& launch : lowered.launches) ASSERT_TRUE(launch.condition.defined());
  for (int64_t n : {1, 4, 5, 100}) {
    EXPECT_EQ(evaluate(lowered.launches[0].condition, {{"n", n}}), n <= 4 ? 1 : 0) << n;
    EXPECT_EQ(evaluate(lowered.launches[1].condition, {{"n", n}}), n <= 4 ? 0 : 1) << n;
    HostArray a = testing::random_array(DataType::Float(32), {n}, 6);
    HostArray c = testing::zeros(DataType::Float(32), {n});
    run_lowered(lowered, {&a, &c}, {{"n", n}});
    for (int64_t i = 0; i < n; ++i) {
      float expected =
          n <= 4 ? static_cast<float>(a.data[i]) * 2 : static_cast<float>(a.data[i]) + 1;
      ASSERT_FLOAT_EQ(static_cast<float>(c.data[i]), expected) << "n=" << n << " i=" << i;
    }
  }
}

// --- Barriers between shared-memory accesses.

TEST(SharedBarriers, CooperativeMatmulAfterUnify) {
  tir::LoweredFunc lowered = lower(tir_inputs::kCooperativeMatmul, "matmul");
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::DeviceKernel& kernel = lowered.launches[0].kernel;
  const tir::PrimFunc& f = kernel.func;
  EXPECT_EQ(kernel.block_size, (std::array<int64_t, 3>{32, 8, 1}));
  auto allocs = allocations(f);
  EXPECT_EQ(allocs["A_shared"], (std::pair<std::string, int64_t>{"shared", 32 * 16}));
  EXPECT_EQ(allocs["B_shared"], (std::pair<std::string, int64_t>{"shared", 16 * 32}));
  // The copies (merged into the kernel's threads) run back to back: they write different
  // tiles. The compute waits for both; the next iteration's copies wait for the compute.
  const tir::ForNode* ko = find_loop(f, "r_0");
  ASSERT_NE(ko, nullptr) << text::print_node(f);
  EXPECT_EQ(outline(ko->body),
            "for ax0_ax1_fused_0, for ax0_ax1_fused_0, barrier, for r_1, barrier");
  // The copy loops write their tile twice over and read none of it: no barrier inside.
  EXPECT_EQ(count_barriers(f), 2);
  expect_barriers_well_placed(f);
  expect_round_trip(kernel);
}

TEST(SharedBarriers, ReductionKernelsKeepTheirBarriers) {
  for (auto [source, name] : std::vector<std::pair<const char*, const char*>>{
           {tir_inputs::kRowSum, "row_sum"},
           {tir_inputs::kSoftmax, "softmax"},
           {kNonPowerOfTwoMax, "row_max"},
           {tir_inputs::kMatmul, "matmul"},
           {tir_inputs::kCooperativeMatmul, "matmul"}}) {
    SCOPED_TRACE(name);
    tir::LoweredFunc lowered = lower(source, name);
    for (const tir::KernelLaunch& launch : lowered.launches) {
      expect_barriers_well_placed(launch.kernel.func);
      // A finished kernel needs no more.
      EXPECT_EQ(count_barriers(tir::insert_shared_barriers(launch.kernel.func)),
                count_barriers(launch.kernel.func));
    }
  }
}

constexpr const char* kRowSumPerIteration = R"(@I.ir_module
class Module:
    @T.prim_func
    def rows(A: T.Buffer((4, 64), "float32"), S: T.Buffer((4,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for i in range(4):
                for tx in T.thread_binding(64, thread="threadIdx.x"):
                    with T.block("S"):
                        vi = T.axis.spatial(4, i)
                        vk = T.axis.reduce(64, tx)
                        with T.init():
                            S[vi] = T.float32(0)
                        S[vi] = S[vi] + A[vi, vk]
)";

TEST(SharedBarriers, CrossThreadReductionInALoop) {
  tir::LoweredFunc lowered = lower(kRowSumPerIteration, "rows");
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::PrimFunc& f = lowered.launches[0].kernel.func;
  const tir::ForNode* rows = find_loop(f, "i");
  ASSERT_NE(rows, nullptr) << text::print_node(f);
  // The partial sum, the slot write, the tree of log2(64) = 6 steps, the final read by
  // thread 0, then a barrier before the next row's slot writes overwrite what it reads.
  std::string tree;
  for (int step = 0; step < 6; ++step) tree += ", barrier, if";
  EXPECT_EQ(outline(rows->body), "store, store, store" + tree + ", barrier, if, barrier");
  expect_barriers_well_placed(f);
}

// --- Single steps.

TEST(KernelLoweringSteps, LowerBlocksRunsInitAtTheFirstReductionStep) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 8), "float32"), S: T.Buffer((4,), "float32")):
        for i, k in T.grid(4, 8):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.where(i < 3)
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
)";
  tir::PrimFunc lowered = tir::lower_blocks(parse_func(source, "f"));
  std::string text = text::print_node(lowered);
  EXPECT_EQ(text.find("T.block"), std::string::npos) << text;
  EXPECT_NE(text.find("if i < 3:"), std::string::npos) << text;
  EXPECT_NE(text.find("if k == 0:\n"), std::string::npos) << text;
  EXPECT_NE(text.find("S[i] = S[i] + A[i, k]"), std::string::npos) << text;
}

TEST(KernelLoweringSteps, NarrowKeepsInt64Data) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, n: T.int64):
        A = T.match_buffer(var_A, (n,), "int64")
        for i in T.thread_binding(n, thread="blockIdx.x"):
            A[i] = A[i] + i
)";
  tir::PrimFunc narrowed = tir::narrow_to_int32(parse_func(source, "f"));
  std::string text = text::print_node(narrowed);
  // The loop and the index are int32; the int64 data stays int64, the loop var widened
  // where it meets it.
  EXPECT_NE(text.find("n: T.int32"), std::string::npos) << text;
  EXPECT_NE(text.find("A[i] = A[i] + T.Cast(\"int64\", i)"), std::string::npos) << text;
}

// --- Diagnostics.

std::string one_loop_func(const std::string& extent, const std::string& dtype = "float32") {
  return R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4096,), ")" +
         dtype + R"("), B: T.Buffer((4096,), ")" + dtype + R"(")):
        for i_1 in T.thread_binding()" +
         extent + R"(, thread="threadIdx.x"):
            with T.block("B"):
                vi = T.axis.spatial(4096, i_1)
                B[vi] = A[vi]
)";
}

TEST(LowerToKernelsErrors, TooManyThreadsNamesTheLoop) {
  EXPECT_EQ(error_of(one_loop_func("4096"), "f", "vulkan"),
            "loop 'i_1' bound to threadIdx.x has 4096 threads per block; target "
            "'vulkan -profile=desktop' allows at most 1024");
  EXPECT_EQ(error_of(one_loop_func("256"), "f", "vulkan -profile=mobile"),
            "loop 'i_1' bound to threadIdx.x has 256 threads per block; target "
            "'vulkan -profile=mobile' allows at most 128");
}

TEST(LowerToKernelsErrors, TooManyThreadsInAll) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((64, 32), "float32")):
        for ty in T.thread_binding(64, thread="threadIdx.y"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                with T.block("A"):
                    vi, vj = T.axis.remap("SS", [ty, tx])
                    A[vi, vj] = T.float32(1)
)";
  EXPECT_EQ(error_of(source, "f", "vulkan"),
            "loops 'ty' (threadIdx.y x 64), 'tx' (threadIdx.x x 32) have 2048 threads per "
            "block; target 'vulkan -profile=desktop' allows at most 1024");
}

TEST(LowerToKernelsErrors, SharedMemoryOverTheMobileLimit) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8192,), "float32"), B: T.Buffer((8192,), "float32")):
        tile = T.alloc_buffer((8192,), scope="shared")
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for tx in T.thread_binding(128, thread="threadIdx.x"):
                for i in range(64):
                    with T.block("tile"):
                        vi = T.axis.spatial(8192, i * 128 + tx)
                        tile[vi] = A[vi]
            for tx in T.thread_binding(128, thread="threadIdx.x"):
                for i in range(64):
                    with T.block("B"):
                        vi = T.axis.spatial(8192, i * 128 + tx)
                        B[vi] = tile[8191 - vi]
)";
  EXPECT_EQ(error_of(source, "f", "vulkan -profile=mobile"),
            "kernel 'f_kernel' uses 32768 bytes of shared memory per block (buffers 'tile' 32768 "
            "bytes); target 'vulkan -profile=mobile' allows at most 16384");
  EXPECT_EQ(error_of(source, "f", "vulkan"), "");
}

// Constant dimensions whose product overflows the index type do not fold to a constant
// size: the error says so instead of calling the size non-constant.
TEST(LowerToKernelsErrors, LocalBufferSizeOverflowingItsIndexType) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for t in T.thread_binding(4, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(4, t)
                    L = T.alloc_buffer((100000, 100000), "float32", scope="local")
                    for i, j in T.grid(100000, 100000):
                        L[i, j] = T.float32(1)
                    A[vi] = L[vi, vi * 3]
)";
  EXPECT_EQ(error_of(source, "f", "vulkan"),
            "local buffer 'L' has the constant size 100000 * 100000, which overflows int32; a "
            "kernel's local buffers hold what fits in the target's memory");
}

TEST(LowerToKernelsErrors, Fp16OnMobile) {
  EXPECT_EQ(error_of(one_loop_func("128", "float16"), "f", "vulkan -profile=mobile"),
            "buffer 'A' of kernel 'f_kernel' has dtype float16, which target "
            "'vulkan -profile=mobile' does not support");
  EXPECT_EQ(error_of(one_loop_func("128", "float16"), "f", "vulkan"), "");
}

TEST(LowerToKernelsErrors, SymbolicThreadExtent) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        for tx in T.thread_binding(n, thread="threadIdx.x"):
            with T.block("A"):
                vi = T.axis.spatial(n, tx)
                A[vi] = T.float32(0)
)";
  EXPECT_EQ(error_of(source, "f"),
            "loop 'tx' bound to threadIdx.x has the symbolic extent n; the threads of a block "
            "must be a constant number (split the loop by a constant factor and bind the inner "
            "loop)");
}

TEST(LowerToKernelsErrors, UnboundTopLevelLoop) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                A[vi] = T.float32(0)
)";
  EXPECT_EQ(error_of(source, "f"),
            "loop 'i' of 'f' is not inside a thread-bound loop, so it would run on the host; "
            "bind it (or an outer loop) to blockIdx/threadIdx, or run default_gpu_schedule");
  try {
    lower(source, "f");
  } catch (const UserError& e) {
    EXPECT_EQ(e.diagnostics().front().span.line, 5u);
  }
}

// A condition the host cannot evaluate (it reads a buffer) cannot choose launches.
TEST(LowerToKernelsErrors, ConditionOnDataAroundKernels) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16,), "float32")):
        if A[0] > T.float32(0):
            for i in T.thread_binding(16, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(16, i)
                    A[vi] = T.float32(0)
)";
  std::string message = error_of(source, "f");
  EXPECT_NE(message.find("of 'f' is not inside a thread-bound loop, so it would run on the host"),
            std::string::npos)
      << message;
}

TEST(LowerToKernelsErrors, CrossThreadReductionOnFewerThreadsThanItsKernel) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((128,), "float32"), S: T.Buffer((1,), "float32"), B: T.Buffer((128,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for tx in T.thread_binding(128, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(128, tx)
                    B[vi] = A[vi]
            for rx in T.thread_binding(64, thread="threadIdx.x"):
                with T.block("S"):
                    vk = T.axis.reduce(64, rx)
                    with T.init():
                        S[0] = T.float32(0)
                    S[0] = S[0] + A[vk]
)";
  EXPECT_EQ(error_of(source, "f"),
            "loop 'rx' bound to threadIdx.x has 64 threads where its kernel has 128, and it "
            "synchronizes its threads (a cross-thread reduction): bind it to the same number of "
            "threads");
}

TEST(LowerToKernelsErrors, UnsupportedCrossThreadCombiner) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((64,), "float32"), S: T.Buffer((1,), "float32")):
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            with T.block("S"):
                vk = T.axis.reduce(64, tx)
                with T.init():
                    S[0] = T.float32(0)
                S[0] = S[0] - A[vk]
)";
  EXPECT_EQ(error_of(source, "f"),
            "block 'S' has a reduction loop bound to threadIdx (a cross-thread reduction), but "
            "its body is not a reduction of the form C[i] = C[i] + x (or *, T.max, T.min) with "
            "an init that stores C[i]");
}

}  // namespace
}  // namespace relaxc
