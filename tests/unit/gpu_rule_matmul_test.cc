// Tests of the matmul, convolution (implicit GEMM) and GEMV rules (passes/tir/gpu_rules/)
// through default_gpu_schedule: what they recognize and decline, their results on the
// reference interpreter against the unscheduled functions (symbolic sizes, tails,
// batches, transposed operands, epilogues, padding, strides and dilation), and what can
// be counted in the lowered kernel: FMAs per shared-memory load and global loads per FMA
// in the k loop, the padded shared tile, global traffic, and ptxas's registers and spills.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "codegen/cuda/cuda_codegen.h"
#include "ir/arith/analyzer.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/default_gpu_schedule.h"
#include "passes/tir/gpu_rules/conv_gemm.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/gpu_rules/matmul_analysis.h"
#include "passes/tir/kernel_counts.h"
#include "passes/tir/lower_to_kernels.h"
#include "passes/tir/schedule/schedule_internal.h"
#include "tests/support/ptxas.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::tir {
namespace {

PrimFunc parse_func(const std::string& body, const std::string& signature) {
  std::string source =
      "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(" + signature + "):\n" + body;
  PrimFunc f = text::parse_module(source, "matmul.py")->prim_func("f");
  EXPECT_TRUE(f.defined());
  return f;
}

const Target kDesktop = vulkan_profile("desktop");
const Target kMobile = vulkan_profile("mobile");
constexpr uint64_t kSeed = 5;
// Tiles the interpreter runs quickly (it runs every thread of a cooperative copy in turn):
// 8 x 8 outputs per block, 2 x 2 per thread, k in steps of 4; 16 threads.
constexpr MatmulTiles kSmallTiles{8, 8, 4, 2, 2};

// `f` scheduled by the matmul rule with kSmallTiles.
PrimFunc schedule_small(const PrimFunc& f) {
  std::optional<MatmulMatch> m = match_matmul(f);
  EXPECT_TRUE(m.has_value()) << text::print_node(f);
  return m ? schedule_matmul(f, *m, kSmallTiles) : f;
}

// `f` scheduled by the matmul rule alone (default_gpu_schedule gives a function with
// symbolic rows to the GEMV rule first, which specializes it by shape).
PrimFunc matmul_rule_schedule(const PrimFunc& f, const Target& target) {
  std::optional<PrimFunc> g = matmul_rule().apply(f, target);
  EXPECT_TRUE(g.has_value()) << "the matmul rule declined " << text::print_node(f);
  return g ? *g : f;
}

// Whether the rule took `f`: its reduction block reads a shared-memory tile.
bool tiled(const PrimFunc& f) {
  bool shared = false;
  for (const BlockRealize& r : schedule_internal::blocks_under(f->body)) {
    for (const Buffer& b : r->block->alloc_buffers) shared = shared || b->scope == "shared";
  }
  return shared;
}

// C[m, n] = A[m, k] @ B[k, n], symbolic, as LegalizeOps writes it.
const std::string kSignature = "var_A: T.handle, var_B: T.handle, var_C: T.handle";
const std::string kMatmul = R"(
        m = T.int64()
        n = T.int64()
        k = T.int64()
        A = T.match_buffer(var_A, (m, k))
        B = T.match_buffer(var_B, (k, n))
        C = T.match_buffer(var_C, (m, n))
        for i, j, r in T.grid(m, n, k):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";

TEST(GpuRuleMatmul, SymbolicSizesWithTails) {
  PrimFunc f = parse_func(kMatmul, kSignature);
  for (const Target& target : {kMobile, kDesktop, cuda_target(80)}) {
    EXPECT_TRUE(tiled(default_gpu_schedule(f, target))) << target.str();
  }
  PrimFunc g = schedule_small(f);
  testing::expect_same_results(f, g, {{19, 10}, {10, 13}, {19, 13}}, kSeed);
  testing::expect_same_results(f, g, {{16, 8}, {8, 16}, {16, 16}}, kSeed);
  testing::expect_same_results(f, g, {{1, 1}, {1, 1}, {1, 1}}, kSeed);
}

// Batched, B transposed (C[b, i, j] = sum A[b, i, k] * B[0, j, k]: a broadcast batch).
TEST(GpuRuleMatmul, BatchedWithTransposedBroadcastOperand) {
  PrimFunc f = parse_func(R"(
        m = T.int64()
        A = T.match_buffer(var_A, (3, m, 8))
        B = T.match_buffer(var_B, (1, 64, 8))
        C = T.match_buffer(var_C, (3, m, 64))
        for b, i, j, r in T.grid(3, m, 64, 8):
            with T.block("C"):
                vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, r])
                with T.init():
                    C[vb, vi, vj] = T.float32(0)
                C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[0, vj, vk]
)",
                          kSignature);
  EXPECT_TRUE(tiled(default_gpu_schedule(f, kMobile)));
  testing::expect_same_results(f, schedule_small(f), {{3, 9, 8}, {1, 64, 8}, {3, 9, 64}}, kSeed);
}

// matmul + bias + relu, as fusion writes it: the intermediates stay in registers.
const std::string kMatmulBiasRelu = R"(
        m = T.int64()
        A = T.match_buffer(var_A, (m, 32))
        B = T.match_buffer(var_B, (32, 72))
        bias = T.match_buffer(var_bias, (72,))
        D = T.match_buffer(var_D, (m, 72))
        C = T.alloc_buffer((m, 72))
        E = T.alloc_buffer((m, 72))
        for i, j, r in T.grid(m, 72, 32):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
        for i, j in T.grid(m, 72):
            with T.block("E"):
                vi, vj = T.axis.remap("SS", [i, j])
                E[vi, vj] = C[vi, vj] + bias[vj]
        for i, j in T.grid(m, 72):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(E[vi, vj], T.float32(0))
)";
const std::string kBiasSignature =
    "var_A: T.handle, var_B: T.handle, var_bias: T.handle, var_D: T.handle";

TEST(GpuRuleMatmul, EpilogueRunsOnTheRegisterTile) {
  PrimFunc f = parse_func(kMatmulBiasRelu, kBiasSignature);
  PrimFunc g = matmul_rule_schedule(f, kMobile);
  ASSERT_TRUE(tiled(g)) << text::print_node(g);
  testing::expect_same_results(f, schedule_small(f), {{3, 32}, {32, 72}, {72}, {3, 72}}, kSeed);
  // One kernel, no global workspace: C and E live in each thread's registers.
  LoweredFunc lowered = lower_to_kernels(g, "f", kMobile);
  EXPECT_EQ(lowered.launches.size(), 1u);
  EXPECT_TRUE(lowered.workspaces.empty());
}

