// Tests of the compute_at and reverse_compute_at schedule primitives: the scheduled
// functions against expected TIR text, their results on the reference interpreter against
// CPU references (a tiled GPU matmul with shared and local caches among them), and every
// refusal's message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/schedule/schedule.h"
#include "tests/support/errors.h"
#include "tests/support/host_array.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc {
namespace {

using testing::HostArray;

tir::PrimFunc parse_func(const std::string& source) {
  IRModule m = text::parse_module(source, "compute_at.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined()) << "no PrimFunc f";
  return f;
}

// Checks that `func`, put in place of the function "f" of the module `source`, prints
// and parses back to itself.
void expect_roundtrip(const tir::PrimFunc& func, const std::string& source) {
  IRModule module = text::parse_module(source, "module.py");
  std::string printed = text::print_module(module_with(module, module->global_var("f"), func));
  IRModule reparsed = text::parse_module(printed, "printed.py");
  EXPECT_TRUE(structural_equal(reparsed->prim_func("f"), func)) << printed;
}

// Checks `actual` against the function "f" of `expected_source` structurally, and that
// it prints and parses back to itself.
void expect_func(const tir::PrimFunc& actual, const std::string& expected_source) {
  tir::PrimFunc expected = parse_func(expected_source);
  std::optional<std::string> mismatch = structural_mismatch(actual, expected);
  EXPECT_FALSE(mismatch.has_value()) << mismatch.value_or("") << "\nactual:\n"
                                     << text::print_node(actual);
  expect_roundtrip(actual, expected_source);
}

// The first loop of `block` whose variable is named `name`.
tir::LoopRef loop_named(const tir::Schedule& s, const std::string& block, const std::string& name) {
  for (const tir::LoopRef& loop : s.get_loops(s.get_block(block))) {
    if (loop.var->name == name) return loop;
  }
  ADD_FAILURE() << "block '" << block << "' has no loop '" << name << "'";
  return {};
}

// Y = exp(X), Z = Y + 1 over (n, 8), Z's row loop already split by 4 with a tail guard.
constexpr const char* kTwoStagesSplit = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Z: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        Z = T.match_buffer(var_Z, (n, 8))
        Y = T.alloc_buffer((n, 8))
        for i, j in T.grid(n, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, vj])
                T.writes(Y[vi, vj])
                Y[vi, vj] = T.exp(X[vi, vj])
        for i_0, i_1, j in T.grid((n + T.int64(3)) // T.int64(4), T.int64(4), 8):
            with T.block("Z"):
                vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                vj = T.axis.spatial(8, j)
                T.where(i_0 * T.int64(4) + i_1 < n)
                T.reads(Y[vi, vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = Y[vi, vj] + T.float32(1)
)";

void check_two_stages(const tir::PrimFunc& f) {
  for (int64_t n : {1, 4, 6, 13}) {
    HostArray x = testing::random_array(DataType::Float(32), {n, 8}, 3);
    HostArray z = testing::zeros(DataType::Float(32), {n, 8});
    testing::interpret(f, {&x, &z});
    for (int64_t i = 0; i < n * 8; ++i) {
      double expected = std::exp(x.data[i]) + 1;
      EXPECT_NEAR(z.data[i], expected, 1e-5 * expected) << "n = " << n << ", element " << i;
    }
  }
}

TEST(ScheduleComputeAt, ProducerCoversTheTileWithATailGuard) {
  tir::Schedule s(parse_func(kTwoStagesSplit));
  s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i_0"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Z: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        Z = T.match_buffer(var_Z, (n, 8))
        Y = T.alloc_buffer((n, 8))
        for i_0 in range((n + T.int64(3)) // T.int64(4)):
            for ax0, ax1 in T.grid(T.int64(4), 8):
                with T.block("Y"):
                    vi = T.axis.spatial(n, i_0 * T.int64(4) + ax0)
                    vj = T.axis.spatial(8, ax1)
                    T.where(i_0 * T.int64(4) + ax0 < n)
                    T.reads(X[vi, vj])
                    T.writes(Y[vi, vj])
                    Y[vi, vj] = T.exp(X[vi, vj])
            for i_1, j in T.grid(T.int64(4), 8):
                with T.block("Z"):
                    vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                    vj = T.axis.spatial(8, j)
                    T.where(i_0 * T.int64(4) + i_1 < n)
                    T.reads(Y[vi, vj])
                    T.writes(Z[vi, vj])
                    Z[vi, vj] = Y[vi, vj] + T.float32(1)
)");
  check_two_stages(s.func());
}

TEST(ScheduleComputeAt, ProducerAtTheInnermostLoopComputesOnePoint) {
  tir::Schedule s(parse_func(kTwoStagesSplit));
  s.compute_at(s.get_block("Y"), loop_named(s, "Z", "j"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Z: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        Z = T.match_buffer(var_Z, (n, 8))
        Y = T.alloc_buffer((n, 8))
        for i_0, i_1, j in T.grid((n + T.int64(3)) // T.int64(4), T.int64(4), 8):
            with T.block("Y"):
                vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                vj = T.axis.spatial(8, j)
                T.where(i_0 * T.int64(4) + i_1 < n)
                T.reads(X[vi, vj])
                T.writes(Y[vi, vj])
                Y[vi, vj] = T.exp(X[vi, vj])
            with T.block("Z"):
                vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                vj = T.axis.spatial(8, j)
                T.where(i_0 * T.int64(4) + i_1 < n)
                T.reads(Y[vi, vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = Y[vi, vj] + T.float32(1)
)");
  check_two_stages(s.func());
}

TEST(ScheduleComputeAt, CopyBackFollowsItsProducerRowByRow) {
  tir::Schedule s(parse_func(kTwoStagesSplit));
  s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i_0"));
  tir::BlockRef copy = s.cache_write(s.get_block("Z"), 0, "local");
  s.reverse_compute_at(copy, loop_named(s, "Z", "i_1"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Z: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        Z = T.match_buffer(var_Z, (n, 8))
        Y = T.alloc_buffer((n, 8))
        Z_local = T.alloc_buffer((n, 8), scope="local")
        for i_0 in range((n + T.int64(3)) // T.int64(4)):
            for ax0, ax1 in T.grid(T.int64(4), 8):
                with T.block("Y"):
                    vi = T.axis.spatial(n, i_0 * T.int64(4) + ax0)
                    vj = T.axis.spatial(8, ax1)
                    T.where(i_0 * T.int64(4) + ax0 < n)
                    T.reads(X[vi, vj])
                    T.writes(Y[vi, vj])
                    Y[vi, vj] = T.exp(X[vi, vj])
            for i_1 in range(T.int64(4)):
                for j in range(8):
                    with T.block("Z"):
                        vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                        vj = T.axis.spatial(8, j)
                        T.where(i_0 * T.int64(4) + i_1 < n)
                        T.reads(Y[vi, vj])
                        T.writes(Z_local[vi, vj])
                        Z_local[vi, vj] = Y[vi, vj] + T.float32(1)
                for ax0 in range(8):
                    with T.block("Z_local"):
                        v0 = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                        v1 = T.axis.spatial(8, ax0)
                        T.where(i_0 * T.int64(4) + i_1 < n)
                        T.reads(Z_local[v0, v1])
                        T.writes(Z[v0, v1])
                        Z[v0, v1] = Z_local[v0, v1]
)");
  check_two_stages(s.func());
}

// A row sum feeding an elementwise consumer, over a symbolic number of rows.
constexpr const char* kRowSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 16))
        B = T.match_buffer(var_B, (n,))
        S = T.alloc_buffer((n,))
        for i, k in T.grid(n, 16):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(S[vi])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                T.reads(S[vi])
                T.writes(B[vi])
                B[vi] = S[vi] * T.float32(2)
)";

void check_row_sum(const tir::PrimFunc& f) {
  for (int64_t n : {1, 3, 10}) {
    HostArray a = testing::random_array(DataType::Float(32), {n, 16}, 5);
    HostArray b = testing::zeros(DataType::Float(32), {n});
    testing::interpret(f, {&a, &b});
    for (int64_t i = 0; i < n; ++i) {
      double sum = 0;
      for (int64_t k = 0; k < 16; ++k) sum += a.data[i * 16 + k];
      EXPECT_NEAR(b.data[i], 2 * sum, 1e-4) << "n = " << n << ", row " << i;
    }
  }
}

TEST(ScheduleComputeAt, ReductionProducerKeepsItsReductionLoop) {
  tir::Schedule s(parse_func(kRowSum));
  s.compute_at(s.get_block("S"), loop_named(s, "B", "i"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 16))
        B = T.match_buffer(var_B, (n,))
        S = T.alloc_buffer((n,))
        for i in range(n):
            for ax0 in range(16):
                with T.block("S"):
                    vi = T.axis.spatial(n, i)
                    vk = T.axis.reduce(16, ax0)
                    T.reads(A[vi, vk])
                    T.writes(S[vi])
                    with T.init():
                        S[vi] = T.float32(0)
                    S[vi] = S[vi] + A[vi, vk]
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                T.reads(S[vi])
                T.writes(B[vi])
                B[vi] = S[vi] * T.float32(2)
)");
  check_row_sum(s.func());
}

TEST(ScheduleComputeAt, ReverseComputeAtAfterAReduction) {
  tir::Schedule s(parse_func(kRowSum));
  s.reverse_compute_at(s.get_block("B"), loop_named(s, "S", "i"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 16))
        B = T.match_buffer(var_B, (n,))
        S = T.alloc_buffer((n,))
        for i in range(n):
            for k in range(16):
                with T.block("S"):
                    vi, vk = T.axis.remap("SR", [i, k])
                    T.reads(A[vi, vk])
                    T.writes(S[vi])
                    with T.init():
                        S[vi] = T.float32(0)
                    S[vi] = S[vi] + A[vi, vk]
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                T.reads(S[vi])
                T.writes(B[vi])
                B[vi] = S[vi] * T.float32(2)
)");
  check_row_sum(s.func());
}

// reverse_compute_at under the thread loop of a fused, split output (as split-K's sum and
// the GEMV's slices schedule their epilogue): the threads past the 96 outputs of a
// 128-thread block write nothing, and the region read under the loop names an index that
// wraps around ((f0 * 128 + f1) % 96 is in range for every thread), so the consumer takes
// the producer's guard, which only the loops around it decide.
TEST(ScheduleComputeAt, ReverseComputeAtUnderASplitTailTakesTheProducersGuard) {
  tir::Schedule s(parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((1, 96), "float32"), B: T.Buffer((1, 96), "float32")):
        S = T.alloc_buffer((1, 96))
        for f0 in range(1):
            for f1 in range(128):
                with T.block("S"):
                    vi = T.axis.spatial(1, (f0 * 128 + f1) // 96)
                    vj = T.axis.spatial(96, (f0 * 128 + f1) % 96)
                    T.where(f0 * 128 + f1 < 96)
                    S[vi, vj] = A[vi, vj] * T.float32(2)
        for i, j in T.grid(1, 96):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = S[vi, vj] + T.float32(1)
)"));
  s.reverse_compute_at(s.get_block("B"), loop_named(s, "S", "f1"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((1, 96), "float32"), B: T.Buffer((1, 96), "float32")):
        S = T.alloc_buffer((1, 96))
        for f0 in range(1):
            for f1 in range(128):
                with T.block("S"):
                    vi = T.axis.spatial(1, (f0 * 128 + f1) // 96)
                    vj = T.axis.spatial(96, (f0 * 128 + f1) % 96)
                    T.where(f0 * 128 + f1 < 96)
                    S[vi, vj] = A[vi, vj] * T.float32(2)
                with T.block("B"):
                    vi = T.axis.spatial(1, 0)
                    vj = T.axis.spatial(96, (f0 * 32 + f1) % 96)
                    T.where(f0 * 128 + f1 < 96)
                    B[vi, vj] = S[vi, vj] + T.float32(1)
)");
}

// C[m, n] = sum_k A[m, k] * B[k, n] over symbolic m, n, k.
constexpr const char* kMatmul = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle, var_C: T.handle):
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

// The GPU schedules: tile x tile blocks of C per thread block, one element per thread,
// k in steps of k_step through shared-memory tiles of A and B, and the accumulator in a
// local buffer.
enum class MatmulSchedule {
  // TVM's usual order: threads outside the k loop; each thread's copy-back of its
  // element under threadIdx.x. The tile loads are fused but not bound (their loops lie
  // under loops bound to threadIdx already), so every thread loads the whole tile.
  kThreadsOutsideK,
  // k outside the threads: the tile loads and the copy-back bound to threadIdx.y/x, a
  // cooperative load.
  kThreadsInsideK,
};

tir::PrimExpr i64(int64_t v) { return tir::int_imm(DataType::Int(64), v); }

tir::PrimFunc schedule_tiled_matmul(const tir::PrimFunc& f, MatmulSchedule kind, int64_t tile,
                                    int64_t k_step) {
  tir::Schedule s(f);
  tir::BlockRef c = s.get_block("C");
  std::vector<tir::LoopRef> loops = s.get_loops(c);
  std::vector<tir::LoopRef> i = s.split(loops[0], {tir::PrimExpr(), i64(tile)});
  std::vector<tir::LoopRef> j = s.split(loops[1], {tir::PrimExpr(), i64(tile)});
  std::vector<tir::LoopRef> r = s.split(loops[2], {tir::PrimExpr(), i64(k_step)});
  bool threads_outside = kind == MatmulSchedule::kThreadsOutsideK;
  if (threads_outside) {
    s.reorder({i[0], j[0], i[1], j[1], r[0], r[1]});
  } else {
    s.reorder({i[0], j[0], r[0], i[1], j[1], r[1]});
  }
  s.bind(i[0], "blockIdx.y");
  s.bind(j[0], "blockIdx.x");
  s.bind(i[1], "threadIdx.y");
  s.bind(j[1], "threadIdx.x");
  tir::BlockRef a_shared = s.cache_read(c, 0, "shared");
  tir::BlockRef b_shared = s.cache_read(c, 1, "shared");
  s.compute_at(a_shared, r[0]);
  s.compute_at(b_shared, r[0]);
  tir::BlockRef c_local = s.cache_write(c, 0, "local");
  s.reverse_compute_at(c_local, threads_outside ? j[1] : j[0]);
  for (const tir::BlockRef& copy : {a_shared, b_shared}) {
    std::vector<tir::LoopRef> copy_loops = s.get_loops(copy);
    EXPECT_EQ(copy_loops.size(), threads_outside ? 7u : 5u);  // the tile's loops come last
    size_t n = copy_loops.size();
    tir::LoopRef fused = s.fuse({copy_loops[n - 2], copy_loops[n - 1]});
    if (threads_outside) continue;
    std::vector<tir::LoopRef> parts = s.split(fused, {tir::PrimExpr(), i64(tile), i64(tile)});
    s.bind(parts[1], "threadIdx.y");
    s.bind(parts[2], "threadIdx.x");
  }
  if (!threads_outside) {
    std::vector<tir::LoopRef> copy_loops = s.get_loops(c_local);
    EXPECT_EQ(copy_loops.size(), 4u);  // by, bx, and the tile's two loops
    s.bind(copy_loops[2], "threadIdx.y");
    s.bind(copy_loops[3], "threadIdx.x");
  }
  return s.func();
}

struct MatmulSize {
  int64_t m, n, k;
};

void check_tiled_matmul(const tir::PrimFunc& scheduled, const std::vector<MatmulSize>& sizes) {
  std::string printed = text::print_node(scheduled);
  for (const MatmulSize& c : sizes) {
    HostArray a = testing::random_array(DataType::Float(32), {c.m, c.k}, 11);
    HostArray b = testing::random_array(DataType::Float(32), {c.k, c.n}, 12);
    HostArray out = testing::zeros(DataType::Float(32), {c.m, c.n});
    testing::interpret(scheduled, {&a, &b, &out});
    HostArray reference = testing::zeros(DataType::Float(32), {c.m, c.n});
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        double sum = 0;
        for (int64_t r = 0; r < c.k; ++r) sum += a.data[i * c.k + r] * b.data[r * c.n + j];
        reference.data[i * c.n + j] = sum;
      }
    }
    EXPECT_LE(testing::max_scaled_error(out, reference, 1e-5, 1e-5), 1.0)
        << "m, n, k = " << c.m << ", " << c.n << ", " << c.k << "\n"
        << printed;
  }
  expect_roundtrip(scheduled, kMatmul);
}

TEST(ScheduleComputeAt, TiledMatmulWithCooperativeLoads) {
  tir::PrimFunc f = schedule_tiled_matmul(parse_func(kMatmul), MatmulSchedule::kThreadsInsideK,
                                          /*tile=*/32, /*k_step=*/16);
  check_tiled_matmul(f, {{64, 64, 64}, {37, 50, 23}, {1, 1, 1}});
}

// Every thread loads whole tiles here, which the sequential interpreter pays for in full:
// smaller tiles keep the test quick.
TEST(ScheduleComputeAt, TiledMatmulWithThreadsOutsideK) {
  tir::PrimFunc f = schedule_tiled_matmul(parse_func(kMatmul), MatmulSchedule::kThreadsOutsideK,
                                          /*tile=*/8, /*k_step=*/4);
  check_tiled_matmul(f, {{16, 16, 16}, {13, 10, 7}, {1, 1, 1}});
}

// Row softmax over a symbolic number of rows: a max and a sum reduction per row.
constexpr const char* kSoftmax = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_O: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 64))
        O = T.match_buffer(var_O, (n, 64))
        M = T.alloc_buffer((n,))
        E = T.alloc_buffer((n, 64))
        S = T.alloc_buffer((n,))
        for i, k in T.grid(n, 64):
            with T.block("M"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(M[vi])
                with T.init():
                    M[vi] = T.float32(-1e30)
                M[vi] = T.max(M[vi], A[vi, vk])
        for i, k in T.grid(n, 64):
            with T.block("E"):
                vi, vk = T.axis.remap("SS", [i, k])
                T.reads(A[vi, vk], M[vi])
                T.writes(E[vi, vk])
                E[vi, vk] = T.exp(A[vi, vk] - M[vi])
        for i, k in T.grid(n, 64):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(E[vi, vk])
                T.writes(S[vi])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + E[vi, vk]
        for i, k in T.grid(n, 64):
            with T.block("O"):
                vi, vk = T.axis.remap("SS", [i, k])
                T.reads(E[vi, vk], S[vi])
                T.writes(O[vi, vk])
                O[vi, vk] = E[vi, vk] / S[vi]
)";

