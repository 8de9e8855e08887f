// Tests of the memory-bound rules of the default GPU schedule (passes/tir/gpu_rules/):
// elementwise / injective, column reduction, window and row reduction. Each recognized function
// becomes one kernel without workspaces (after the kernel lowering), within the target's limits
// (the mobile profile's 128 threads), that computes what the original does on the
// reference interpreter at a few sizes of a symbolic dimension (tests/lit/ops/rules/
// runs such functions on lavapipe at 1, 7, 1000 and 4097); what a rule must not take,
// it declines.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/target/target.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "ir/tir/lowered_func.h"
#include "passes/tir/default_gpu_schedule.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/kernel_counts.h"
#include "passes/tir/lower_to_kernels.h"
#include "passes/tir/schedule/schedule_internal.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::tir {
namespace {

const Target kDesktop = vulkan_profile("desktop");
const Target kMobile = vulkan_profile("mobile");

PrimFunc parse_func(const std::string& source) {
  PrimFunc f = text::parse_module(source, "rules.py")->prim_func("f");
  EXPECT_TRUE(f.defined()) << "no PrimFunc f";
  return f;
}

std::optional<PrimFunc> apply_rule(const std::string& name, const PrimFunc& f,
                                   const Target& target) {
  for (const GpuScheduleRule& rule : gpu_schedule_rules()) {
    if (rule.name == name) return rule.apply(f, target);
  }
  ADD_FAILURE() << "no rule named " << name;
  return std::nullopt;
}

// The loops of `f` of kind `kind` (with thread tag `tag`, when given).
std::vector<For> loops_of_kind(const PrimFunc& f, ForKind kind, const std::string& tag = "") {
  std::vector<For> loops;
  post_order_visit(f->body, [&](const Ref<Object>& node) {
    const auto* loop = node.as<ForNode>();
    if (loop != nullptr && loop->kind == kind && (tag.empty() || loop->thread_tag == tag))
      loops.emplace_back(loop);
  });
  return loops;
}

// `rule` schedules `source`'s f into one kernel for each target, within its thread
// limit and without workspaces, computing what f computes for each n of `sizes` (the
// shapes of the buffers for n).
void expect_one_kernel(const std::string& rule, const std::string& source,
                       const std::function<std::vector<std::vector<int64_t>>(int64_t)>& shapes,
                       const std::vector<int64_t>& sizes = {1, 7, 40}) {
  PrimFunc f = parse_func(source);
  for (const Target* target : {&kDesktop, &kMobile}) {
    std::optional<PrimFunc> scheduled = apply_rule(rule, f, *target);
    ASSERT_TRUE(scheduled.has_value()) << rule << " declined";
    EXPECT_TRUE(structural_equal(default_gpu_schedule(f, *target), *scheduled))
        << "the default schedule did not pick the " << rule << " rule";
    for (const For& loop : loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.x")) {
      const int64_t* threads = as_const_int(loop->extent);
      ASSERT_NE(threads, nullptr);
      EXPECT_LE(*threads, target->max_threads_per_block);
    }
    LoweredFunc lowered = lower_to_kernels(*scheduled, "f", *target);
    EXPECT_TRUE(lowered.workspaces.empty());
    EXPECT_EQ(lowered.launches.size(), 1u) << text::print_node(*scheduled);
    if (target == &kDesktop) {
      for (int64_t n : sizes) {
        testing::expect_same_results(f, *scheduled, shapes(n), static_cast<uint64_t>(n));
      }
    }
  }
}

// The value of `e` with every shape variable at `n`; -1 where that is not a constant.
int64_t value_at(const PrimExpr& e, int64_t n) {
  arith::Analyzer analyzer;
  PrimExpr value = analyzer.simplify(
      substitute(e, [&](const Var&) -> PrimExpr { return int_imm(DataType::Int(64), n); }));
  const int64_t* constant = as_const_int(value);  // points into `value`
  return constant != nullptr ? *constant : -1;
}

// The one launch of `scheduled` (lowered for the desktop profile) reads each input and
// writes each output once: its traffic is the compulsory traffic, `bytes_per_n` bytes
// per unit of the symbolic n.
void expect_compulsory_traffic(const PrimFunc& scheduled, int64_t bytes_per_n) {
  FuncCounts counts = count_lowered(lower_to_kernels(scheduled, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 1u);
  // Counts that are upper bounds (argmax's select) still prove it: no schedule reads less
  // than the compulsory traffic.
  const LaunchCounts& launch = counts.launches[0];
  arith::Analyzer analyzer;
  PrimExpr traffic = analyzer.simplify(launch.bytes_read + launch.bytes_written);
  PrimExpr compulsory = analyzer.simplify(counts.compulsory_read + counts.compulsory_written);
  EXPECT_TRUE(analyzer.can_prove_equal(traffic, compulsory))
      << "traffic " << text::print_node(traffic) << ", compulsory " << text::print_node(compulsory);
  for (int64_t n : {1, 7, 1000}) EXPECT_EQ(value_at(compulsory, n), bytes_per_n * n) << "n = " << n;
}

// An injective chain as FuseTIR makes it, over a symbolic n: a broadcast bias add, an
// exp, and a product with the first intermediate reversed in its last two axes.
constexpr const char* kChain = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, B: T.Buffer((8,), "float32"), var_W: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 4, 8))
        W = T.match_buffer(var_W, (n, 4, 8))
        Y = T.alloc_buffer((n, 4, 8))
        Z = T.alloc_buffer((n, 4, 8))
        for i, j, k in T.grid(n, 4, 8):
            with T.block("add"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                Y[vi, vj, vk] = X[vi, vj, vk] + B[vk]
        for i, j, k in T.grid(n, 4, 8):
            with T.block("exp"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                Z[vi, vj, vk] = T.exp(Y[vi, vj, vk])
        for i, j, k in T.grid(n, 4, 8):
            with T.block("mul"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                W[vi, vj, vk] = Z[vi, vj, vk] * Y[vi, 3 - vj, 7 - vk]
)";

std::vector<std::vector<int64_t>> chain_shapes(int64_t n) { return {{n, 4, 8}, {8}, {n, 4, 8}}; }

TEST(ElementwiseRule, AnInjectiveChainIsOneKernel) {
  expect_one_kernel("elementwise", kChain, chain_shapes);
}

// 32 n elements: 4 lanes times T threads provably divide 32 n only for T <= 8, too few
// threads, so the schedule stays scalar with a tail guard.
TEST(ElementwiseRule, SymbolicExtentWithoutAProvableMultipleStaysScalar) {
  std::optional<PrimFunc> scheduled = apply_rule("elementwise", parse_func(kChain), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  EXPECT_TRUE(loops_of_kind(*scheduled, ForKind::Vectorized).empty());
}

constexpr const char* kWide = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_W: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 1024))
        W = T.match_buffer(var_W, (n, 1024))
        Y = T.alloc_buffer((n, 1024))
        for i, j in T.grid(n, 1024):
            with T.block("sigmoid"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = T.sigmoid(X[vi, vj])
        for i, j in T.grid(n, 1024):
            with T.block("silu"):
                vi, vj = T.axis.remap("SS", [i, j])
                W[vi, vj] = X[vi, vj] * Y[vi, vj]
)";

// Rows of 1024 float32: 4 lanes times 256 threads divide n * 1024, so each thread makes
// one 128-bit access per buffer, without a tail guard.
TEST(ElementwiseRule, VectorizesFourLanesWhereTheyDivideTheExtent) {
  // Rows of 1024: 7 rows already cover several thread blocks.
  expect_one_kernel("elementwise", kWide,
                    [](int64_t n) {
                      return std::vector<std::vector<int64_t>>{{n, 1024}, {n, 1024}};
                    },
                    {1, 7});
  std::optional<PrimFunc> scheduled = apply_rule("elementwise", parse_func(kWide), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  std::vector<For> vector_loops = loops_of_kind(*scheduled, ForKind::Vectorized);
  ASSERT_EQ(vector_loops.size(), 1u);
  EXPECT_TRUE(is_const_int(vector_loops[0]->extent, 4));
  for (const BlockRealize& realize : schedule_internal::blocks_under(scheduled.value()->body)) {
    EXPECT_TRUE(schedule_internal::is_true_predicate(realize->predicate))
        << text::print_node(*scheduled);
  }
}

TEST(ElementwiseRule, DeclinesAReductionAndASecondOutput) {
  EXPECT_FALSE(apply_rule("elementwise", parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((4, 8), "float32"), S: T.Buffer((4,), "float32")):
        for i, k in T.grid(4, 8):
            with T.block("sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + X[vi, vk]
)"),
                          kDesktop));
  EXPECT_FALSE(apply_rule("elementwise", parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((4, 8), "float32"), Y: T.Buffer((4, 8), "float32"), Z: T.Buffer((4, 8), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, vj] * T.float32(2)
        for i, j in T.grid(4, 8):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                Z[vi, vj] = Y[vi, vj] + T.float32(1)
)"),
                          kDesktop));
}
// The threads of each thread block of `f` (the product of its threadIdx loops' extents,
// the largest per axis).
int64_t threads_per_block(const PrimFunc& f) {
  int64_t threads = 1;
  for (const char* axis : {"threadIdx.x", "threadIdx.y", "threadIdx.z"}) {
    int64_t most = 1;
    for (const For& loop : loops_of_kind(f, ForKind::ThreadBinding, axis)) {
      const int64_t* extent = as_const_int(loop->extent);
      EXPECT_NE(extent, nullptr);
      if (extent != nullptr) most = std::max(most, *extent);
    }
    threads *= most;
  }
  return threads;
}