// C = A @ B with constant sizes: (m, k) @ (k, n).
PrimFunc constant_matmul(int64_t m, int64_t n, int64_t k) {
  std::string mn = std::to_string(m) + ", " + std::to_string(n);
  std::string mk = std::to_string(m) + ", " + std::to_string(k);
  std::string kn = std::to_string(k) + ", " + std::to_string(n);
  return parse_func("        A = T.match_buffer(var_A, (" + mk + "))\n" +
                        "        B = T.match_buffer(var_B, (" + kn + "))\n" +
                        "        C = T.match_buffer(var_C, (" + mn + "))\n" +
                        "        for i, j, r in T.grid(" + mn + ", " + std::to_string(k) + "):\n" +
                        R"(            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)",
                    kSignature);
}

TEST(GpuRuleMatmul, DeclinesWhatIsNotALargeMatmul) {
  // Four rows: the GEMV rule's.
  EXPECT_FALSE(tiled(default_gpu_schedule(constant_matmul(4, 512, 256), kDesktop)));
  // Five columns, fewer than a tile's: the tile's regions would be clipped.
  PrimFunc narrow = constant_matmul(1000, 5, 64);
  EXPECT_FALSE(tiled(default_gpu_schedule(narrow, kDesktop)));
  EXPECT_FALSE(tiled(default_gpu_schedule(narrow, kMobile)));
  // A row sum times a vector is a reduction, but not a matmul (no column of B).
  PrimFunc weighted = parse_func(R"(
        A = T.match_buffer(var_A, (256, 256))
        B = T.match_buffer(var_B, (256,))
        C = T.match_buffer(var_C, (256,))
        for i, r in T.grid(256, 256):
            with T.block("C"):
                vi, vk = T.axis.remap("SR", [i, r])
                with T.init():
                    C[vi] = T.float32(0)
                C[vi] = C[vi] + A[vi, vk] * B[vk]
)",
                                 kSignature);
  EXPECT_FALSE(tiled(default_gpu_schedule(weighted, kDesktop)));
  // A max-reduction of products is not a matmul.
  PrimFunc max_product = parse_func(R"(
        A = T.match_buffer(var_A, (256, 256))
        B = T.match_buffer(var_B, (256, 256))
        C = T.match_buffer(var_C, (256, 256))
        for i, j, r in T.grid(256, 256, 256):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = T.max(C[vi, vj], A[vi, vk] * B[vk, vj])
)",
                                    kSignature);
  EXPECT_FALSE(tiled(default_gpu_schedule(max_product, kDesktop)));
}

// Split-K of a plain matmul: 2 parts of k = 20 (10 each: a k tail per part), tails in
// rows and columns. (A symbolic k is never split: its parts could not be proved equal.)
TEST(GpuRuleMatmul, SplitKGivesTheSameResults) {
  PrimFunc f = constant_matmul(9, 11, 20);
  std::optional<MatmulMatch> m = match_matmul(f);
  ASSERT_TRUE(m.has_value());
  MatmulTiles tiles = kSmallTiles;
  tiles.split_k = 2;
  PrimFunc scheduled = schedule_matmul(f, *m, tiles);
  testing::expect_same_results(f, scheduled, {{9, 20}, {20, 11}, {9, 11}}, kSeed);
  // The second kernel reads each output's 2 partials and writes the output once: its sum
  // accumulates in a register.
  FuncCounts counts = count_lowered(lower_to_kernels(scheduled, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 2u);
  EXPECT_TRUE(is_const_int(counts.launches[1].bytes_read, 2 * 9 * 11 * 4))
      << text::print_node(counts.launches[1].bytes_read);
  EXPECT_TRUE(is_const_int(counts.launches[1].bytes_written, 9 * 11 * 4))
      << text::print_node(counts.launches[1].bytes_written);
}

// The tile follows the output: 128 x 128 (16 x 16 threads) where that leaves 64 thread
// blocks, 64 x 64 (8 x 8) where it would leave fewer, 64 x 32 (4 x 8), 32 x 64 or
// 16 x 128 where a constant extent undercuts both square tiles.

TEST(GpuRuleMatmul, TileFollowsTheOutput) {
  auto block = [](const PrimFunc& f) {
    FuncCounts counts =
        count_lowered(lower_to_kernels(default_gpu_schedule(f, kDesktop), "f", kDesktop));
    EXPECT_EQ(counts.launches.size(), 1u);
    return counts.launches.empty() ? std::array<int64_t, 3>{} : counts.launches[0].block;
  };
  EXPECT_EQ(block(constant_matmul(1024, 1024, 64)), (std::array<int64_t, 3>{16, 16, 1}));
  EXPECT_EQ(block(constant_matmul(256, 3136, 64)), (std::array<int64_t, 3>{8, 8, 1}));
  EXPECT_EQ(block(constant_matmul(512, 49, 64)), (std::array<int64_t, 3>{4, 8, 1}));
  EXPECT_EQ(block(constant_matmul(49, 512, 64)), (std::array<int64_t, 3>{8, 4, 1}));
  // 24 rows (a convolution's output channels): 16 x 128 (16 x 2).
  EXPECT_EQ(block(constant_matmul(24, 3136, 64)), (std::array<int64_t, 3>{16, 2, 1}));
  // 8 columns: 128 x 8 (1 x 32).
  EXPECT_EQ(block(constant_matmul(1024, 8, 64)), (std::array<int64_t, 3>{1, 32, 1}));
}

// --- The GEMV rule.

// Whether the reduction of `f` is split over threads (a loop bound to threadIdx feeds a
// reduction iteration variable): the GEMV rule's cross-thread reduction.
bool cross_thread(const PrimFunc& f, const std::string& block) {
  schedule_internal::StmtPath path = schedule_internal::find_block_path(f->body, block);
  for (const Stmt& st : path) {
    const auto* loop = st.as<ForNode>();
    if (loop != nullptr && loop->thread_tag.rfind("threadIdx", 0) == 0 &&
        schedule_internal::loop_iter_use(For(loop)).reduce) {
      return true;
    }
  }
  return false;
}

TEST(GpuRuleGemv, ColumnContiguousWeight) {
  PrimFunc f = parse_func(R"(
        n = T.int64()
        A = T.match_buffer(var_A, (2, 100))
        B = T.match_buffer(var_B, (100, n))
        C = T.match_buffer(var_C, (2, n))
        for i, j, r in T.grid(2, n, 100):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)",
                          kSignature);
  for (const Target& target : {kMobile, kDesktop}) {
    PrimFunc g = default_gpu_schedule(f, target);
    EXPECT_FALSE(tiled(g));
    EXPECT_TRUE(cross_thread(g, "C")) << text::print_node(g);
    testing::expect_same_results(f, g, {{2, 100}, {100, 40}, {2, 40}}, kSeed);
  }
}

