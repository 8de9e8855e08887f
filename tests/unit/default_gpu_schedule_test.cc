// Tests of the default GPU schedule: scheduled functions compute what the originals do
// (on the reference interpreter), every block runs under blockIdx / threadIdx loops
// within the target's limits, and what it refuses or leaves alone.
#include "passes/tir/default_gpu_schedule.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/schedule/schedule_internal.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::tir {
namespace {

using testing::HostArray;

IRModule parse(const std::string& source) { return text::parse_module(source, "gpu.py"); }

PrimFunc parse_func(const std::string& source, const std::string& name = "f") {
  PrimFunc f = parse(source)->prim_func(name);
  EXPECT_TRUE(f.defined()) << "no PrimFunc " << name;
  return f;
}

std::string module_of(const std::string& signature, const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(" + signature + "):\n" + body;
}

// Every block but the root runs under a blockIdx.* and a threadIdx.* loop, the threads
// of each block are a constant count within the target's limit. Also checks that the function
// prints as text that parses back to it.
void expect_bound_within(const PrimFunc& f, const Target& target) {
  for (const BlockRealize& realize : schedule_internal::blocks_under(f->body)) {
    if (schedule_internal::is_root(f, realize.get())) continue;
    const std::string& name = realize->block->name;
    schedule_internal::StmtPath path = schedule_internal::find_block_path(f->body, name);
    bool has_block_idx = false;
    int64_t threads = 1;
    for (const Stmt& s : path) {
      const auto* loop = s.as<ForNode>();
      if (loop == nullptr || loop->kind != ForKind::ThreadBinding) continue;
      const int64_t* extent = as_const_int(loop->extent);
      if (loop->thread_tag.rfind("threadIdx", 0) == 0) {
        ASSERT_NE(extent, nullptr) << "block " << name << ": symbolic thread count";
        threads *= *extent;
      } else {
        has_block_idx = true;
      }
    }
    EXPECT_TRUE(has_block_idx) << "block " << name << " is not under a blockIdx loop";
    EXPECT_LE(threads, target.max_threads_per_block) << "block " << name;
    bool has_thread_idx = std::any_of(path.begin(), path.end(), [](const Stmt& s) {
      const auto* loop = s.as<ForNode>();
      return loop != nullptr && loop->thread_tag.rfind("threadIdx", 0) == 0;
    });
    EXPECT_TRUE(has_thread_idx) << "block " << name << " is not under a threadIdx loop";
  }
  std::string printed = text::print_module(make_module({{relax::make_global_var("f"), f}}));
  IRModule reparsed = text::parse_module(printed, "printed.py");
  EXPECT_TRUE(structural_equal(reparsed->prim_func("f"), f)) << printed;
}

// The number of threadIdx.x threads of the loop nest above block `name`.
int64_t threads_of(const PrimFunc& f, const std::string& name) {
  int64_t threads = 1;
  for (const Stmt& s : schedule_internal::find_block_path(f->body, name)) {
    const auto* loop = s.as<ForNode>();
    if (loop != nullptr && loop->thread_tag == "threadIdx.x")
      threads *= *as_const_int(loop->extent);
  }
  return threads;
}

// The first seed of the random inputs of expect_same_results.
constexpr uint64_t kSeed = 21;
using testing::expect_same_results;

const Target kDesktop = vulkan_profile("desktop");
const Target kMobile = vulkan_profile("mobile");

const std::string kVectorAdd = module_of("var_A: T.handle, var_B: T.handle, var_C: T.handle", R"(
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
)");

TEST(DefaultGpuSchedule, VectorAddSymbolic) {
  PrimFunc f = parse_func(kVectorAdd);
  PrimFunc g = default_gpu_schedule(f, kDesktop);
  expect_bound_within(g, kDesktop);
  EXPECT_EQ(threads_of(g, "C"), 256);
  // The form written by hand: split [None, 256], bound to blockIdx.x / threadIdx.x.
  PrimFunc expected = parse_func(module_of("var_A: T.handle, var_B: T.handle, var_C: T.handle", R"(
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i_0 in T.thread_binding((n + T.int64(255)) // T.int64(256), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.block("C"):
                    vi = T.axis.spatial(n, i_0 * T.int64(256) + i_1)
                    T.where(i_0 * T.int64(256) + i_1 < n)
                    C[vi] = A[vi] + B[vi]
)"));
  EXPECT_TRUE(structural_equal(g, expected)) << text::print_node(g);
  for (int64_t n : {1, 100, 256, 1000}) expect_same_results(f, g, {{n}, {n}, {n}}, kSeed);

  PrimFunc mobile = default_gpu_schedule(f, kMobile);
  expect_bound_within(mobile, kMobile);
  EXPECT_EQ(threads_of(mobile, "C"), 128);
  expect_same_results(f, mobile, {{300}, {300}, {300}}, kSeed);
}

TEST(DefaultGpuSchedule, TransposeConstantAndSymbolic) {
  PrimFunc constant = parse_func(
      module_of(R"(A: T.Buffer((33, 70), "float32"), B: T.Buffer((70, 33), "float32"))", R"(
        for i, j in T.grid(33, 70):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vj, vi] = A[vi, vj]
)"));
  PrimFunc g = default_gpu_schedule(constant, kDesktop);
  expect_bound_within(g, kDesktop);
  expect_same_results(constant, g, {{33, 70}, {70, 33}}, kSeed);

  PrimFunc symbolic = parse_func(module_of("var_A: T.handle, var_B: T.handle", R"(
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(var_A, (m, n))
        B = T.match_buffer(var_B, (n, m))
        for i, j in T.grid(m, n):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vj, vi] = A[vi, vj]
)"));
  for (const Target& target : {kDesktop, kMobile}) {
    PrimFunc s = default_gpu_schedule(symbolic, target);
    expect_bound_within(s, target);
    expect_same_results(symbolic, s, {{17, 31}, {31, 17}}, kSeed);
  }
}

TEST(DefaultGpuSchedule, SmallConstantExtentUsesFewerThreads) {
  PrimFunc f = parse_func(module_of(R"(A: T.Buffer((3, 5), "int32"))", R"(
        for i, j in T.grid(3, 5):
            with T.block("A"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = vi * 10 + vj
)"));
  PrimFunc g = default_gpu_schedule(f, kDesktop);
  expect_bound_within(g, kDesktop);
  EXPECT_EQ(threads_of(g, "A"), 15);
  expect_same_results(f, g, {{3, 5}}, kSeed);
}

// The schedule binds the whole grid whatever the target's limit: a grid over it is the
// kernel lowering's (split_host_device's overflow axis or grid-stride loop,
// tests/unit/lower_to_kernels_test.cc).
TEST(DefaultGpuSchedule, GridOverTheLimitIsBoundWhole) {
  Target tiny = kMobile;
  tiny.max_threads_per_block = 8;
  tiny.max_grid_size = {4, 4, 4};
  PrimFunc f =
      parse_func(module_of(R"(A: T.Buffer((100,), "float32"), B: T.Buffer((100,), "float32"))", R"(
        for i in range(100):
            with T.block("B"):
                vi = T.axis.spatial(100, i)
                B[vi] = A[vi] * T.float32(2)
)"));
  PrimFunc g = default_gpu_schedule(f, tiny);
  // 100 elements = 13 blocks of 8 threads.
  const auto* outer = g->body.as<BlockRealizeNode>()->block->body.as<ForNode>();
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->thread_tag, "blockIdx.x");
  EXPECT_TRUE(is_const_int(outer->extent, 13));
  expect_same_results(f, g, {{100}, {100}}, kSeed);
}

const std::string kRowSum = module_of("var_A: T.handle, var_S: T.handle", R"(
        m = T.int64()
        A = T.match_buffer(var_A, (m, T.int64(100)))
        S = T.match_buffer(var_S, (m,))
        for i, k in T.grid(m, T.int64(100)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
)");

TEST(DefaultGpuSchedule, RowSumIsACrossThreadReduction) {
  PrimFunc f = parse_func(kRowSum);
  PrimFunc g = default_gpu_schedule(f, kDesktop);
  expect_bound_within(g, kDesktop);
  EXPECT_EQ(threads_of(g, "S"), 128);  // the next power of two above 100
  PrimFunc expected = parse_func(module_of("var_A: T.handle, var_S: T.handle", R"(
        m = T.int64()
        A = T.match_buffer(var_A, (m, T.int64(100)))
        S = T.match_buffer(var_S, (m,))
        for i in T.thread_binding(m, thread="blockIdx.x"):
            for k_0 in range(T.int64(1)):
                for k_1 in T.thread_binding(T.int64(128), thread="threadIdx.x"):
                    with T.block("S"):
                        vi = T.axis.spatial(m, i)
                        vk = T.axis.reduce(T.int64(100), k_0 * T.int64(128) + k_1)
                        T.where(k_0 * T.int64(128) + k_1 < T.int64(100))
                        with T.init():
                            S[vi] = T.float32(0)
                        S[vi] = S[vi] + A[vi, vk]
)"));
  EXPECT_TRUE(structural_equal(g, expected)) << text::print_node(g);
  for (int64_t m : {1, 5}) expect_same_results(f, g, {{m, 100}, {m}}, kSeed);
  PrimFunc mobile = default_gpu_schedule(f, kMobile);
  expect_bound_within(mobile, kMobile);
  expect_same_results(f, mobile, {{3, 100}, {3}}, kSeed);
}

TEST(DefaultGpuSchedule, SoftmaxFourBlocks) {
  PrimFunc f = parse_func(module_of("var_A: T.handle, var_B: T.handle", R"(
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(40)))
        B = T.match_buffer(var_B, (n, T.int64(40)))
        row_max = T.alloc_buffer((n,))
        row_exp = T.alloc_buffer((n, T.int64(40)))
        row_sum = T.alloc_buffer((n,))
        for i, k in T.grid(n, T.int64(40)):
            with T.block("row_max"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    row_max[vi] = T.float32(-3.4028234663852886e+38)
                row_max[vi] = T.max(row_max[vi], A[vi, vk])
        for i, j in T.grid(n, T.int64(40)):
            with T.block("row_exp"):
                vi, vj = T.axis.remap("SS", [i, j])
                row_exp[vi, vj] = T.exp(A[vi, vj] - row_max[vi])
        for i, k in T.grid(n, T.int64(40)):
            with T.block("row_sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    row_sum[vi] = T.float32(0)
                row_sum[vi] = row_sum[vi] + row_exp[vi, vk]
        for i, j in T.grid(n, T.int64(40)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = row_exp[vi, vj] / row_sum[vi]
)"));
  for (const Target& target : {kDesktop, kMobile}) {
    PrimFunc g = default_gpu_schedule(f, target);
    expect_bound_within(g, target);
    EXPECT_EQ(threads_of(g, "row_max"), 64);
    // The row reduction rule takes it (gpu_rules/row_reduction.cc): row_exp is inlined
    // into its consumers, and every block runs on the row's 64 threads.
    EXPECT_EQ(threads_of(g, "B"), 64);
    for (int64_t n : {1, 7}) expect_same_results(f, g, {{n, 40}, {n, 40}}, kSeed);
  }
}

// The product is scaled so that the matmul rule (gpu_rules/matmul.cc) declines it: this
// is the generic reduction schedule's test.
TEST(DefaultGpuSchedule, MatmulSymbolic) {
  PrimFunc f = parse_func(module_of("var_A: T.handle, var_B: T.handle, var_C: T.handle", R"(
        m = T.int64()
        n = T.int64()
        k = T.int64()
        A = T.match_buffer(var_A, (m, k))
        B = T.match_buffer(var_B, (k, n))
        C = T.match_buffer(var_C, (m, n))
        for i, j, r in T.grid(m, n, k):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj] * T.float32(2)
)"));
  for (const Target& target : {kDesktop, kMobile}) {
    PrimFunc g = default_gpu_schedule(f, target);
    expect_bound_within(g, target);
    expect_same_results(f, g, {{5, 3}, {3, 4}, {5, 4}}, kSeed);
    expect_same_results(f, g, {{2, 300}, {300, 3}, {2, 3}}, kSeed);
  }
}

TEST(DefaultGpuSchedule, ReductionLoopOutsideSpatialLoopIsReordered) {
  PrimFunc f =
      parse_func(module_of(R"(A: T.Buffer((6, 9), "float32"), S: T.Buffer((6,), "float32"))", R"(
        for k, i in T.grid(9, 6):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
)"));
  PrimFunc g = default_gpu_schedule(f, kDesktop);
  expect_bound_within(g, kDesktop);
  EXPECT_EQ(threads_of(g, "S"), 16);
  expect_same_results(f, g, {{6, 9}, {6}}, kSeed);
}

TEST(DefaultGpuSchedule, FullReductionAndOneElement) {
  PrimFunc total =
      parse_func(module_of(R"(A: T.Buffer((50,), "float32"), S: T.Buffer((1,), "float32"))", R"(
        for k in range(50):
            with T.block("S"):
                vk = T.axis.reduce(50, k)
                with T.init():
                    S[0] = T.float32(0)
                S[0] = S[0] + A[vk]
)"));
  PrimFunc g = default_gpu_schedule(total, kDesktop);
  expect_bound_within(g, kDesktop);
  expect_same_results(total, g, {{50}, {1}}, kSeed);

  PrimFunc one =
      parse_func(module_of(R"(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32"))", R"(
        with T.block("B"):
            B[0] = A[0] + T.float32(1)
)"));
  PrimFunc h = default_gpu_schedule(one, kDesktop);
  expect_bound_within(h, kDesktop);
  expect_same_results(one, h, {{1}, {1}}, kSeed);
}

// A reduction without init adds to what its output holds, as TVM allows: its reduction
// loops stay serial in each thread (a cross-thread reduction would start from zero, and
// was refused before for lacking an init).
TEST(DefaultGpuSchedule, ReductionWithoutInitAccumulatesSerially) {
  PrimFunc rows =
      parse_func(module_of(R"(A: T.Buffer((6, 9), "float32"), S: T.Buffer((6,), "float32"))", R"(
        for i, k in T.grid(6, 9):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                S[vi] = S[vi] + A[vi, vk]
)"));
  PrimFunc g = default_gpu_schedule(rows, kDesktop);
  expect_bound_within(g, kDesktop);
  EXPECT_EQ(threads_of(g, "S"), 6);
  expect_same_results(rows, g, {{6, 9}, {6}}, kSeed);

  PrimFunc total =
      parse_func(module_of(R"(A: T.Buffer((50,), "float32"), S: T.Buffer((1,), "float32"))", R"(
        for k in range(50):
            with T.block("S"):
                vk = T.axis.reduce(50, k)
                S[0] = S[0] + A[vk]
)"));
  PrimFunc h = default_gpu_schedule(total, kDesktop);
  expect_bound_within(h, kDesktop);
  EXPECT_EQ(threads_of(h, "S"), 1);
  expect_same_results(total, h, {{50}, {1}}, kSeed);
}

TEST(DefaultGpuSchedule, LeavesScheduledAndOpaqueFunctionsAlone) {
  PrimFunc f = parse_func(kVectorAdd);
  PrimFunc g = default_gpu_schedule(f, kDesktop);
  EXPECT_TRUE(default_gpu_schedule(g, kDesktop).same_as(g));
  PrimFunc opaque = parse_func(module_of(R"(A: T.Buffer((4,), "float32"))", R"(
        for i in range(4):
            A[i] = T.float32(0)
)"));
  EXPECT_TRUE(default_gpu_schedule(opaque, kDesktop).same_as(opaque));
}

TEST(DefaultGpuSchedule, BlocksSharingLoopsAreRefused) {
  PrimFunc f =
      parse_func(module_of(R"(A: T.Buffer((8, 4), "float32"), B: T.Buffer((8, 4), "float32"))", R"(
        for i in range(8):
            for j in range(4):
                with T.block("A"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    A[vi, vj] = T.float32(1)
            for j2 in range(4):
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j2])
                    B[vi, vj] = A[vi, vj] * T.float32(2)
)"));
  std::string message;
  try {
    default_gpu_schedule(f, kDesktop);
  } catch (const UserError& e) {
    message = e.diagnostics().front().message;
  }
  EXPECT_EQ(message,
            "default_gpu_schedule: block 'A' shares loop 'i' with block 'B'; schedule blocks "
            "that share loops by hand");
}

TEST(DefaultGpuSchedule, LoopsTheBlockDoesNotDependOnAreRefused) {
  PrimFunc f =
      parse_func(module_of(R"(A: T.Buffer((8,), "float32"), S: T.Buffer((1,), "float32"))", R"(
        for k in range(8):
            with T.block("S"):
                S[0] = S[0] + A[k]
)"));
  std::string message;
  try {
    default_gpu_schedule(f, kDesktop);
  } catch (const UserError& e) {
    message = e.diagnostics().front().message;
  }
  EXPECT_EQ(message,
            "default_gpu_schedule: no iteration variable of block 'S' depends on loop 'k'; bind "
            "the block's iteration variables to its loops");
}

TEST(DefaultGpuSchedule, ModuleOverloadSchedulesEveryPrimFunc) {
  IRModule m = parse(R"(@I.ir_module
class Module:
    @T.prim_func
    def add(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32")):
        for i in range(10):
            with T.block("B"):
                vi = T.axis.spatial(10, i)
                B[vi] = A[vi] + T.float32(1)

    @T.prim_func
    def sum(A: T.Buffer((10,), "float32"), S: T.Buffer((1,), "float32")):
        for k in range(10):
            with T.block("S"):
                vk = T.axis.reduce(10, k)
                with T.init():
                    S[0] = T.float32(0)
                S[0] = S[0] + A[vk]
)");
  IRModule scheduled = default_gpu_schedule(m, kDesktop);
  ASSERT_EQ(scheduled->functions.size(), 2u);
  for (const char* name : {"add", "sum"}) {
    PrimFunc g = scheduled->prim_func(name);
    ASSERT_TRUE(g.defined()) << name;
    expect_bound_within(g, kDesktop);
    expect_same_results(m->prim_func(name), g, {{10}, {std::string(name) == "add" ? 10 : 1}},
                        kSeed);
  }
}

}  // namespace
}  // namespace relaxc::tir