// The sum over the first axis of (16, n): n outputs adjacent in memory.
constexpr const char* kColumnSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_x: T.handle, var_out: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (16, n))
        out = T.match_buffer(var_out, (n,))
        for ax0, k0 in T.grid(n, 16):
            with T.block("sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    out[v_ax0] = T.float32(0)
                out[v_ax0] = out[v_ax0] + x[v_k0, v_ax0]
)";

TEST(ColumnReductionRule, SumOverTheFirstAxis) {
  expect_one_kernel("column reduction", kColumnSum,
                    [](int64_t n) {
                      return std::vector<std::vector<int64_t>>{{16, n}, {n}};
                    },
                    {1, 7, 40, 97});
  // 32 adjacent outputs per block along threadIdx.x, the 16 rows over 8 threads along
  // threadIdx.y. Where the subgroup is narrower (lavapipe's 8 lanes), still 32 outputs: a
  // row of the block reads 128 bytes.
  Target narrow = kDesktop;
  narrow.subgroup_size = 8;
  for (const Target* target : {&kDesktop, static_cast<const Target*>(&narrow)}) {
    std::optional<PrimFunc> scheduled =
        apply_rule("column reduction", parse_func(kColumnSum), *target);
    ASSERT_TRUE(scheduled.has_value());
    ASSERT_EQ(loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.x").size(), 1u);
    EXPECT_TRUE(is_const_int(
        loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.x")[0]->extent, 32));
    ASSERT_EQ(loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.y").size(), 1u);
    EXPECT_TRUE(is_const_int(
        loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.y")[0]->extent, 8));
    // x read once, the output written once.
    expect_compulsory_traffic(*scheduled, 16 * 4 + 4);
  }
}

// The sum over the first axis of (n, 300): a symbolic reduction, 300 outputs; the mobile
// profile's 128 threads per block hold 32 x 4 of them.
constexpr const char* kLongColumnSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_x: T.handle, out: T.Buffer((300,), "float32")):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 300))
        for ax0, k0 in T.grid(300, n):
            with T.block("sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    out[v_ax0] = T.float32(0)
                out[v_ax0] = out[v_ax0] + x[v_k0, v_ax0]
)";

TEST(ColumnReductionRule, SymbolicReductionWithinTheThreadLimit) {
  expect_one_kernel("column reduction", kLongColumnSum,
                    [](int64_t n) {
                      return std::vector<std::vector<int64_t>>{{n, 300}, {300}};
                    },
                    {1, 7, 40, 1000});
  PrimFunc f = parse_func(kLongColumnSum);
  for (const Target* target : {&kDesktop, &kMobile}) {
    std::optional<PrimFunc> scheduled = apply_rule("column reduction", f, *target);
    ASSERT_TRUE(scheduled.has_value());
    EXPECT_EQ(threads_per_block(*scheduled), std::min<int64_t>(256, target->max_threads_per_block));
  }
}

// The mean over the channels of NCHW data after a relu (inlined): the sum, then a divide
// that the thread holding each total runs.
constexpr const char* kChannelMean = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_x: T.handle, var_out: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 16, 5, 7))
        out = T.match_buffer(var_out, (n, 5, 7))
        r = T.alloc_buffer((n, 16, 5, 7))
        s = T.alloc_buffer((n, 5, 7))
        for i0, i1, i2, i3 in T.grid(n, 16, 5, 7):
            with T.block("relu"):
                v0, v1, v2, v3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                r[v0, v1, v2, v3] = T.max(x[v0, v1, v2, v3], T.float32(0))
        for ax0, ax1, ax2, k in T.grid(n, 5, 7, 16):
            with T.block("sum"):
                v0, v1, v2, vk = T.axis.remap("SSSR", [ax0, ax1, ax2, k])
                with T.init():
                    s[v0, v1, v2] = T.float32(0)
                s[v0, v1, v2] = s[v0, v1, v2] + r[v0, vk, v1, v2]
        for ax0, ax1, ax2 in T.grid(n, 5, 7):
            with T.block("mean"):
                v0, v1, v2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                out[v0, v1, v2] = s[v0, v1, v2] / T.float32(16)
)";

TEST(ColumnReductionRule, ChannelMeanWithProducerAndEpilogue) {
  expect_one_kernel("column reduction", kChannelMean, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 16, 5, 7}, {n, 5, 7}};
  });
  std::optional<PrimFunc> scheduled =
      apply_rule("column reduction", parse_func(kChannelMean), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  expect_compulsory_traffic(*scheduled, 16 * 35 * 4 + 35 * 4);
}