TEST(GpuRuleGemv, KContiguousWeightWithEpilogue) {
  PrimFunc f = parse_func(R"(
        n = T.int64()
        X = T.match_buffer(var_A, (3, 300))
        W = T.match_buffer(var_B, (n, 300))
        bias = T.match_buffer(var_bias, (n,))
        D = T.match_buffer(var_D, (3, n))
        Y = T.alloc_buffer((3, n))
        for i, j, r in T.grid(3, n, 300):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vj, vk]
        for i, j in T.grid(3, n):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Y[vi, vj] + bias[vj], T.float32(0))
)",
                          kBiasSignature);
  PrimFunc g = default_gpu_schedule(f, kDesktop);
  EXPECT_TRUE(cross_thread(g, "Y")) << text::print_node(g);
  testing::expect_same_results(f, g, {{3, 300}, {5, 300}, {5}, {3, 5}}, kSeed);
  // One kernel: the reduction's result waits in shared memory for the epilogue.
  for (const Target& target : {kMobile, cuda_target(90)}) {
    LoweredFunc lowered = lower_to_kernels(g, "f", target);
    EXPECT_EQ(lowered.launches.size(), 1u);
    EXPECT_TRUE(lowered.workspaces.empty());
  }
}

// x @ W + bias, relu, over a 1024 x 96 W: 3 tiles of 32 columns would be 3 thread
// blocks, so k splits over blocks too: 16 slices of 64 (8 per block of 32 x 8 threads on
// the desktop profile, 4 of 32 x 4 on the mobile one), then a kernel sums the slices of
// each output and runs the epilogue.
TEST(GpuRuleGemv, FewColumnsSplitKOverThreadBlocks) {
  PrimFunc f = parse_func(R"(
        X = T.match_buffer(var_A, (1, 1024))
        W = T.match_buffer(var_B, (1024, 96))
        bias = T.match_buffer(var_bias, (96,))
        D = T.match_buffer(var_D, (1, 96))
        Y = T.alloc_buffer((1, 96))
        for i, j, r in T.grid(1, 96, 1024):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vk, vj]
        for i, j in T.grid(1, 96):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Y[vi, vj] + bias[vj], T.float32(0))
)",
                          kBiasSignature);
  for (const auto& [target, y] : {std::pair{kDesktop, 8}, std::pair{kMobile, 4}}) {
    PrimFunc g = default_gpu_schedule(f, target);
    EXPECT_FALSE(tiled(g));
    // 1024 products summed in 16 slices: float32 rounds otherwise.
    testing::expect_same_results(f, g, {{1, 1024}, {1024, 96}, {96}, {1, 96}}, kSeed, 1e-4);
    LoweredFunc lowered = lower_to_kernels(g, "f", target);
    EXPECT_EQ(lowered.workspaces.size(), 1u);  // the slices' sums
    FuncCounts counts = count_lowered(lowered);
    ASSERT_EQ(counts.launches.size(), 2u) << text::print_node(g);
    const LaunchCounts& slices = counts.launches[0];
    EXPECT_EQ(slices.block, (std::array<int64_t, 3>{32, y, 1}));
    PrimExpr blocks = arith::Analyzer().simplify(slices.grid[0]);
    EXPECT_TRUE(is_const_int(blocks, 3 * 16 / y)) << text::print_node(blocks);
    // W read once, x once per column (a warp reads the same element: one transaction),
    // each thread's sum written once.
    EXPECT_TRUE(is_const_int(slices.bytes_read, (1024 * 96 + 96 * 1024) * 4))
        << text::print_node(slices.bytes_read);
    EXPECT_TRUE(is_const_int(slices.bytes_written, 16 * 96 * 4))
        << text::print_node(slices.bytes_written);
    // The sums read each output's 16 slices and its bias, and write the output once.
    const LaunchCounts& sum = counts.launches[1];
    EXPECT_TRUE(is_const_int(sum.bytes_read, (16 * 96 + 96) * 4))
        << text::print_node(sum.bytes_read);
    EXPECT_TRUE(is_const_int(sum.bytes_written, 96 * 4)) << text::print_node(sum.bytes_written);
  }
}

// A classifier over a symbolic batch (x @ W^T + bias, relu): the rows are symbolic, so
// the schedule is specialized by shape, the GEMV for at most 4 rows and the matmul
// rule's tiles for more, the two launched under conditions that the host evaluates.
TEST(GpuRuleGemv, SymbolicRowsSpecializeByShape) {
  PrimFunc f = parse_func(R"(
        m = T.int64()
        X = T.match_buffer(var_A, (m, 64))
        W = T.match_buffer(var_B, (64, 64))
        bias = T.match_buffer(var_bias, (64,))
        D = T.match_buffer(var_D, (m, 64))
        Y = T.alloc_buffer((m, 64))
        for i, j, r in T.grid(m, 64, 64):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vj, vk]
        for i, j in T.grid(m, 64):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Y[vi, vj] + bias[vj], T.float32(0))
)",
                          kBiasSignature);
  PrimFunc g = default_gpu_schedule(f, kMobile);
  const BlockNode* root = schedule_internal::root_block(g);
  ASSERT_NE(root, nullptr);
  ASSERT_NE(root->body.as<IfThenElseNode>(), nullptr) << text::print_node(g);
  // Each side of the bound (the launch conditions below pin the bound itself).
  for (int64_t m : {1, 5}) {
    testing::expect_same_results(f, g, {{m, 64}, {64, 64}, {64}, {m, 64}}, kSeed);
  }
  LoweredFunc lowered = lower_to_kernels(g, "f", kMobile);
  FuncCounts counts = count_lowered(lowered);
  ASSERT_GE(counts.launches.size(), 2u);
  arith::Analyzer analyzer;
  auto at = [&](const PrimExpr& e, int64_t m) {
    PrimExpr value = analyzer.simplify(
        substitute(e, [&](const Var&) -> PrimExpr { return int_imm(DataType::Int(64), m); }));
    const int64_t* c = as_const_int(value);
    return c != nullptr ? *c : -1;
  };
  // The first launch is the GEMV's, for m <= 4: one thread block per output; the tiles'
  // launches run from m = 5 on.
  const LaunchCounts& gemv = counts.launches[0];
  ASSERT_TRUE(gemv.condition.defined());
  for (int64_t m : {1, 4, 5}) {
    EXPECT_EQ(at(gemv.condition, m), m <= 4 ? 1 : 0) << "m = " << m;
    EXPECT_EQ(at(gemv.grid[0], m), m * 64) << "m = " << m;
    EXPECT_GE(at(gemv.flops, m), 2 * m * 64 * 64) << "m = " << m;
  }
  for (size_t k = 1; k < counts.launches.size(); ++k) {
    const LaunchCounts& tiles = counts.launches[k];
    ASSERT_TRUE(tiles.condition.defined());
    for (int64_t m : {1, 4, 5, 9}) EXPECT_EQ(at(tiles.condition, m), m <= 4 ? 0 : 1) << "m = " << m;
  }
  // A constant number of rows is never specialized.
  PrimFunc constant = default_gpu_schedule(constant_matmul(3, 64, 64), kMobile);
  const BlockNode* constant_root = schedule_internal::root_block(constant);
  ASSERT_NE(constant_root, nullptr);
  EXPECT_EQ(constant_root->body.as<IfThenElseNode>(), nullptr);
}

