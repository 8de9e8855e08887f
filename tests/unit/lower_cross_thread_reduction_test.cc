// Tests of the cross-thread reductions of the kernel lowering per target: warp shuffles
// on CUDA (whole warps of one thread axis, or one whole block of at most a warp), the
// shared-memory tree on Vulkan and where shuffles do not fit.
#include <gtest/gtest.h>

#include <string>

#include "tests/unit/lower_to_kernels_checks.h"
#include "tests/unit/lower_to_kernels_inputs.h"

namespace relaxc {
namespace {

using namespace lowering_checks;  // NOLINT(google-build-using-namespace)

constexpr const char* kCuda = "cuda -arch=sm_90";

// The T.shuffle_down calls of a kernel, by their lane offsets.
std::vector<int64_t> shuffle_offsets(const tir::PrimFunc& f) {
  std::vector<int64_t> offsets;
  tir::post_order_visit(f->body, [&](const Ref<Object>& n) {
    const auto* call = n.as<tir::CallNode>();
    if (call == nullptr || call->op != "tir.shuffle_down") return;
    const int64_t* offset = tir::as_const_int(call->args.at(1));
    offsets.push_back(offset != nullptr ? *offset : -1);
  });
  return offsets;
}

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The row sum of 1000 over 256 threads (8 warps) for CUDA, as the algorithm of
// lower_cross_thread_reduction.cc writes it: each warp's sum in its lane 0 after 5
// shuffles, the 8 warp sums through shared memory, 3 more shuffles in the first warp.
constexpr const char* kExpectedRowSumCuda = R"(@I.ir_module
class Module:
    @T.prim_func
    def row_sum_kernel(var_A: T.handle, var_S: T.handle, n: T.int32):
        A = T.match_buffer(var_A, (n * 1000,))
        S = T.match_buffer(var_S, (n,))
        for b in T.thread_binding(n, thread="blockIdx.x"):
            for tx in T.thread_binding(256, thread="threadIdx.x"):
                S_shared = T.alloc_buffer((8,), scope="shared")
                S_partial = T.alloc_buffer((1,), scope="local")
                S_partial[0] = T.float32(0)
                for ko in range(4):
                    if ko * 256 + tx < 1000:
                        S_partial[0] = S_partial[0] + A[b * 1000 + (ko * 256 + tx)]
                S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 16)
                S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 8)
                S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 4)
                S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 2)
                S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 1)
                if tx % 32 == 0:
                    S_shared[tx // 32] = S_partial[0]
                T.tvm_storage_sync("shared")
                if tx < 32:
                    if tx < 8:
                        S_partial[0] = S_shared[tx]
                    else:
                        S_partial[0] = T.float32(0)
                    S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 4)
                    S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 2)
                    S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 1)
                if tx == 0:
                    S[b] = T.float32(0) + S_partial[0]
)";

TEST(WarpReduction, RowSumOnCudaUsesShuffles) {
  tir::LoweredFunc lowered = lower(tir_inputs::kRowSum, "row_sum", kCuda);
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::DeviceKernel& kernel = lowered.launches[0].kernel;
  const tir::PrimFunc& f = kernel.func;
  EXPECT_EQ(kernel.block_size, (std::array<int64_t, 3>{256, 1, 1}));
  // 5 shuffles within each warp, then 3 over the 8 warp sums.
  EXPECT_EQ(shuffle_offsets(f), (std::vector<int64_t>{16, 8, 4, 2, 1, 4, 2, 1}));
  auto allocs = allocations(f);
  EXPECT_EQ(allocs["S_shared"], (std::pair<std::string, int64_t>{"shared", 8}));
  EXPECT_EQ(allocs["S_partial"], (std::pair<std::string, int64_t>{"local", 1}));
  EXPECT_EQ(kernel.shared_memory_bytes, 8 * 4);
  // One barrier, between the warp sums' writes and their reads.
  EXPECT_EQ(count_barriers(f), 1);
  expect_barriers_well_placed(f);
  EXPECT_EQ(count_barriers(tir::insert_shared_barriers(f)), 1);
  expect_same(expected_kernel(kExpectedRowSumCuda, "row_sum_kernel"), f);
  expect_round_trip(kernel);
}

TEST(WarpReduction, VulkanKeepsTheSharedTree) {
  for (auto [source, name] : std::vector<std::pair<const char*, const char*>>{
           {tir_inputs::kRowSum, "row_sum"}, {tir_inputs::kSoftmax, "softmax"}}) {
    SCOPED_TRACE(name);
    tir::LoweredFunc lowered = lower(source, name, "vulkan");
    ASSERT_EQ(lowered.launches.size(), 1u);
    const tir::PrimFunc& f = lowered.launches[0].kernel.func;
    EXPECT_TRUE(shuffle_offsets(f).empty()) << text::print_node(f);
    // One slot per thread.
    int64_t threads = lowered.launches[0].kernel.block_size[0];
    for (const auto& [buffer, alloc] : allocations(f)) {
      if (buffer.size() > 7 && buffer.substr(buffer.size() - 7) == "_shared") {
        EXPECT_EQ(alloc.second, threads) << buffer;
      }
    }
  }
}