// The mean over the channels of (8, 4, 56, 56), keeping the axis: rows of 56 outputs,
// 32 threads along them and a tail of 24, which the divide's guard on the thread holding
// the total must not blur (too many threads to enumerate): the kernel report counts the
// compulsory traffic exactly.
constexpr const char* kWideChannelMean = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.Buffer((8, 4, 56, 56), "float32"), out: T.Buffer((8, 1, 56, 56), "float32")):
        s = T.alloc_buffer((8, 1, 56, 56))
        for ax0, ax1, ax2, ax3, k in T.grid(8, 1, 56, 56, 4):
            with T.block("sum"):
                v0, v1, v2, v3, vk = T.axis.remap("SSSSR", [ax0, ax1, ax2, ax3, k])
                with T.init():
                    s[v0, v1, v2, v3] = T.float32(0)
                s[v0, v1, v2, v3] = s[v0, v1, v2, v3] + x[v0, vk, v2, v3]
        for ax0, ax1, ax2, ax3 in T.grid(8, 1, 56, 56):
            with T.block("mean"):
                v0, v1, v2, v3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                out[v0, v1, v2, v3] = s[v0, v1, v2, v3] / T.float32(4)
)";

TEST(ColumnReductionRule, RowsWithATailKeepTheCompulsoryTraffic) {
  expect_one_kernel("column reduction", kWideChannelMean,
                    [](int64_t) {
                      return std::vector<std::vector<int64_t>>{{8, 4, 56, 56}, {8, 1, 56, 56}};
                    },
                    {1});
  std::optional<PrimFunc> scheduled =
      apply_rule("column reduction", parse_func(kWideChannelMean), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  FuncCounts counts = count_lowered(lower_to_kernels(*scheduled, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 1u);
  const LaunchCounts& launch = counts.launches[0];
  EXPECT_FALSE(launch.upper_bound);
  arith::Analyzer analyzer;
  EXPECT_TRUE(is_const_int(analyzer.simplify(launch.bytes_read), 8 * 4 * 56 * 56 * 4));
  EXPECT_TRUE(is_const_int(analyzer.simplify(launch.bytes_written), 8 * 56 * 56 * 4));
}

// The sum over the first axis of a constant (rows, cols) float32 matrix, or its mean.
std::string column_reduction(int64_t rows, int64_t cols, bool mean) {
  const std::string r = std::to_string(rows), c = std::to_string(cols);
  const std::string acc = mean ? "s" : "out";
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.Buffer(()" +
                       r + ", " + c + R"(), "float32"), out: T.Buffer(()" + c +
                       R"(,), "float32")):
)";
  if (mean) source += "        s = T.alloc_buffer((" + c + ",))\n";
  source += "        for ax0, k0 in T.grid(" + c + ", " + r + R"():
            with T.block("sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    )" +
            acc + R"([v_ax0] = T.float32(0)
                )" +
            acc + "[v_ax0] = " + acc + R"([v_ax0] + x[v_k0, v_ax0]
)";
  if (mean) {
    source += "        for ax0 in range(" + c + R"():
            with T.block("mean"):
                v_ax0 = T.axis.spatial()" +
              c + R"(, ax0)
                out[v_ax0] = s[v_ax0] / T.float32()" +
              r + R"()
)";
  }
  return source;
}

int64_t const_bytes(const PrimExpr& e) {
  arith::Analyzer analyzer;
  PrimExpr simplified = analyzer.simplify(e);
  const int64_t* bytes = as_const_int(simplified);
  return bytes != nullptr ? *bytes : -1;
}

// Over (4096, 40), two tiles of 32 outputs would be 2 thread blocks in one pass, so the
// rows split over blocks too.
TEST(ColumnReductionRule, FewOutputsSplitTheRowsOverThreadBlocks) {
  for (bool mean : {false, true}) {
    SCOPED_TRACE(mean ? "mean" : "sum");
    PrimFunc f = parse_func(column_reduction(4096, 40, mean));
    // The slices per block of 32 columns: as many as fit (up to 264 blocks in all) with 64
    // rows each, Y = 8 on the desktop profile (32 x 8 threads) and 4 on the mobile one's
    // 128 threads: 64 slices of 64 rows either way.
    for (const auto& [target, y] : {std::pair{&kDesktop, 8}, std::pair{&kMobile, 4}}) {
      std::optional<PrimFunc> scheduled = apply_rule("column reduction", f, *target);
      ASSERT_TRUE(scheduled.has_value());
      EXPECT_TRUE(structural_equal(default_gpu_schedule(f, *target), *scheduled));
      LoweredFunc lowered = lower_to_kernels(*scheduled, "f", *target);
      ASSERT_EQ(lowered.workspaces.size(), 1u);  // the partial sums
      FuncCounts counts = count_lowered(lowered);
      ASSERT_EQ(counts.launches.size(), 2u) << text::print_node(*scheduled);
      const LaunchCounts& slices = counts.launches[0];
      const LaunchCounts& sum = counts.launches[1];
      EXPECT_EQ(slices.block, (std::array<int64_t, 3>{32, y, 1}));
      EXPECT_EQ(const_bytes(slices.grid[0]), 2 * 64 / y);
      EXPECT_EQ(slices.shared_memory_bytes, 0);  // no barrier: each thread sums its slice
      // x read once (the tail tile's 24 idle columns read nothing); 64 partials per output.
      EXPECT_EQ(const_bytes(slices.bytes_read), 4096 * 40 * 4);
      EXPECT_EQ(const_bytes(slices.bytes_written), 64 * 40 * 4);
      EXPECT_EQ(const_bytes(sum.bytes_read), 64 * 40 * 4);
      EXPECT_EQ(const_bytes(sum.bytes_written), 40 * 4);  // the mean's sum stays in registers
      EXPECT_FALSE(slices.upper_bound || sum.upper_bound);
    }
    std::optional<PrimFunc> scheduled = apply_rule("column reduction", f, kDesktop);
    ASSERT_TRUE(scheduled.has_value());
    // 4096 terms summed in 64 slices instead of in order: float32 rounding differs.
    testing::expect_same_results(f, *scheduled, {{4096, 40}, {40}}, 3, 1e-4);
  }
}