// --- What the lowered kernel does per iteration of its k loop.

struct KLoopCounts {
  int64_t fmas = 0, shared_loads = 0, global_loads = 0;  // elements, per thread
  int64_t zero_fills = 0;  // constants stored into "local" buffers (an accumulator's init)
};

// Counts, in the innermost loop of `kernel` that holds a barrier (the k loop: each
// iteration loads the tiles, waits, computes), the float multiply-adds into "local"
// buffers and the elements loaded from shared and global memory, each weighted by the
// constant extents of the loops around it inside the k loop.
class KLoopCounter final : public Visitor {
 public:
  KLoopCounts counts;

 private:
  void visit_node(const ForNode* node) override {
    const int64_t* extent = as_const_int(node->extent);
    int64_t saved = weight_;
    weight_ *= extent != nullptr ? *extent : 1;
    Visitor::visit_node(node);
    weight_ = saved;
  }
  void visit_node(const BufferLoadNode* node) override {
    if (node->buffer->scope == "shared") counts.shared_loads += weight_;
    if (node->buffer->scope == "global") counts.global_loads += weight_;
    Visitor::visit_node(node);
  }
  void visit_node(const BufferStoreNode* node) override {
    const auto* add = node->value.as<AddNode>();
    if (node->buffer->scope == "local" && add != nullptr && add->b.as<MulNode>() != nullptr) {
      counts.fmas += weight_;
    }
    if (node->buffer->scope == "local" &&
        (node->value.as<FloatImmNode>() != nullptr || node->value.as<IntImmNode>() != nullptr)) {
      counts.zero_fills += weight_;
    }
    Visitor::visit_node(node);
  }
  int64_t weight_ = 1;
};

KLoopCounts count_k_loop(const PrimFunc& kernel) {
  const ForNode* k_loop = nullptr;
  post_order_visit(kernel->body, [&](const Ref<Object>& node) {
    const auto* loop = node.as<ForNode>();
    if (loop == nullptr || loop->kind == ForKind::ThreadBinding) return;
    bool barrier = false;
    post_order_visit(loop->body, [&](const Ref<Object>& n) {
      const auto* call = n.as<CallNode>();
      barrier = barrier || (call != nullptr && call->op == "tir.tvm_storage_sync");
    });
    // Post order: the innermost comes first (a grid-stride loop may hold the k loop).
    if (barrier && k_loop == nullptr) k_loop = loop;
  });
  KLoopCounter counter;
  if (k_loop != nullptr) counter.visit(k_loop->body);
  return counter.counts;
}

TEST(GpuRuleMatmul, KLoopReusesSharedAndGlobalLoads) {
  PrimFunc f = parse_func(kMatmul, kSignature);
  for (const Target& target : {kMobile, cuda_target(80)}) {
    SCOPED_TRACE(target.str());
    LoweredFunc lowered = lower_to_kernels(matmul_rule_schedule(f, target), "f", target);
    ASSERT_EQ(lowered.launches.size(), 1u);
    KLoopCounts counts = count_k_loop(lowered.launches[0].kernel.func);
    std::cout << target.str() << ": per thread and k-loop iteration, " << counts.fmas << " FMAs, "
              << counts.shared_loads << " shared loads, " << counts.global_loads
              << " global loads\n";
    ASSERT_GT(counts.fmas, 0);
    EXPECT_GE(counts.fmas, 4 * counts.shared_loads);
    EXPECT_LE(32 * counts.global_loads, counts.fmas);
    // The accumulators start at zero before the k loop, not under a test in it.
    EXPECT_EQ(counts.zero_fills, 0);
  }
}

// The register buffers that prefetch-tile-copies gives a kernel's tile copies.
int prefetch_buffers(const PrimFunc& kernel) {
  int count = 0;
  post_order_visit(kernel->body, [&](const Ref<Object>& node) {
    const auto* alloc = node.as<AllocateNode>();
    bool next = alloc != nullptr && alloc->buffer->name.size() > 5 &&
                alloc->buffer->name.compare(alloc->buffer->name.size() - 5, 5, "_next") == 0;
    count += next ? 1 : 0;
  });
  return count;
}

// A thread's share of each tile copy is 4 consecutive elements of a row (a float4 of
// A's row of 8 k, or of B's row of 128 columns): with the tile's rows of 8, its offset is
// 4 * floormod(threadIdx.x, 2) + lane, which the simplifier proves contiguous, so every
// global load of the tiles is 128 bits wide (SGEMM 4096 on an H200: 5.1 ms with scalar
// loads, 4.0 ms with these).
TEST(GpuRuleMatmul, TileCopiesLoad128BitsAtATime) {
  PrimFunc f = constant_matmul(2048, 2048, 512);  // 256 thread blocks: no split-K
  Target target = cuda_target(90);
  LoweredFunc lowered = lower_to_kernels(matmul_rule_schedule(f, target), "f", target);
  ASSERT_EQ(lowered.launches.size(), 1u);
  std::string ptx = codegen::codegen_ptx(lowered.launches[0].kernel, target).ptx;
  std::regex global_load(R"(ld\.global(\.nc)?(\.v[24])?\.f32)");
  int wide = 0, other = 0;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), global_load);
       it != std::sregex_iterator(); ++it) {
    ((*it)[2] == ".v4" ? wide : other) += 1;
  }
  EXPECT_GT(wide, 0) << ptx;
  EXPECT_EQ(other, 0) << ptx;
  // The square tile's copies are prefetched: a register buffer for each.
  EXPECT_EQ(prefetch_buffers(lowered.launches[0].kernel.func), 2);
}

// ptxas -v on `kernel` for sm_`arch` (where the CUDA toolkit is installed): it assembles
// and spills nothing.
void expect_no_spills(const DeviceKernel& kernel, const Target& target, int arch) {
  std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) return;
  std::string ptx = codegen::codegen_ptx(kernel, target).ptx;
  testing::PtxasResult result = testing::run_ptxas(ptxas, ptx, arch, /*verbose=*/true);
  ASSERT_TRUE(result.ok) << result.messages;
  EXPECT_NE(result.messages.find("0 bytes spill stores, 0 bytes spill loads"), std::string::npos)
      << kernel.name << " for sm_" << arch << ":\n"
      << result.messages;
}