// One thread block per row: every stage moved under the row loop, its column loop bound
// to threadIdx.x (a cross-thread reduction for M and S).
TEST(ScheduleComputeAt, RowSoftmaxInOneThreadBlockPerRow) {
  tir::Schedule s(parse_func(kSoftmax));
  tir::LoopRef row = loop_named(s, "O", "i");
  s.compute_at(s.get_block("S"), row);
  s.compute_at(s.get_block("E"), row);
  s.compute_at(s.get_block("M"), row);
  s.bind(row, "blockIdx.x");
  for (const char* block : {"M", "E", "S", "O"}) {
    std::vector<tir::LoopRef> loops = s.get_loops(s.get_block(block));
    ASSERT_EQ(loops.size(), 2u) << block;
    s.bind(loops[1], "threadIdx.x");
  }
  for (int64_t n : {1, 3, 7}) {
    HostArray a = testing::random_array(DataType::Float(32), {n, 64}, 21, -4.0, 4.0);
    HostArray o = testing::zeros(DataType::Float(32), {n, 64});
    testing::interpret(s.func(), {&a, &o});
    for (int64_t i = 0; i < n; ++i) {
      double max = a.data[i * 64];
      for (int64_t k = 0; k < 64; ++k) max = std::max(max, a.data[i * 64 + k]);
      double sum = 0;
      for (int64_t k = 0; k < 64; ++k) sum += std::exp(a.data[i * 64 + k] - max);
      for (int64_t k = 0; k < 64; ++k) {
        EXPECT_NEAR(o.data[i * 64 + k], std::exp(a.data[i * 64 + k] - max) / sum, 1e-6)
            << "n = " << n << ", row " << i << ", column " << k;
      }
    }
  }
  expect_roundtrip(s.func(), kSoftmax);
}