// Outputs enough for 264 blocks of 32 (8448 columns) keep one pass, however long the
// columns.
TEST(ColumnReductionRule, ManyOutputsKeepOnePass) {
  std::optional<PrimFunc> scheduled =
      apply_rule("column reduction", parse_func(column_reduction(4096, 8448, false)), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  FuncCounts counts = count_lowered(lower_to_kernels(*scheduled, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 1u);
  EXPECT_EQ(const_bytes(counts.launches[0].grid[0]), 8448 / 32);
}

// Reductions the column rule must leave to others: over the innermost axis (a row), over
// an input whose innermost axis is not the output's, an argmax over the first axis (two
// reductions), and an epilogue that reads the sums out of place.
TEST(ColumnReductionRule, DeclinesWhatIsNoColumnReduction) {
  const char* row_sum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.Buffer((8, 300), "float32"), out: T.Buffer((8,), "float32")):
        for ax0, k0 in T.grid(8, 300):
            with T.block("sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    out[v_ax0] = T.float32(0)
                out[v_ax0] = out[v_ax0] + x[v_ax0, v_k0]
)";
  const char* transposed = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.Buffer((4, 8, 6), "float32"), out: T.Buffer((6, 8), "float32")):
        for ax0, ax1, k0 in T.grid(6, 8, 4):
            with T.block("sum"):
                v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
                with T.init():
                    out[v_ax0, v_ax1] = T.float32(0)
                out[v_ax0, v_ax1] = out[v_ax0, v_ax1] + x[v_k0, v_ax1, v_ax0]
)";
  const char* argmax = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.Buffer((5, 8), "float32"), out: T.Buffer((8,), "int32")):
        col_max = T.alloc_buffer((8,))
        for ax0, k0 in T.grid(8, 5):
            with T.block("col_max"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    col_max[v_ax0] = T.float32(-3.4028234663852886e+38)
                col_max[v_ax0] = T.max(col_max[v_ax0], x[v_k0, v_ax0])
        for ax0, k0 in T.grid(8, 5):
            with T.block("position"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    out[v_ax0] = 2147483647
                out[v_ax0] = T.min(out[v_ax0], T.Select(x[v_k0, v_ax0] == col_max[v_ax0], T.Cast("int32", v_k0), 5))
)";
  const char* reversed = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.Buffer((5, 8), "float32"), out: T.Buffer((8,), "float32")):
        s = T.alloc_buffer((8,))
        for ax0, k0 in T.grid(8, 5):
            with T.block("sum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    s[v_ax0] = T.float32(0)
                s[v_ax0] = s[v_ax0] + x[v_k0, v_ax0]
        for ax0 in range(8):
            with T.block("out"):
                v_ax0 = T.axis.spatial(8, ax0)
                out[v_ax0] = s[7 - v_ax0]
)";
  for (const char* source : {row_sum, transposed, argmax, reversed}) {
    PrimFunc f = parse_func(source);
    EXPECT_FALSE(apply_rule("column reduction", f, kDesktop).has_value()) << source;
    // Whatever takes it instead still computes the same.
    PrimFunc scheduled = default_gpu_schedule(f, kDesktop);
    std::vector<std::vector<int64_t>> shapes;
    for (const auto& entry : f->buffer_map) {
      std::vector<int64_t> shape;
      for (const PrimExpr& e : entry.second->shape) shape.push_back(*as_const_int(e));
      shapes.push_back(shape);
    }
    testing::expect_same_results(f, scheduled, shapes, 3);
  }
}

// softmax as LegalizeOps writes it, over rows of 300.
constexpr const char* kSoftmax = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_data: T.handle, var_out: T.handle):
        n = T.int64()
        data = T.match_buffer(var_data, (n, 300))
        out = T.match_buffer(var_out, (n, 300))
        maxelem = T.alloc_buffer((n,))
        expsum = T.alloc_buffer((n,))
        for ax0, k0 in T.grid(n, 300):
            with T.block("maxelem"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    maxelem[v_ax0] = T.float32(-3.4028234663852886e+38)
                maxelem[v_ax0] = T.max(maxelem[v_ax0], data[v_ax0, v_k0])
        for ax0, k0 in T.grid(n, 300):
            with T.block("expsum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    expsum[v_ax0] = T.float32(0)
                expsum[v_ax0] = expsum[v_ax0] + T.exp(data[v_ax0, v_k0] - maxelem[v_ax0])
        for ax0, ax1 in T.grid(n, 300):
            with T.block("norm"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                out[v_ax0, v_ax1] = T.exp(data[v_ax0, v_ax1] - maxelem[v_ax0]) / expsum[v_ax0]
)";

TEST(RowReductionRule, SoftmaxIsOneKernelWithSharedIntermediates) {
  expect_one_kernel("row reduction", kSoftmax, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 300}, {n, 300}};
  });
  std::optional<PrimFunc> scheduled = apply_rule("row reduction", parse_func(kSoftmax), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  ASSERT_EQ(loops_of_kind(*scheduled, ForKind::ThreadBinding, "blockIdx.x").size(), 1u);
  // The intermediates, and the row of data that all three blocks read, live in shared
  // memory.
  for (const char* name : {"maxelem", "expsum", "data_shared"}) {
    schedule_internal::StmtPath path =
        schedule_internal::find_block_path(scheduled.value()->body, name);
    ASSERT_FALSE(path.empty()) << name;
    const auto& block = path.back().cast<BlockRealizeNode>()->block;
    EXPECT_EQ(block->writes[0]->buffer->scope, "shared") << name;
  }
  expect_compulsory_traffic(*scheduled, 2 * 300 * 4);
}