TEST(GpuRuleMatmul, PtxAssemblesWithoutSpills) {
  std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas is not installed (CUDA toolkit)";
  PrimFunc f = parse_func(kMatmul, kSignature);
  PrimFunc epilogue = parse_func(kMatmulBiasRelu, kBiasSignature);
  for (int arch : {80, 90}) {
    Target target = cuda_target(arch);
    // Symbolic rows: the GEMV's launch and the tiles' launch, both free of spills.
    for (const PrimFunc& func : {f, epilogue}) {
      LoweredFunc lowered = lower_to_kernels(default_gpu_schedule(func, target), "f", target);
      ASSERT_EQ(lowered.launches.size(), 2u);
      for (const KernelLaunch& launch : lowered.launches) {
        expect_no_spills(launch.kernel, target, arch);
      }
    }
  }
}

// Attention's P @ V over heads of 8 columns: (4, m, k) @ (4, k, 8), m and k symbolic.
// The generic schedule gave each output a thread block that read its row of P and its
// column of V; the 128 x 8 tile reads P once.
TEST(GpuRuleMatmul, EightColumnsTakeNarrowTilesThatReadARowOnce) {
  PrimFunc f = parse_func(R"(
        m = T.int64()
        k = T.int64()
        A = T.match_buffer(var_A, (4, m, k))
        B = T.match_buffer(var_B, (4, k, 8))
        C = T.match_buffer(var_C, (4, m, 8))
        for b, i, j, r in T.grid(4, m, 8, k):
            with T.block("C"):
                vb, vi, vj, vk = T.axis.remap("SSSR", [b, i, j, r])
                with T.init():
                    C[vb, vi, vj] = T.float32(0)
                C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]
)",
                          kSignature);
  for (const Target& target : {kMobile, kDesktop, cuda_target(80)}) {
    EXPECT_TRUE(tiled(default_gpu_schedule(f, target))) << target.str();
  }
  PrimFunc g = matmul_rule_schedule(f, kDesktop);
  testing::expect_same_results(f, g, {{4, 130, 20}, {4, 20, 8}, {4, 130, 8}}, kSeed);
  FuncCounts counts = count_lowered(lower_to_kernels(g, "f", kDesktop));
  ASSERT_EQ(counts.launches.size(), 1u);
  const LaunchCounts& launch = counts.launches[0];
  EXPECT_EQ(launch.block, (std::array<int64_t, 3>{1, 32, 1}));
  // A thread of the narrow tile copies 34 elements a k step: not prefetched.
  EXPECT_EQ(prefetch_buffers(lower_to_kernels(g, "f", kDesktop).launches[0].kernel.func), 0);
  // Hand count at m = k = 256: each batch's A once, its B once per 128 rows, C once.
  arith::Analyzer analyzer;
  auto at = [&](const PrimExpr& e) {
    PrimExpr value = analyzer.simplify(
        substitute(e, [&](const Var&) -> PrimExpr { return int_imm(DataType::Int(64), 256); }));
    const int64_t* bytes = as_const_int(value);
    return bytes != nullptr ? *bytes : -1;
  };
  EXPECT_EQ(at(launch.bytes_read), 4 * 256 * 256 * 4 + 4 * 2 * 256 * 8 * 4);
  EXPECT_EQ(at(launch.bytes_written), 4 * 256 * 8 * 4);
  for (int arch : {80, 90}) {
    Target target = cuda_target(arch);
    for (const KernelLaunch& l :
         lower_to_kernels(matmul_rule_schedule(f, target), "f", target).launches) {
      expect_no_spills(l.kernel, target, arch);
    }
  }
}

// --- The convolution rule (implicit GEMM).

// conv2d (3x3, padding 1) of n x 5 x h x w into 12 channels, + bias, relu, as fusion
// writes it (LegalizeOps' guarded read through the padding).
const std::string kConvSignature =
    "var_X: T.handle, var_W: T.handle, var_bias: T.handle, var_D: T.handle";
const std::string kConvBiasRelu = R"(
        n = T.int64()
        h = T.int64()
        w = T.int64()
        X = T.match_buffer(var_X, (n, T.int64(5), h, w))
        W = T.match_buffer(var_W, (T.int64(12), T.int64(5), T.int64(3), T.int64(3)))
        bias = T.match_buffer(var_bias, (T.int64(1), T.int64(12), T.int64(1), T.int64(1)))
        D = T.match_buffer(var_D, (n, T.int64(12), h, w))
        C = T.alloc_buffer((n, T.int64(12), h, w))
        for b, o, y, x, rc, ry, rx in T.grid(n, T.int64(12), h, w, T.int64(5), T.int64(3), T.int64(3)):
            with T.block("conv"):
                vb, vo, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, o, y, x, rc, ry, rx])
                with T.init():
                    C[vb, vo, vy, vx] = T.float32(0)
                C[vb, vo, vy, vx] = C[vb, vo, vy, vx] + T.if_then_else(vy + vry - T.int64(1) >= T.int64(0) and vy + vry - T.int64(1) < h and vx + vrx - T.int64(1) >= T.int64(0) and vx + vrx - T.int64(1) < w, X[vb, vc, vy + vry - T.int64(1), vx + vrx - T.int64(1)], T.float32(0)) * W[vo, vc, vry, vrx]
        for b, o, y, x in T.grid(n, T.int64(12), h, w):
            with T.block("D"):
                vb, vo, vy, vx = T.axis.remap("SSSS", [b, o, y, x])
                D[vb, vo, vy, vx] = T.max(C[vb, vo, vy, vx] + bias[T.int64(0), vo, T.int64(0), T.int64(0)], T.float32(0))
)";

// `f` rewritten as an implicit GEMM and scheduled with kSmallTiles.
PrimFunc schedule_conv_small(const PrimFunc& f) {
  std::optional<ConvGemm> conv = conv_as_matmul(f);
  EXPECT_TRUE(conv.has_value()) << text::print_node(f);
  return conv ? schedule_conv_gemm(*conv, kSmallTiles) : f;
}

TEST(GpuRuleConv, PaddedConvolutionWithEpilogue) {
  PrimFunc f = parse_func(kConvBiasRelu, kConvSignature);
  PrimFunc g = schedule_conv_small(f);
  // 12 channels, 45 = 5 * 3 * 3 reduction steps and 35 pixels: tails in every tile.
  testing::expect_same_results(f, g, {{2, 5, 5, 7}, {12, 5, 3, 3}, {1, 12, 1, 1}, {2, 12, 5, 7}},
                               kSeed);
  // The operand matrices are never stored: their definitions are inlined into the copies.
  for (const BlockRealize& r : schedule_internal::blocks_under(g->body)) {
    for (const Buffer& b : r->block->alloc_buffers) {
      EXPECT_TRUE(b->scope != "global") << b->name << " is in global memory";
    }
  }
  for (const Target& target : {kMobile, kDesktop, cuda_target(80)}) {
    EXPECT_TRUE(tiled(default_gpu_schedule(f, target))) << target.str();
  }
}