TEST(WarpReduction, SoftmaxOnCuda) {
  tir::LoweredFunc lowered = lower(tir_inputs::kSoftmax, "softmax", kCuda);
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::DeviceKernel& kernel = lowered.launches[0].kernel;
  const tir::PrimFunc& f = kernel.func;
  // 128 threads, 4 warps: 5 + 2 shuffles for the max, as many for the sum.
  EXPECT_EQ(shuffle_offsets(f), (std::vector<int64_t>{16, 8, 4, 2, 1, 2, 1, 16, 8, 4, 2, 1, 2, 1}));
  auto allocs = allocations(f);
  EXPECT_EQ(allocs["max_shared"], (std::pair<std::string, int64_t>{"shared", 4}));
  EXPECT_EQ(allocs["sum_shared"], (std::pair<std::string, int64_t>{"shared", 4}));
  EXPECT_EQ(kernel.shared_memory_bytes, (4 + 4 + 1 + 1) * 4);
  // Per reduction one barrier between the warp sums' writes and reads, and one after its
  // final write before the next region reads the row's max or sum.
  EXPECT_EQ(count_barriers(f), 2 + 2);
  expect_barriers_well_placed(f);
  EXPECT_EQ(count_barriers(tir::insert_shared_barriers(f)), 4);
  std::string text = text::print_node(f);
  // max: the identity of max fills the lanes past the 4 warps.
  EXPECT_TRUE(contains(text, "max_partial[0] = T.float32(-3.4028234663852886e+38)")) << text;
  EXPECT_TRUE(contains(text, "T.max(max_partial[0], T.shuffle_down(max_partial[0], 16))")) << text;
  expect_round_trip(kernel);
}

constexpr const char* kRowsPerIteration = R"(@I.ir_module
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

TEST(WarpReduction, InALoopTheNextWarpSumsWaitForTheReads) {
  tir::LoweredFunc lowered = lower(kRowsPerIteration, "rows", kCuda);
  ASSERT_EQ(lowered.launches.size(), 1u);
  const tir::PrimFunc& f = lowered.launches[0].kernel.func;
  const tir::ForNode* rows = find_loop(f, "i");
  ASSERT_NE(rows, nullptr) << text::print_node(f);
  // The partial sum (2 stores), 5 shuffles, the warp sums' writes, a barrier, the first
  // warp's shuffles, the final write, and a barrier before the next row's warp sums
  // overwrite what the first warp reads.
  EXPECT_EQ(outline(rows->body),
            "store, store, store, store, store, store, store, if, barrier, if, if, barrier");
  EXPECT_EQ(shuffle_offsets(f), (std::vector<int64_t>{16, 8, 4, 2, 1, 1}));
  expect_barriers_well_placed(f);
}

std::string one_block_sum(int threads, const std::string& dtype = "float32") {
  std::string t = std::to_string(threads);
  return R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8, )" +
         t + R"(), ")" + dtype + R"("), S: T.Buffer((8,), ")" + dtype + R"(")):
        for b in T.thread_binding(8, thread="blockIdx.x"):
            for tx in T.thread_binding()" +
         t + R"(, thread="threadIdx.x"):
                with T.block("S"):
                    vb = T.axis.spatial(8, b)
                    vk = T.axis.reduce()" +
         t + R"(, tx)
                    with T.init():
                        S[vb] = T.)" +
         dtype + R"((0)
                    S[vb] = S[vb] + A[vb, vk]
)";
}

TEST(WarpReduction, OneWarpNeedsNoSharedMemory) {
  tir::LoweredFunc lowered = lower(one_block_sum(32), "f", kCuda);
  const tir::PrimFunc& f = lowered.launches.at(0).kernel.func;
  EXPECT_EQ(shuffle_offsets(f), (std::vector<int64_t>{16, 8, 4, 2, 1}));
  EXPECT_EQ(count_barriers(f), 0);
  EXPECT_EQ(lowered.launches[0].kernel.shared_memory_bytes, 0);
  EXPECT_TRUE(contains(text::print_node(f), "S[b] = T.float32(0) + S_partial[0]"))
      << text::print_node(f);
}