// softmax over rows of symbolic length m, as LegalizeOps writes it (attention's scores).
constexpr const char* kSoftmaxSymbolicRows = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_data: T.handle, var_out: T.handle):
        n = T.int64()
        m = T.int64()
        data = T.match_buffer(var_data, (n, m))
        out = T.match_buffer(var_out, (n, m))
        maxelem = T.alloc_buffer((n,))
        expsum = T.alloc_buffer((n,))
        for ax0, k0 in T.grid(n, m):
            with T.block("maxelem"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    maxelem[v_ax0] = T.float32(-3.4028234663852886e+38)
                maxelem[v_ax0] = T.max(maxelem[v_ax0], data[v_ax0, v_k0])
        for ax0, k0 in T.grid(n, m):
            with T.block("expsum"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    expsum[v_ax0] = T.float32(0)
                expsum[v_ax0] = expsum[v_ax0] + T.exp(data[v_ax0, v_k0] - maxelem[v_ax0])
        for ax0, ax1 in T.grid(n, m):
            with T.block("norm"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                out[v_ax0, v_ax1] = T.exp(data[v_ax0, v_ax1] - maxelem[v_ax0]) / expsum[v_ax0]
)";

TEST(RowReductionRule, SymbolicRowsAreStagedUpToABound) {
  PrimFunc f = parse_func(kSoftmaxSymbolicRows);
  // The bound: the largest power of two of float32 elements in half the shared memory.
  for (const auto& [target, bound] :
       std::vector<std::pair<const Target*, int64_t>>{{&kDesktop, 4096}, {&kMobile, 2048}}) {
    std::optional<PrimFunc> scheduled = apply_rule("row reduction", f, *target);
    ASSERT_TRUE(scheduled.has_value());
    EXPECT_TRUE(structural_equal(default_gpu_schedule(f, *target), *scheduled));
    LoweredFunc lowered = lower_to_kernels(*scheduled, "f", *target);
    ASSERT_EQ(lowered.launches.size(), 2u);
    EXPECT_TRUE(lowered.workspaces.empty());
    // Rows up to the bound: one row of data in shared memory, a constant allocation.
    const KernelLaunch& staged = lowered.launches[0];
    EXPECT_EQ(text::print_node(staged.condition), "m < T.int64(" + std::to_string(bound + 1) + ")");
    EXPECT_GE(staged.kernel.shared_memory_bytes, bound * 4);
    EXPECT_LE(staged.kernel.shared_memory_bytes, target->max_shared_memory_bytes);
  }
  // Up to the bound, each input element is read once and each output written once (n = m
  // below); past it, data is read by each of the three blocks.
  FuncCounts counts =
      count_lowered(lower_to_kernels(*apply_rule("row reduction", f, kDesktop), "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 2u);
  for (int64_t n : {1, 300, 4096}) {
    EXPECT_EQ(value_at(counts.launches[0].bytes_read, n), n * n * 4) << "n = " << n;
    EXPECT_EQ(value_at(counts.launches[0].bytes_written, n), n * n * 4) << "n = " << n;
  }
  EXPECT_EQ(value_at(counts.launches[1].bytes_read, 5000), 3 * 5000 * 5000 * 4);
  // Both branches compute softmax: m = 300 runs the staged kernel, m = 5000 the other.
  PrimFunc scheduled = *apply_rule("row reduction", f, kDesktop);
  testing::expect_same_results(f, scheduled, {{3, 300}, {3, 300}}, 1);
  testing::expect_same_results(f, scheduled, {{2, 5000}, {2, 5000}}, 2);
}

// rms_norm over the last axis of (n, 4, 37) with an injective producer (the square)
// written as a block of its own, as FuseTIR leaves it.
constexpr const char* kRmsNorm = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_data: T.handle, weight: T.Buffer((37,), "float32"), var_out: T.handle):
        n = T.int64()
        data = T.match_buffer(var_data, (n, 4, 37))
        out = T.match_buffer(var_out, (n, 4, 37))
        sq = T.alloc_buffer((n, 4, 37))
        sum_sq = T.alloc_buffer((n, 4))
        for ax0, ax1, ax2 in T.grid(n, 4, 37):
            with T.block("sq"):
                v0, v1, v2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                sq[v0, v1, v2] = data[v0, v1, v2] * data[v0, v1, v2]
        for ax0, ax1, k0 in T.grid(n, 4, 37):
            with T.block("sum_sq"):
                v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
                with T.init():
                    sum_sq[v_ax0, v_ax1] = T.float32(0)
                sum_sq[v_ax0, v_ax1] = sum_sq[v_ax0, v_ax1] + sq[v_ax0, v_ax1, v_k0]
        for ax0, ax1, ax2 in T.grid(n, 4, 37):
            with T.block("norm"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                out[v_ax0, v_ax1, v_ax2] = data[v_ax0, v_ax1, v_ax2] * T.rsqrt(sum_sq[v_ax0, v_ax1] / T.float32(37) + T.float32(1e-05)) * weight[v_ax2]
)";

TEST(RowReductionRule, RmsNormWithAnInjectiveProducer) {
  expect_one_kernel("row reduction", kRmsNorm, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 4, 37}, {37}, {n, 4, 37}};
  });
}

// argmax over the last axis, as LegalizeOps writes it (but for an int32 result, which the
// mobile profile supports): the row's max, the first position holding it, and one
// output per row (a block without loops past the row).
constexpr const char* kArgmax = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_x: T.handle, var_out: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 300))
        out = T.match_buffer(var_out, (n,), "int32")
        row_max = T.alloc_buffer((n,))
        position = T.alloc_buffer((n,), "int32")
        for ax0, k0 in T.grid(n, 300):
            with T.block("row_max"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    row_max[v_ax0] = T.float32(-3.4028234663852886e+38)
                row_max[v_ax0] = T.max(row_max[v_ax0], x[v_ax0, v_k0])
        for ax0, k0 in T.grid(n, 300):
            with T.block("position"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    position[v_ax0] = 2147483647
                position[v_ax0] = T.min(position[v_ax0], T.Select(x[v_ax0, v_k0] == row_max[v_ax0], T.Cast("int32", v_k0), 300))
        for ax0 in range(n):
            with T.block("out"):
                v_ax0 = T.axis.spatial(n, ax0)
                out[v_ax0] = position[v_ax0] + 0
)";

TEST(RowReductionRule, ArgmaxIsOneKernelWithOneOutputPerRow) {
  expect_one_kernel("row reduction", kArgmax, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 300}, {n}};
  });
  std::optional<PrimFunc> scheduled = apply_rule("row reduction", parse_func(kArgmax), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  // x read once per row from global memory; the output written once.
  expect_compulsory_traffic(*scheduled, 300 * 4 + 4);
}

// Maxima over windows of 4 along the last axis, with an epilogue (the rows: 4 elements
// each). One-dimensional windows are not the window rule's (it wants an image).
constexpr const char* kShortRows = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Y: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 3, 16))
        Y = T.match_buffer(var_Y, (n, 3, 4))
        P = T.alloc_buffer((n, 3, 4))
        for b, c, i, r in T.grid(n, 3, 4, 4):
            with T.block("max"):
                vb, vc, vi, vr = T.axis.remap("SSSR", [b, c, i, r])
                with T.init():
                    P[vb, vc, vi] = T.float32(-3.4028234663852886e+38)
                P[vb, vc, vi] = T.max(P[vb, vc, vi], X[vb, vc, vi * 4 + vr])
        for b, c, i in T.grid(n, 3, 4):
            with T.block("relu"):
                vb, vc, vi = T.axis.remap("SSS", [b, c, i])
                Y[vb, vc, vi] = T.max(P[vb, vc, vi], T.float32(0))
)";