TEST(GpuRuleConv, StridedDilatedConvolutionWithoutEpilogue) {
  // Stride 2, dilation 2, no padding: 11 x 13 -> 4 x 5; 9 channels, 27 reduction steps.
  PrimFunc f = parse_func(R"(
        X = T.match_buffer(var_X, (1, 3, 11, 13))
        W = T.match_buffer(var_W, (9, 3, 3, 3))
        C = T.match_buffer(var_C, (1, 9, 4, 5))
        for b, o, y, x, rc, ry, rx in T.grid(1, 9, 4, 5, 3, 3, 3):
            with T.block("conv"):
                vb, vo, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, o, y, x, rc, ry, rx])
                with T.init():
                    C[vb, vo, vy, vx] = T.float32(0)
                C[vb, vo, vy, vx] = C[vb, vo, vy, vx] + X[vb, vc, vy * 2 + vry * 2, vx * 2 + vrx * 2] * W[vo, vc, vry, vrx]
)",
                          "var_X: T.handle, var_W: T.handle, var_C: T.handle");
  testing::expect_same_results(f, schedule_conv_small(f),
                               {{1, 3, 11, 13}, {9, 3, 3, 3}, {1, 9, 4, 5}}, kSeed);
}

TEST(GpuRuleConv, DeclinesWhatIsNotAnImplicitGemm) {
  // Depthwise: the input read depends on the output channel.
  PrimFunc depthwise = parse_func(R"(
        X = T.match_buffer(var_X, (1, 64, 32, 32))
        W = T.match_buffer(var_W, (64, 1, 3, 3))
        C = T.match_buffer(var_C, (1, 64, 30, 30))
        for b, o, y, x, rc, ry, rx in T.grid(1, 64, 30, 30, 1, 3, 3):
            with T.block("conv"):
                vb, vo, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, o, y, x, rc, ry, rx])
                with T.init():
                    C[vb, vo, vy, vx] = T.float32(0)
                C[vb, vo, vy, vx] = C[vb, vo, vy, vx] + X[vb, vo + vc, vy + vry, vx + vrx] * W[vo, vc, vry, vrx]
)",
                                  "var_X: T.handle, var_W: T.handle, var_C: T.handle");
  // NHWC with HWIO weights: the output channel is last, the weights are not [oc, r..].
  PrimFunc nhwc = parse_func(R"(
        X = T.match_buffer(var_X, (1, 32, 32, 64))
        W = T.match_buffer(var_W, (3, 3, 64, 64))
        C = T.match_buffer(var_C, (1, 30, 30, 64))
        for b, y, x, o, ry, rx, rc in T.grid(1, 30, 30, 64, 3, 3, 64):
            with T.block("conv"):
                vb, vy, vx, vo, vry, vrx, vc = T.axis.remap("SSSSRRR", [b, y, x, o, ry, rx, rc])
                with T.init():
                    C[vb, vy, vx, vo] = T.float32(0)
                C[vb, vy, vx, vo] = C[vb, vy, vx, vo] + X[vb, vy + vry, vx + vrx, vc] * W[vry, vrx, vc, vo]
)",
                             "var_X: T.handle, var_W: T.handle, var_C: T.handle");
  for (const PrimFunc& f : {depthwise, nhwc}) {
    EXPECT_FALSE(conv_as_matmul(f).has_value()) << text::print_node(f);
  }
  // A matmul is the matmul rule's.
  EXPECT_FALSE(conv_as_matmul(parse_func(kMatmul, kSignature)).has_value());
}

// A ResNet layer: 64 -> 64 channels, 3x3, padding 1, 56 x 56, + bias, relu, at batch
// `batch` (a number, or "n" for a symbolic batch).
PrimFunc resnet_layer(const std::string& batch) {
  std::string body = kConvBiasRelu.substr(kConvBiasRelu.find("        X ="));  // constant
  const std::string image = batch + ", 64, 56, 56";
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"n, T.int64(5), h, w", image},
                                 {"n, T.int64(12), h, w", image},
                                 {"T.int64(12), T.int64(5)", "64, 64"},
                                 {"T.int64(5), T.int64(3)", "64, T.int64(3)"},
                                 {"T.int64(12)", "64"},
                                 {"T.int64(", "("},
                                 {" < h ", " < 56 "},
                                 {" < w,", " < 56,"}}) {
    std::string pattern = std::regex_replace(from, std::regex(R"([()])"), R"(\$&)");
    body = std::regex_replace(body, std::regex(pattern), to);
  }
  if (batch == "n") body = "        n = T.int64()\n" + body;
  return parse_func(body, kConvSignature);
}

TEST(GpuRuleConv, KLoopReusesSharedAndGlobalLoads) {
  PrimFunc f = resnet_layer("16");
  for (const Target& target : {kMobile, cuda_target(80)}) {
    SCOPED_TRACE(target.str());
    LoweredFunc lowered = lower_to_kernels(default_gpu_schedule(f, target), "f", target);
    ASSERT_EQ(lowered.launches.size(), 1u);
    KLoopCounts counts = count_k_loop(lowered.launches[0].kernel.func);
    ASSERT_GT(counts.fmas, 0);
    EXPECT_GE(counts.fmas, 4 * counts.shared_loads);
    EXPECT_LE(32 * counts.global_loads, counts.fmas);
    // The accumulators start at zero before the k loop, not under a test in it.
    EXPECT_EQ(counts.zero_fills, 0);
  }
}

TEST(GpuRuleConv, GlobalTrafficIsTheTilesOnce) {
  // Batch 16, 64 x 64 tiles (64 channels < 128): 16 x 1 x 49 thread blocks (3136 pixels),
  // enough not to split k; each reads in each of its 72 k steps (576 = 64 * 3 * 3) a 64 x 8
  // tile of the weights and an 8 x 64 tile of input patches; each of its 64 threads then
  // reads the bias of its 8 channels into registers, and writes each of its outputs once.
  // Float32. (With the tiles prefetched, the count of the padding's guarded loads came
  // 35648 bytes nearer the true traffic.)
  FuncCounts counts = count_lowered(lower_to_kernels(
      default_gpu_schedule(resnet_layer("16"), cuda_target(80)), "f", cuda_target(80)));
  ASSERT_EQ(counts.launches.size(), 1u);
  const LaunchCounts& launch = counts.launches[0];
  const int64_t outputs = 16 * 64 * 56 * 56;
  // The padding's loads are guarded, which the count bounds from above: at most the
  // tiles and the bias once, at least the weights' tiles, the patches' elements inside
  // the image (each channel's 3 x 3 shifts keep 55, 56 and 55 of 56 rows and columns:
  // 166^2 elements) and the bias.
  const int64_t* read = as_const_int(launch.bytes_read);
  ASSERT_NE(read, nullptr) << text::print_node(launch.bytes_read);
  EXPECT_TRUE(launch.upper_bound);
  EXPECT_LE(*read, 16 * 49 * 72 * (64 * 8 + 8 * 64) * 4 + 16 * 49 * 64 * 8 * 4);
  EXPECT_GE(*read, 16 * 49 * 72 * (64 * 8) * 4 + 16 * 64 * 166 * 166 * 4 + 16 * 49 * 64 * 8 * 4);
  EXPECT_TRUE(is_const_int(launch.bytes_written, outputs * 4))
      << text::print_node(launch.bytes_written);
  // 2 FLOPs per multiply-add, then the bias and the relu per output.
  EXPECT_TRUE(is_const_int(launch.flops, 2 * int64_t{outputs} * 576 + 2 * outputs))
      << text::print_node(launch.flops);
}