// --- Refusals: each names the block and the loop and says why; the schedule is unchanged.

void expect_refused(tir::Schedule& s, const std::function<void()>& fn, const std::string& message) {
  tir::PrimFunc before = s.func();
  EXPECT_EQ(error_of(fn), message);
  EXPECT_TRUE(s.func().same_as(before));
}

// A module holding one function f(X, Z) (both 16 x 8 float32) with the given body.
std::string module_of(const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @T.prim_func\n"
         "    def f(X: T.Buffer((16, 8), \"float32\"), Z: T.Buffer((16, 8), \"float32\")):\n" +
         body;
}

constexpr const char* kProducerY = R"(        for i, j in T.grid(16, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, vj])
                T.writes(Y[vi, vj])
                Y[vi, vj] = T.exp(X[vi, vj])
)";

// A nest whose block `name` reads Y and writes `out`: out = Y + 1.
std::string consumer(const std::string& name, const std::string& out) {
  std::string text = R"(        for i, j in T.grid(16, 8):
            with T.block("NAME"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Y[vi, vj])
                T.writes(OUT[vi, vj])
                OUT[vi, vj] = Y[vi, vj] + T.float32(1)
)";
  auto replace_all = [&](const std::string& from, const std::string& to) {
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
      text.replace(at, from.size(), to);
      at += to.size();
    }
  };
  replace_all("NAME", name);
  replace_all("OUT", out);
  return text;
}