TEST(RowReductionRule, ShortRowsAreOneThreadEach) {
  expect_one_kernel("row reduction", kShortRows, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 3, 16}, {n, 3, 4}};
  });
  std::optional<PrimFunc> scheduled = apply_rule("row reduction", parse_func(kShortRows), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  // 256 rows per thread block, one per thread: no cross-thread reduction, nothing shared.
  std::vector<For> threads = loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.x");
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_TRUE(is_const_int(threads[0]->extent, 256));
  for (const BlockRealize& r : schedule_internal::blocks_under((*scheduled)->body)) {
    for (const Buffer& b : r->block->alloc_buffers) EXPECT_EQ(b->scope, "local") << b->name;
  }
  // Each input element read once, each output written once, where the rows (12 n) fill
  // the thread blocks; a block's tail counts whole (the guard under its serial loops is
  // not one the counter reads), an upper bound.
  FuncCounts counts = count_lowered(lower_to_kernels(*scheduled, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 1u);
  for (int64_t n : {64, 128}) {
    EXPECT_EQ(value_at(counts.launches[0].bytes_read, n), n * 3 * 16 * 4) << "n = " << n;
    EXPECT_EQ(value_at(counts.launches[0].bytes_written, n), n * 3 * 4 * 4) << "n = " << n;
  }
}

// layer_norm over rows of 32 (a transformer's small hidden size), as LegalizeOps writes
// it: three blocks read each row of x, and the output reads gamma and beta alike for
// every row.
constexpr const char* kShortLayerNorm = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_x: T.handle, gamma: T.Buffer((32,), "float32"), beta: T.Buffer((32,), "float32"), var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 32))
        y = T.match_buffer(var_y, (n, 32))
        x_sum = T.alloc_buffer((n,))
        x_square_sum = T.alloc_buffer((n,))
        for i, k in T.grid(n, 32):
            with T.block("x_sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    x_sum[vi] = T.float32(0)
                x_sum[vi] = x_sum[vi] + x[vi, vk]
        for i, k in T.grid(n, 32):
            with T.block("x_square_sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    x_square_sum[vi] = T.float32(0)
                x_square_sum[vi] = x_square_sum[vi] + (x[vi, vk] - x_sum[vi] / T.float32(32)) * (x[vi, vk] - x_sum[vi] / T.float32(32))
        for i, j in T.grid(n, 32):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = (x[vi, vj] - x_sum[vi] / T.float32(32)) * T.rsqrt(x_square_sum[vi] / T.float32(32) + T.float32(1e-05)) * gamma[vj] + beta[vj]
)";

TEST(RowReductionRule, ShortRowsStageTheRowInRegistersAndTheParametersInShared) {
  expect_one_kernel("row reduction", kShortLayerNorm,
                    [](int64_t n) {
                      return std::vector<std::vector<int64_t>>{{n, 32}, {32}, {32}, {n, 32}};
                    },
                    {1, 7, 300});
  std::optional<PrimFunc> scheduled =
      apply_rule("row reduction", parse_func(kShortLayerNorm), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  for (const auto& [name, scope] : std::vector<std::pair<const char*, const char*>>{
           {"x_local", "local"}, {"gamma_shared", "shared"}, {"beta_shared", "shared"}}) {
    schedule_internal::StmtPath path =
        schedule_internal::find_block_path(scheduled.value()->body, name);
    ASSERT_FALSE(path.empty()) << name;
    EXPECT_EQ(path.back().cast<BlockRealizeNode>()->block->writes[0]->buffer->scope, scope) << name;
  }
  // Hand count: each row of x read once and each row of y written once, 128 bytes; gamma
  // and beta read once per thread block of 256 rows.
  FuncCounts counts = count_lowered(lower_to_kernels(*scheduled, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 1u);
  for (int64_t n : {1, 256, 257, 1000}) {
    const int64_t blocks = (n + 255) / 256;
    EXPECT_EQ(value_at(counts.launches[0].bytes_read, n), n * 128 + blocks * 2 * 128)
        << "n = " << n;
    EXPECT_EQ(value_at(counts.launches[0].bytes_written, n), n * 128) << "n = " << n;
  }
}

// Maxima over windows of 3, stride 2, padding 1, with nothing after them: a padding
// block, then the reduction.
constexpr const char* kBareRowMax = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Y: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 2, 9))
        Y = T.match_buffer(var_Y, (n, 2, 5))
        P = T.alloc_buffer((n, 2, 11))
        for b, c, i in T.grid(n, 2, 11):
            with T.block("pad"):
                vb, vc, vi = T.axis.remap("SSS", [b, c, i])
                P[vb, vc, vi] = T.if_then_else(1 <= vi and vi < 10, X[vb, vc, vi - 1], T.float32(-3.4028234663852886e+38))
        for b, c, i, r in T.grid(n, 2, 5, 3):
            with T.block("max"):
                vb, vc, vi, vr = T.axis.remap("SSSR", [b, c, i, r])
                with T.init():
                    Y[vb, vc, vi] = T.float32(-3.4028234663852886e+38)
                Y[vb, vc, vi] = T.max(Y[vb, vc, vi], P[vb, vc, vi * 2 + vr])
)";

// A row sum over rows of 100: long rows, so not this rule's (the generic schedule gives
// the same cross-thread reduction without a copy).
constexpr const char* kLongRowSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_S: T.handle):
        m = T.int64()
        A = T.match_buffer(var_A, (m, T.int64(100)))
        S = T.match_buffer(var_S, (m,))
        for i, k in T.grid(m, T.int64(100)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
)";

TEST(RowReductionRule, ABareReductionWritesThroughARegisterCopy) {
  expect_one_kernel("row reduction", kBareRowMax, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 2, 9}, {n, 2, 5}};
  });
  std::optional<PrimFunc> scheduled =
      apply_rule("row reduction", parse_func(kBareRowMax), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  // One window per thread, the padding inlined, the running maximum in a register.
  std::vector<For> threads = loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.x");
  ASSERT_EQ(threads.size(), 1u);
  EXPECT_TRUE(is_const_int(threads[0]->extent, 256));
  std::vector<BlockRealize> blocks = schedule_internal::blocks_under((*scheduled)->body);
  EXPECT_EQ(blocks.size(), 3u);  // the root, the maximum and its copy to Y
  for (const BlockRealize& r : blocks) {
    for (const Buffer& b : r->block->alloc_buffers) EXPECT_EQ(b->scope, "local") << b->name;
  }
  EXPECT_FALSE(apply_rule("row reduction", parse_func(kLongRowSum), kDesktop).has_value());
}

// A 2x2 max pool of stride 2 with an epilogue: the windows do not overlap.
constexpr const char* kMaxPool = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Y: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 3, 8, 8))
        Y = T.match_buffer(var_Y, (n, 3, 4, 4))
        P = T.alloc_buffer((n, 3, 4, 4))
        for b, c, i, j, ri, rj in T.grid(n, 3, 4, 4, 2, 2):
            with T.block("pool"):
                vb, vc, vi, vj, vri, vrj = T.axis.remap("SSSSRR", [b, c, i, j, ri, rj])
                with T.init():
                    P[vb, vc, vi, vj] = T.float32(-3.4028234663852886e+38)
                P[vb, vc, vi, vj] = T.max(P[vb, vc, vi, vj], X[vb, vc, vi * 2 + vri, vj * 2 + vrj])
        for b, c, i, j in T.grid(n, 3, 4, 4):
            with T.block("relu"):
                vb, vc, vi, vj = T.axis.remap("SSSS", [b, c, i, j])
                Y[vb, vc, vi, vj] = T.max(P[vb, vc, vi, vj], T.float32(0))
)";

// The shared buffers of `f`.
std::vector<Buffer> shared_buffers(const PrimFunc& f) {
  std::vector<Buffer> shared;
  for (const BlockRealize& r : schedule_internal::blocks_under(f->body)) {
    for (const Buffer& b : r->block->alloc_buffers) {
      if (b->scope == "shared") shared.push_back(b);
    }
  }
  return shared;
}

TEST(WindowRule, MaxPoolWithAnEpilogueReadsTheImageOnce) {
  expect_one_kernel("window", kMaxPool, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 3, 8, 8}, {n, 3, 4, 4}};
  });
  std::optional<PrimFunc> scheduled = apply_rule("window", parse_func(kMaxPool), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  // A thread block per image (its 4 rows of 4 outputs), the image staged in shared memory.
  std::vector<For> rows = loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.y");
  ASSERT_FALSE(rows.empty());
  EXPECT_TRUE(is_const_int(rows.back()->extent, 4));
  ASSERT_EQ(shared_buffers(*scheduled).size(), 1u);
  expect_compulsory_traffic(*scheduled, (3 * 8 * 8 + 3 * 4 * 4) * 4);
}