// At batch 1 the same layer has 49 thread blocks of 2 warps: split-K makes it 6 x 49 (up
// to 528 warps), each summing 96 of the 576 products (12 k steps), into partial results
// that a second kernel sums with the epilogue: one thread per output, 128 to a block.
TEST(GpuRuleConv, SplitKFillsTheGpuAtBatchOne) {
  const Target target = cuda_target(80);
  LoweredFunc lowered =
      lower_to_kernels(default_gpu_schedule(resnet_layer("1"), target), "f", target);
  FuncCounts counts = count_lowered(lowered);
  ASSERT_EQ(counts.launches.size(), 2u);
  const int64_t outputs = 64 * 56 * 56;
  const LaunchCounts& tiles = counts.launches[0];
  EXPECT_TRUE(is_const_int(tiles.bytes_read, 6 * 49 * 12 * (64 * 8 + 8 * 64) * 4))
      << text::print_node(tiles.bytes_read);
  EXPECT_TRUE(is_const_int(tiles.bytes_written, 6 * outputs * 4))
      << text::print_node(tiles.bytes_written);
  EXPECT_TRUE(is_const_int(tiles.flops, 2 * int64_t{outputs} * 576))
      << text::print_node(tiles.flops);
  // The sum reads the 6 partials and the bias per output, and writes the output once.
  const LaunchCounts& sum = counts.launches[1];
  EXPECT_TRUE(is_const_int(sum.bytes_read, 6 * outputs * 4 + outputs * 4))
      << text::print_node(sum.bytes_read);
  EXPECT_TRUE(is_const_int(sum.bytes_written, outputs * 4)) << text::print_node(sum.bytes_written);
  KLoopCounts k_loop = count_k_loop(lowered.launches[0].kernel.func);
  EXPECT_GE(k_loop.fmas, 4 * k_loop.shared_loads);
  EXPECT_LE(32 * k_loop.global_loads, k_loop.fmas);
}

// Over a symbolic batch the blocks are counted at batch 1, but each part keeps at least
// 256 of the products: 2 parts of 288, 2 x 49 thread blocks per image.
TEST(GpuRuleConv, SplitKOverASymbolicBatchKeepsPartsDeep) {
  const Target target = cuda_target(80);
  FuncCounts counts =
      count_lowered(lower_to_kernels(default_gpu_schedule(resnet_layer("n"), target), "f", target));
  ASSERT_EQ(counts.launches.size(), 2u);
  const std::array<PrimExpr, 3>& grid = counts.launches[0].grid;
  arith::Analyzer analyzer;
  PrimExpr blocks = analyzer.simplify(substitute(
      grid[0] * grid[1] * grid[2], [](const Var&) { return int_imm(DataType::Int(64), 1); }));
  EXPECT_TRUE(is_const_int(blocks, 2 * 49)) << text::print_node(blocks);
}

// Split-K on the reference interpreter, with small tiles and tails: 3 parts of the 45
// reduction steps (15 each: a k tail per part), the epilogue after the sum.
TEST(GpuRuleConv, SplitKGivesTheSameResults) {
  PrimFunc f = parse_func(kConvBiasRelu, kConvSignature);
  std::optional<ConvGemm> conv = conv_as_matmul(f);
  ASSERT_TRUE(conv.has_value());
  MatmulTiles tiles = kSmallTiles;
  tiles.split_k = 3;
  testing::expect_same_results(f, schedule_conv_gemm(*conv, tiles),
                               {{2, 5, 5, 7}, {12, 5, 3, 3}, {1, 12, 1, 1}, {2, 12, 5, 7}}, kSeed);
}

// Stride 2 over a symbolic image: the output's extents are (h - 1) // 2 + 1, and the
// simplifier writes the launch's capped grid as min(65534, G - 1) + 1. The counts still
// see it and the blocks past its limit (on an overflow axis) as one grid: exact, each tile
// once (96 rows: 2 row tiles).
TEST(GpuRuleConv, CountsOverASymbolicStridedImage) {
  PrimFunc f = parse_func(R"(
        h = T.int64()
        w = T.int64()
        X = T.match_buffer(var_X, (T.int64(1), T.int64(8), h, w))
        W = T.match_buffer(var_W, (T.int64(96), T.int64(8), T.int64(1), T.int64(1)))
        C = T.match_buffer(var_C, (T.int64(1), T.int64(96), (h - T.int64(1)) // T.int64(2) + T.int64(1), (w - T.int64(1)) // T.int64(2) + T.int64(1)))
        for b, o, y, x, rc, ry, rx in T.grid(T.int64(1), T.int64(96), (h - T.int64(1)) // T.int64(2) + T.int64(1), (w - T.int64(1)) // T.int64(2) + T.int64(1), T.int64(8), T.int64(1), T.int64(1)):
            with T.block("conv"):
                vb, vo, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, o, y, x, rc, ry, rx])
                with T.init():
                    C[vb, vo, vy, vx] = T.float32(0)
                C[vb, vo, vy, vx] = C[vb, vo, vy, vx] + X[vb, vc, vy * T.int64(2) + vry, vx * T.int64(2) + vrx] * W[vo, vc, vry, vrx]
)",
                          "var_X: T.handle, var_W: T.handle, var_C: T.handle");
  Target target = vulkan_profile("desktop");
  FuncCounts counts = count_lowered(lower_to_kernels(default_gpu_schedule(f, target), "f", target));
  ASSERT_EQ(counts.launches.size(), 1u);
  const LaunchCounts& launch = counts.launches[0];
  ASSERT_TRUE(launch.bytes_read.defined() && launch.bytes_written.defined());
  // h = w = 63: 32 x 32 = 1024 pixels, 16 tiles of 64; one k step of 8; the second row
  // tile reads the 32 weight rows left.
  arith::Analyzer analyzer;
  auto at = [&](const PrimExpr& e) {
    PrimExpr value = analyzer.simplify(
        substitute(e, [&](const Var&) -> PrimExpr { return int_imm(DataType::Int(64), 63); }));
    const int64_t* bytes = as_const_int(value);
    return bytes != nullptr ? *bytes : -1;
  };
  EXPECT_EQ(at(launch.bytes_read), 16 * ((64 * 8 + 8 * 64) + (32 * 8 + 8 * 64)) * 4);
  EXPECT_EQ(at(launch.bytes_written), 96 * 1024 * 4);
}