constexpr const char* kAllocY = "        Y = T.alloc_buffer((16, 8))\n";

TEST(ScheduleComputeAt, RefusesBadHandles) {
  tir::Schedule s(parse_func(module_of(std::string(kAllocY) + kProducerY + consumer("Z", "Z"))));
  tir::LoopRef z_i = loop_named(s, "Z", "i");
  expect_refused(
      s, [&] { s.compute_at(tir::BlockRef{"nope"}, z_i); },
      "compute_at: no block named 'nope' in the function");
  expect_refused(
      s, [&] { s.compute_at(tir::BlockRef{"root"}, z_i); },
      "compute_at cannot move the root block");
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), tir::LoopRef{}); }, "compute_at: a null loop handle");
  expect_refused(
      s, [&] { s.reverse_compute_at(s.get_block("Z"), tir::LoopRef{tir::var("q")}); },
      "reverse_compute_at: loop 'q' no longer exists in the function");
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), loop_named(s, "Y", "j")); },
      "compute_at: block 'Y' is already under loop 'j'; pick a loop of its consumer "
      "that does not enclose it");
  expect_refused(
      s, [&] { s.reverse_compute_at(s.get_block("Y"), z_i); },
      "reverse_compute_at: block 'Y' has no producer under loop 'i'");
}