// A 3x3 max pool of stride 2 with padding 1 and nothing after it, as ResNet's stem has
// it (its relu went into the convolution before): a padding block, then the reduction.
constexpr const char* kBareMaxPool = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Y: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 2, 9, 9))
        Y = T.match_buffer(var_Y, (n, 2, 5, 5))
        P = T.alloc_buffer((n, 2, 11, 11))
        for b, c, i, j in T.grid(n, 2, 11, 11):
            with T.block("pad"):
                vb, vc, vi, vj = T.axis.remap("SSSS", [b, c, i, j])
                P[vb, vc, vi, vj] = T.if_then_else(1 <= vi and vi < 10 and 1 <= vj and vj < 10, X[vb, vc, vi - 1, vj - 1], T.float32(-3.4028234663852886e+38))
        for b, c, i, j, ri, rj in T.grid(n, 2, 5, 5, 3, 3):
            with T.block("pool"):
                vb, vc, vi, vj, vri, vrj = T.axis.remap("SSSSRR", [b, c, i, j, ri, rj])
                with T.init():
                    Y[vb, vc, vi, vj] = T.float32(-3.4028234663852886e+38)
                Y[vb, vc, vi, vj] = T.max(Y[vb, vc, vi, vj], P[vb, vc, vi * 2 + vri, vj * 2 + vrj])
)";

TEST(WindowRule, PaddedMaxPoolStagesThePaddedTile) {
  expect_one_kernel("window", kBareMaxPool, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 2, 9, 9}, {n, 2, 5, 5}};
  });
  std::optional<PrimFunc> scheduled = apply_rule("window", parse_func(kBareMaxPool), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  // The overlapping windows of the 5 x 5 outputs cover the padded 11 x 11 image, which
  // is read once (the padding is not read), the maximum kept in a register.
  expect_compulsory_traffic(*scheduled, (2 * 9 * 9 + 2 * 5 * 5) * 4);
}

// A depthwise 3x3 convolution (stride 1, padding 1, legalized with the padding inlined)
// of 4 channels over h x w images, with a bias and relu6 after it.
std::string depthwise(int64_t h, int64_t w) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, W: T.Buffer((4, 1, 3, 3)), bias: T.Buffer((4,)), lo: T.Buffer(()), hi: T.Buffer(()), var_Y: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 4, H, W))
        Y = T.match_buffer(var_Y, (n, 4, H, W))
        C = T.alloc_buffer((n, 4, H, W))
        D = T.alloc_buffer((n, 4, H, W))
        for b, c, i, j, k0, k1, k2 in T.grid(n, 4, H, W, 1, 3, 3):
            with T.block("conv"):
                vb, vc, vi, vj, vk0, vk1, vk2 = T.axis.remap("SSSSRRR", [b, c, i, j, k0, k1, k2])
                with T.init():
                    C[vb, vc, vi, vj] = T.float32(0)
                C[vb, vc, vi, vj] = C[vb, vc, vi, vj] + T.if_then_else(vi + vk1 - 1 >= 0 and vi + vk1 - 1 < H and vj + vk2 - 1 >= 0 and vj + vk2 - 1 < W, X[vb, vc + vk0, vi + vk1 - 1, vj + vk2 - 1], T.float32(0)) * W[vc, vk0, vk1, vk2]
        for b, c, i, j in T.grid(n, 4, H, W):
            with T.block("bias"):
                vb, vc, vi, vj = T.axis.remap("SSSS", [b, c, i, j])
                D[vb, vc, vi, vj] = C[vb, vc, vi, vj] + bias[vc]
        for b, c, i, j in T.grid(n, 4, H, W):
            with T.block("clip"):
                vb, vc, vi, vj = T.axis.remap("SSSS", [b, c, i, j])
                Y[vb, vc, vi, vj] = T.min(T.max(D[vb, vc, vi, vj], lo[()]), hi[()])
)";
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"H", std::to_string(h)},
                                 {", W)", ", " + std::to_string(w) + ")"},
                                 {", W,", ", " + std::to_string(w) + ","},
                                 {"< W,", "< " + std::to_string(w) + ","}}) {
    for (size_t at = source.find(from); at != std::string::npos; at = source.find(from, at)) {
      source.replace(at, from.size(), to);
    }
  }
  return source;
}

// The bytes that the one launch of `f`, scheduled for `target`, reads at batch n.
int64_t bytes_read_at(const PrimFunc& f, const Target& target, int64_t n) {
  FuncCounts counts = count_lowered(lower_to_kernels(f, "f", target));
  EXPECT_EQ(counts.launches.size(), 1u);
  arith::Analyzer analyzer;
  PrimExpr read =
      analyzer.simplify(substitute(counts.launches[0].bytes_read, [&](const Var&) -> PrimExpr {
        return int_imm(DataType::Int(64), n);
      }));
  const int64_t* bytes = as_const_int(read);
  EXPECT_NE(bytes, nullptr) << text::print_node(counts.launches[0].bytes_read);
  return bytes != nullptr ? *bytes : -1;
}

TEST(WindowRule, DepthwiseConvolutionReadsItsInputsOnce) {
  auto shapes = [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 4, 13, 13}, {4, 1, 3, 3}, {4}, {}, {},
                                             {n, 4, 13, 13}};
  };
  const std::string source = depthwise(13, 13);
  expect_one_kernel("window", source, shapes);
  // The mobile profile's 128 threads take 9 of the 13 rows at a time: a tail guard.
  std::optional<PrimFunc> mobile = apply_rule("window", parse_func(source), kMobile);
  ASSERT_TRUE(mobile.has_value());
  testing::expect_same_results(parse_func(source), *mobile, shapes(3), 3);
  std::optional<PrimFunc> scheduled = apply_rule("window", parse_func(source), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  // One thread block per image (13 rows of 13 threads): the padded image, the weights,
  // the bias and the two bounds in shared memory, each read once per image.
  EXPECT_EQ(shared_buffers(*scheduled).size(), 5u);
  // Per image: 13 x 13 inputs, 9 weights, a bias and the two bounds.
  for (int64_t n : {1, 5}) {
    EXPECT_EQ(bytes_read_at(*scheduled, kDesktop, n), n * 4 * (13 * 13 + 9 + 1 + 2) * 4)
        << "n = " << n;
  }
}