TEST(GpuRuleConv, PtxAssemblesWithoutSpills) {
  std::string ptxas = testing::find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas is not installed (CUDA toolkit)";
  for (int arch : {80, 90}) {
    Target target = cuda_target(arch);
    LoweredFunc lowered =
        lower_to_kernels(default_gpu_schedule(resnet_layer("16"), target), "f", target);
    ASSERT_EQ(lowered.launches.size(), 1u);
    expect_no_spills(lowered.launches[0].kernel, target, arch);
  }
}

// A 1x1 convolution of `cin` to `cout` channels over `size` x `size` pixels, then a bias
// and relu6 (ONNX's Clip, its bounds scalar tensors), as fusion writes MobileNetV2's; the
// batch is 1, or symbolic (n) where `symbolic_batch`.
const std::string kPointwiseSignature =
    "var_X: T.handle, var_W: T.handle, var_bias: T.handle, "
    "lo: T.Buffer(()), hi: T.Buffer(()), var_D: T.handle";
PrimFunc pointwise_conv_relu6(int64_t cin, int64_t cout, int64_t size, bool symbolic_batch) {
  std::string batch = symbolic_batch ? "n" : "1";
  std::string image = std::to_string(size) + ", " + std::to_string(size);
  std::string out = "(" + batch + ", " + std::to_string(cout) + ", " + image + ")";
  std::string grid = "T.grid(" + batch + ", " + std::to_string(cout) + ", " + image;
  return parse_func(std::string(symbolic_batch ? "\n        n = T.int64()" : "") + R"(
        X = T.match_buffer(var_X, ()" +
                        batch + ", " + std::to_string(cin) + ", " + image + R"())
        W = T.match_buffer(var_W, ()" +
                        std::to_string(cout) + ", " + std::to_string(cin) + R"(, 1, 1))
        bias = T.match_buffer(var_bias, ()" +
                        std::to_string(cout) + R"(, 1, 1))
        D = T.match_buffer(var_D, )" +
                        out + R"()
        C = T.alloc_buffer()" +
                        out + R"()
        E = T.alloc_buffer()" +
                        out + R"()
        F = T.alloc_buffer()" +
                        out + R"()
        for b, o, y, x, rc, ry, rx in )" +
                        grid + ", " + std::to_string(cin) + R"(, 1, 1):
            with T.block("conv"):
                vb, vo, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, o, y, x, rc, ry, rx])
                with T.init():
                    C[vb, vo, vy, vx] = T.float32(0)
                C[vb, vo, vy, vx] = C[vb, vo, vy, vx] + X[vb, vc, vy + vry, vx + vrx] * W[vo, vc, vry, vrx]
        for b, o, y, x in )" +
                        grid + R"():
            with T.block("E"):
                vb, vo, vy, vx = T.axis.remap("SSSS", [b, o, y, x])
                E[vb, vo, vy, vx] = C[vb, vo, vy, vx] + bias[vo, 0, 0]
        for b, o, y, x in )" +
                        grid + R"():
            with T.block("F"):
                vb, vo, vy, vx = T.axis.remap("SSSS", [b, o, y, x])
                F[vb, vo, vy, vx] = T.max(E[vb, vo, vy, vx], lo[()])
        for b, o, y, x in )" +
                        grid + R"():
            with T.block("D"):
                vb, vo, vy, vx = T.axis.remap("SSSS", [b, o, y, x])
                D[vb, vo, vy, vx] = T.min(F[vb, vo, vy, vx], hi[()])
)",
                    kPointwiseSignature);
}

// MobileNetV2's first expansion: a 1x1 convolution from 16 to 96 channels over 112 x 112
// pixels with a bias and relu6. 96 is not a multiple of the 64-channel tile: the tiles are
// padded (pad_einsum) rather than guarded, and the epilogue is one loop over the register
// tile, so no value is held twice. (Guarded, it took 255 registers and spilled.)
TEST(GpuRuleConv, TailTilesArePaddedAndDoNotSpill) {
  PrimFunc f = pointwise_conv_relu6(16, 96, 112, /*symbolic_batch=*/false);
  for (int arch : {80, 90}) {
    const Target target = cuda_target(arch);
    LoweredFunc lowered = lower_to_kernels(default_gpu_schedule(f, target), "f", target);
    ASSERT_EQ(lowered.launches.size(), 1u);
    // The k loop: no guard, 4 FMAs per shared load.
    KLoopCounts counts = count_k_loop(lowered.launches[0].kernel.func);
    EXPECT_GE(counts.fmas, 4 * counts.shared_loads);
    // 2 x 196 thread blocks; each copies 2 k steps of a 64 x 8 weight tile, of which the
    // second row of blocks reads 32 rows, and an 8 x 64 pixel tile; each thread reads into
    // registers the bias of its 8 channels (none past the 96th: 96 x 196 x 8 values) and
    // the clip's two bounds.
    FuncCounts traffic = count_lowered(lowered);
    EXPECT_TRUE(is_const_int(
        traffic.launches[0].bytes_read,
        196 * 2 * ((64 + 32) * 8 + 2 * 8 * 64) * 4 + (96 * 196 * 8 + 392 * 64 * 2) * 4))
        << text::print_node(traffic.launches[0].bytes_read);
    expect_no_spills(lowered.launches[0].kernel, target, arch);
  }
}

// MobileNetV2's last 7 x 7 pointwise convolution (160 to 960 channels, bias, relu6) over
// its symbolic batch: 49 pixels undercut the square tiles, so a 64 x 32 tile of one warp, 8 x 8
// outputs per thread. ptxas capped such a block at 168 registers and spilled on sm_90; the kernel
// asks for one block per multiprocessor (.minnctapersm 1) and spills nothing.
TEST(GpuRuleConv, OneWarpTilesDoNotSpill) {
  PrimFunc f = pointwise_conv_relu6(160, 960, 7, /*symbolic_batch=*/true);
  for (int arch : {80, 90}) {
    const Target target = cuda_target(arch);
    LoweredFunc lowered = lower_to_kernels(default_gpu_schedule(f, target), "f", target);
    ASSERT_EQ(lowered.launches.size(), 1u);
    const DeviceKernel& kernel = lowered.launches[0].kernel;
    EXPECT_EQ(kernel.block_size[0] * kernel.block_size[1] * kernel.block_size[2], 32);
    KLoopCounts counts = count_k_loop(kernel.func);
    EXPECT_GE(counts.fmas, 4 * counts.shared_loads);
    expect_no_spills(kernel, target, arch);
  }
}

}  // namespace
}  // namespace relaxc::tir