TEST(WarpReduction, APartialWarpReadsNoMissingLane) {
  // 20 threads: the lanes from 20 on do not exist. At offset 16 only lanes 0..3 have a
  // partner; the others take the identity. From offset 8 down every partner of a lane
  // below the offset exists.
  tir::LoweredFunc lowered = lower(one_block_sum(20, "int32"), "f", kCuda);
  const tir::PrimFunc& f = lowered.launches.at(0).kernel.func;
  EXPECT_EQ(shuffle_offsets(f), (std::vector<int64_t>{16, 8, 4, 2, 1}));
  EXPECT_EQ(count_barriers(f), 0);
  std::string text = text::print_node(f);
  EXPECT_TRUE(contains(text, "T.Select(tx < 4, T.shuffle_down(S_partial[0], 16), 0)")) << text;
  EXPECT_TRUE(contains(text, "S_partial[0] = S_partial[0] + T.shuffle_down(S_partial[0], 8)"))
      << text;
  expect_round_trip(lowered.launches[0].kernel);
  // 16 threads: a power of two, 4 shuffles, none guarded.
  tir::LoweredFunc sixteen = lower(one_block_sum(16), "f", kCuda);
  const tir::PrimFunc& g = sixteen.launches.at(0).kernel.func;
  EXPECT_EQ(shuffle_offsets(g), (std::vector<int64_t>{8, 4, 2, 1}));
  EXPECT_FALSE(contains(text::print_node(g), "Select")) << text::print_node(g);
}

TEST(WarpReduction, WhereShufflesDoNotFitTheTreeStays) {
  struct Case {
    std::string source, name, target, why;
    int barriers;
  };
  std::string two_d = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 32), "float32"), S: T.Buffer((4,), "float32")):
        for ty in T.thread_binding(4, thread="threadIdx.y"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                with T.block("S"):
                    vi = T.axis.spatial(4, ty)
                    vk = T.axis.reduce(32, tx)
                    with T.init():
                        S[vi] = T.float32(0)
                    S[vi] = S[vi] + A[vi, vk]
)";
  std::string threads_100 = one_block_sum(100);
  for (const Case& c : std::vector<Case>{
           {threads_100, "f", kCuda, "100 threads: not whole warps", 1 + 7},
           {one_block_sum(64, "float16"), "f", "cuda -arch=sm_80", "float16", 1 + 6},
           {one_block_sum(64, "int64"), "f", kCuda, "int64", 1 + 6},
           {two_d, "f", kCuda, "two thread axes", 1 + 5},
       }) {
    SCOPED_TRACE(c.why);
    tir::LoweredFunc lowered = lower(c.source, c.name, c.target);
    const tir::PrimFunc& f = lowered.launches.at(0).kernel.func;
    EXPECT_TRUE(shuffle_offsets(f).empty()) << text::print_node(f);
    EXPECT_EQ(count_barriers(f), c.barriers) << text::print_node(f);
    expect_barriers_well_placed(f);
  }
  // The rows of threadIdx.y reduce at once, each in its own 32 slots.
  for (const char* target : {kCuda, "vulkan"}) {
    tir::LoweredFunc lowered = lower(two_d, "f", target);
    const tir::PrimFunc& f = lowered.launches.at(0).kernel.func;
    EXPECT_EQ(allocations(f)["S_shared"], (std::pair<std::string, int64_t>{"shared", 4 * 32}));
    std::string text = text::print_node(f);
    EXPECT_TRUE(contains(text, "S_shared[tx + ty * 32] = S_partial[0]")) << text;
    EXPECT_TRUE(contains(text,
                         "S_shared[tx + ty * 32] = S_shared[tx + ty * 32] + "
                         "S_shared[tx + ty * 32 + 16]"))
        << text;
    EXPECT_TRUE(contains(text, "S[ty] = T.float32(0) + S_shared[ty * 32]")) << text;
  }
}

// A warp-sized reduction on fewer threads than its block would leave the block's other
// threads of its warp out of the shuffles: it keeps the tree, whose barriers the kernel
// split refuses there, as on Vulkan.
TEST(WarpReduction, FewerThreadsThanTheBlockKeepTheTree) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((64,), "float32"), S: T.Buffer((1,), "float32"), B: T.Buffer((64,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(64, tx)
                    B[vi] = A[vi]
            for rx in T.thread_binding(16, thread="threadIdx.x"):
                with T.block("S"):
                    vk = T.axis.reduce(16, rx)
                    with T.init():
                        S[0] = T.float32(0)
                    S[0] = S[0] + A[vk]
)";
  std::string expected =
      "loop 'rx' bound to threadIdx.x has 16 threads where its kernel has 64, and it "
      "synchronizes its threads (a cross-thread reduction): bind it to the same number of "
      "threads";
  EXPECT_EQ(error_of(source, "f", kCuda), expected);
  EXPECT_EQ(error_of(source, "f", "vulkan"), expected);
}

}  // namespace
}  // namespace relaxc