TEST(ScheduleComputeAt, RefusesAConsumerOutsideTheLoop) {
  tir::Schedule s(parse_func(module_of(std::string("        Y = T.alloc_buffer((16, 8))\n") +
                                       "        W = T.alloc_buffer((16, 8))\n" + kProducerY +
                                       consumer("Z", "Z") + consumer("W", "W"))));
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i")); },
      "compute_at: block 'Y' has a consumer, block 'W', outside loop 'i'; all its "
      "consumers must be under the loop");
}

TEST(ScheduleComputeAt, RefusesAProducerOfAParameter) {
  tir::Schedule s(parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((16, 8), "float32"), Y: T.Buffer((16, 8), "float32"), Z: T.Buffer((16, 8), "float32")):
)" + std::string(kProducerY) +
                             consumer("Z", "Z")));
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i")); },
      "compute_at: block 'Y' writes 'Y', a parameter of the function; under loop 'i' "
      "it would compute only the part its consumers read");
}

TEST(ScheduleComputeAt, RefusesMovesThatChangeWhatBlocksSee) {
  // Z reads Y before Y is written.
  tir::Schedule late(parse_func(module_of(std::string(kAllocY) + consumer("Z", "Z") + kProducerY)));
  expect_refused(
      late, [&] { late.compute_at(late.get_block("Y"), loop_named(late, "Z", "i")); },
      "compute_at: block 'Y' comes after its consumer, block 'Z'");
  // D overwrites X, which Y reads, between Y and Z.
  tir::Schedule past(
      parse_func(module_of(std::string(kAllocY) + kProducerY + R"(        for i, j in T.grid(16, 8):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads()
                T.writes(X[vi, vj])
                X[vi, vj] = T.float32(0)
)" + consumer("Z", "Z"))));
  expect_refused(
      past, [&] { past.compute_at(past.get_block("Y"), loop_named(past, "Z", "i")); },
      "compute_at: block 'Y' cannot move past block 'D', which accesses the buffers it "
      "reads");
}

TEST(ScheduleComputeAt, RefusesAPredicateItCannotCarry) {
  tir::Schedule s(parse_func(module_of(std::string(kAllocY) + R"(        for i, j in T.grid(16, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.where(i % 2 == 0)
                T.reads(X[vi, vj])
                T.writes(Y[vi, vj])
                Y[vi, vj] = T.exp(X[vi, vj])
)" + consumer("Z", "Z"))));
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i")); },
      "compute_at: block 'Y' has the predicate i % 2 == 0, which is not a bound of an "
      "iteration value; it cannot be carried to the new loops");
}

TEST(ScheduleComputeAt, RefusesABlockUnderAnIf) {
  tir::Schedule s(parse_func(module_of(std::string(kAllocY) + R"(        for i in range(16):
            if i < 16:
                for j in range(8):
                    with T.block("Y"):
                        vi, vj = T.axis.remap("SS", [i, j])
                        T.reads(X[vi, vj])
                        T.writes(Y[vi, vj])
                        Y[vi, vj] = T.exp(X[vi, vj])
)" + consumer("Z", "Z"))));
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i")); },
      "compute_at: block 'Y' sits under a statement other than loops (an if, a let, an "
      "allocation); it cannot be moved out of it");
}

TEST(ScheduleComputeAt, RefusesALoopInAnotherBlockScope) {
  tir::Schedule s(
      parse_func(module_of(std::string(kAllocY) + kProducerY + R"(        with T.block("outer"):
            T.reads(Y[0:16, 0:8])
            T.writes(Z[0:16, 0:8])
            for i, j in T.grid(16, 8):
                with T.block("Z"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    T.reads(Y[vi, vj])
                    T.writes(Z[vi, vj])
                    Z[vi, vj] = Y[vi, vj]
)")));
  expect_refused(
      s, [&] { s.compute_at(s.get_block("Y"), loop_named(s, "Z", "i")); },
      "compute_at: loop 'i' is not in the block scope of block 'Y' (one lies inside a "
      "block that the other is outside of)");
}

TEST(ScheduleComputeAt, ReverseRefusesWhatItCannotMatch) {
  tir::Schedule strided(
      parse_func(module_of(std::string(kAllocY) + kProducerY + R"(        for i, j in T.grid(8, 8):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Y[vi * 2, vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = Y[vi * 2, vj]
)")));
  expect_refused(
      strided,
      [&] { strided.reverse_compute_at(strided.get_block("Z"), loop_named(strided, "Y", "i")); },
      "reverse_compute_at: block 'Z' reads 'Y' at vi * 2 in dimension 0; only an index "
      "that is an iteration variable can be matched to the region produced under loop "
      "'i'");
  tir::Schedule partial(
      parse_func(module_of(std::string(kAllocY) + kProducerY + R"(        for i, j in T.grid(16, 8):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, j])
                T.reads(Y[vi, vk])
                T.writes(Z[vi, 0])
                with T.init():
                    Z[vi, 0] = T.float32(0)
                Z[vi, 0] = Z[vi, 0] + Y[vi, vk]
)")));
  expect_refused(
      partial,
      [&] { partial.reverse_compute_at(partial.get_block("S"), loop_named(partial, "Y", "j")); },
      "reverse_compute_at: block 'S' reduces over 'vk', but under loop 'j' its "
      "producers have produced only part of that range; pick an outer loop");
  // One level up, the whole row is there.
  partial.reverse_compute_at(partial.get_block("S"), loop_named(partial, "Y", "i"));
  HostArray x = testing::random_array(DataType::Float(32), {16, 8}, 9);
  HostArray z = testing::zeros(DataType::Float(32), {16, 8});
  testing::interpret(partial.func(), {&x, &z});
  for (int64_t i = 0; i < 16; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < 8; ++j) sum += std::exp(x.data[i * 8 + j]);
    EXPECT_NEAR(z.data[i * 8], sum, 1e-4) << "row " << i;
  }
}

}  // namespace
}  // namespace relaxc