// Rows of 100 outputs: 2 rows of threads fit in 256, so each thread computes 4 rows and a
// block's tile is 8 rows, whose halo is 2 rows, not 2 for every 2.
TEST(WindowRule, WideRowsTakeSeveralRowsPerThread) {
  auto shapes = [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 4, 16, 100}, {4, 1, 3, 3}, {4}, {}, {},
                                             {n, 4, 16, 100}};
  };
  const std::string source = depthwise(16, 100);
  expect_one_kernel("window", source, shapes, {1, 2});
  std::optional<PrimFunc> scheduled = apply_rule("window", parse_func(source), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  std::vector<For> rows = loops_of_kind(*scheduled, ForKind::ThreadBinding, "threadIdx.y");
  ASSERT_FALSE(rows.empty());
  EXPECT_TRUE(is_const_int(rows.back()->extent, 2));
  // Per image and channel: 2 tiles of 8 rows, each reading its rows and the one on each
  // side that the image has (9 rows of 100), then 9 weights, a bias and the two bounds.
  for (int64_t n : {1, 3}) {
    EXPECT_EQ(bytes_read_at(*scheduled, kDesktop, n), n * 4 * 2 * (9 * 100 + 9 + 1 + 2) * 4)
        << "n = " << n;
  }
}

TEST(WindowRule, DeclinesWhatIsNoImageWindow) {
  for (const char* source : {kShortRows, kBareRowMax, kLongRowSum}) {
    EXPECT_FALSE(apply_rule("window", parse_func(source), kDesktop).has_value()) << source;
  }
  // Rows wider than the thread block.
  std::string wide = kMaxPool;
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"n, 3, 8, 8", "n, 3, 8, 600"},
                                 {"n, 3, 4, 4", "n, 3, 4, 300"},
                                 {"T.grid(n, 3, 4, 4", "T.grid(n, 3, 4, 300"}}) {
    for (size_t at = wide.find(from); at != std::string::npos; at = wide.find(from, at)) {
      wide.replace(at, from.size(), to);
    }
  }
  EXPECT_FALSE(apply_rule("window", parse_func(wide), kDesktop).has_value());
}

// layer_norm over the last two axes: two reduction loops per row.
constexpr const char* kLayerNorm = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_data: T.handle, gamma: T.Buffer((4, 37), "float32"), beta: T.Buffer((4, 37), "float32"), var_out: T.handle):
        n = T.int64()
        data = T.match_buffer(var_data, (n, 4, 37))
        out = T.match_buffer(var_out, (n, 4, 37))
        s = T.alloc_buffer((n,))
        ss = T.alloc_buffer((n,))
        for ax0, k0, k1 in T.grid(n, 4, 37):
            with T.block("sum"):
                v_ax0, v_k0, v_k1 = T.axis.remap("SRR", [ax0, k0, k1])
                with T.init():
                    s[v_ax0] = T.float32(0)
                s[v_ax0] = s[v_ax0] + data[v_ax0, v_k0, v_k1]
        for ax0, k0, k1 in T.grid(n, 4, 37):
            with T.block("square_sum"):
                v_ax0, v_k0, v_k1 = T.axis.remap("SRR", [ax0, k0, k1])
                with T.init():
                    ss[v_ax0] = T.float32(0)
                ss[v_ax0] = ss[v_ax0] + (data[v_ax0, v_k0, v_k1] - s[v_ax0] / T.float32(148)) * (data[v_ax0, v_k0, v_k1] - s[v_ax0] / T.float32(148))
        for ax0, ax1, ax2 in T.grid(n, 4, 37):
            with T.block("norm"):
                v_ax0, v_ax1, v_ax2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                out[v_ax0, v_ax1, v_ax2] = (data[v_ax0, v_ax1, v_ax2] - s[v_ax0] / T.float32(148)) * T.rsqrt(ss[v_ax0] / T.float32(148) + T.float32(1e-05)) * gamma[v_ax1, v_ax2] + beta[v_ax1, v_ax2]
)";

TEST(RowReductionRule, LayerNormOverTwoAxes) {
  expect_one_kernel("row reduction", kLayerNorm, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{n, 4, 37}, {4, 37}, {4, 37}, {n, 4, 37}};
  });
}

// Rows (1, s), as layer_norm over the last axis of (1, s, 32) gives: the batch axis of
// extent 1 stays out of the fused row index (compute_at could not bound the fused
// index's quotient by s, and the sums would keep a loop over rows), bound to blockIdx.y.
constexpr const char* kBatchOfOne = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_O: T.handle):
        s = T.int64()
        X = T.match_buffer(var_X, (T.int64(1), s, T.int64(32)))
        O = T.match_buffer(var_O, (T.int64(1), s, T.int64(32)))
        t = T.alloc_buffer((T.int64(1), s))
        q = T.alloc_buffer((T.int64(1), s))
        for ax0, ax1, k in T.grid(T.int64(1), s, T.int64(32)):
            with T.block("sum"):
                v0, v1, vk = T.axis.remap("SSR", [ax0, ax1, k])
                with T.init():
                    t[v0, v1] = T.float32(0)
                t[v0, v1] = t[v0, v1] + X[v0, v1, vk]
        for ax0, ax1, k in T.grid(T.int64(1), s, T.int64(32)):
            with T.block("square_sum"):
                v0, v1, vk = T.axis.remap("SSR", [ax0, ax1, k])
                with T.init():
                    q[v0, v1] = T.float32(0)
                q[v0, v1] = q[v0, v1] + (X[v0, v1, vk] - t[v0, v1]) * (X[v0, v1, vk] - t[v0, v1])
        for ax0, ax1, ax2 in T.grid(T.int64(1), s, T.int64(32)):
            with T.block("norm"):
                v0, v1, v2 = T.axis.remap("SSS", [ax0, ax1, ax2])
                O[v0, v1, v2] = X[v0, v1, v2] - t[v0, v1] + q[v0, v1]
)";

TEST(RowReductionRule, ABatchOfOneStaysOutOfTheRowIndex) {
  expect_one_kernel("row reduction", kBatchOfOne, [](int64_t n) {
    return std::vector<std::vector<int64_t>>{{1, n, 32}, {1, n, 32}};
  });
  std::optional<PrimFunc> scheduled =
      apply_rule("row reduction", parse_func(kBatchOfOne), kDesktop);
  ASSERT_TRUE(scheduled.has_value());
  EXPECT_EQ(loops_of_kind(*scheduled, ForKind::ThreadBinding, "blockIdx.y").size(), 1u);
}

// log_softmax along the first axis: the output reads the reductions at its second
// iteration variable, not per row; the rule declines.
TEST(RowReductionRule, DeclinesReductionsReadAcrossRows) {
  EXPECT_FALSE(apply_rule("row reduction", parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((5, 8), "float32"), O: T.Buffer((5, 8), "float32")):
        m = T.alloc_buffer((8,))
        for ax0, k0 in T.grid(8, 5):
            with T.block("max"):
                v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
                with T.init():
                    m[v_ax0] = T.float32(-3.4028234663852886e+38)
                m[v_ax0] = T.max(m[v_ax0], X[v_k0, v_ax0])
        for ax0, ax1 in T.grid(5, 8):
            with T.block("norm"):
                v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
                O[v_ax0, v_ax1] = X[v_ax0, v_ax1] - m[v_ax1]
)"),
                          kDesktop));
}

}  // namespace
}  // namespace relaxc::tir
