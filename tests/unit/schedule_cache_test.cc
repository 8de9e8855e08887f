// Tests of the cache_read and cache_write schedule primitives: the scheduled functions
// against expected TIR text, their results on the reference interpreter against the
// unscheduled function and a CPU reference, and every refusal's message.
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

tir::PrimFunc parse_func(const std::string& source, const std::string& name = "f") {
  IRModule m = text::parse_module(source, "cache.py");
  tir::PrimFunc f = m->prim_func(name);
  EXPECT_TRUE(f.defined()) << "no PrimFunc " << name;
  return f;
}

// Checks `actual` against the function "f" of `expected_source` structurally, and that
// it prints and parses back to itself.
void expect_func(const tir::PrimFunc& actual, const std::string& expected_source) {
  IRModule expected_module = text::parse_module(expected_source, "expected.py");
  tir::PrimFunc expected = expected_module->prim_func("f");
  std::optional<std::string> mismatch = structural_mismatch(actual, expected);
  std::string printed =
      text::print_module(module_with(expected_module, expected_module->global_var("f"), actual));
  EXPECT_FALSE(mismatch.has_value()) << mismatch.value_or("") << "\nactual:\n" << printed;
  IRModule reparsed = text::parse_module(printed, "printed.py");
  EXPECT_TRUE(structural_equal(reparsed->prim_func("f"), actual)) << printed;
}

constexpr const char* kScale = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((128, 64), "float32"), B: T.Buffer((128, 64), "float32")):
        for i, j in T.grid(128, 64):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj] * T.float32(2)
)";

TEST(ScheduleCache, CacheReadAddsACopyBeforeTheReader) {
  tir::Schedule s(parse_func(kScale));
  tir::BlockRef copy = s.cache_read(s.get_block("B"), 0, "shared");
  EXPECT_EQ(copy.name, "A_shared");
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((128, 64), "float32"), B: T.Buffer((128, 64), "float32")):
        A_shared = T.alloc_buffer((128, 64), scope="shared")
        for ax0, ax1 in T.grid(128, 64):
            with T.block("A_shared"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(A[v0, v1])
                T.writes(A_shared[v0, v1])
                A_shared[v0, v1] = A[v0, v1]
        for i, j in T.grid(128, 64):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A_shared[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = A_shared[vi, vj] * T.float32(2)
)");
}

TEST(ScheduleCache, CacheWriteAddsACopyBack) {
  tir::Schedule s(parse_func(kScale));
  tir::BlockRef copy = s.cache_write(s.get_block("B"), 0, "local");
  EXPECT_EQ(copy.name, "B_local");
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((128, 64), "float32"), B: T.Buffer((128, 64), "float32")):
        B_local = T.alloc_buffer((128, 64), scope="local")
        for i, j in T.grid(128, 64):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B_local[vi, vj])
                B_local[vi, vj] = A[vi, vj] * T.float32(2)
        for ax0, ax1 in T.grid(128, 64):
            with T.block("B_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(B_local[v0, v1])
                T.writes(B[v0, v1])
                B[v0, v1] = B_local[v0, v1]
)");
}

// Two stages over a symbolic n: y = exp(x) into T, z = T + x.
constexpr const char* kTwoStages = R"(@I.ir_module
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
        for i, j in T.grid(n, 8):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Y[vi, vj], X[vi, vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = Y[vi, vj] + X[vi, vj]
)";

void run_two_stages(const tir::PrimFunc& f, int64_t n, HostArray& z) {
  HostArray x = testing::random_array(DataType::Float(32), {n, 8}, 7);
  z = testing::zeros(DataType::Float(32), {n, 8});
  testing::interpret(f, {&x, &z});
  for (int64_t i = 0; i < n * 8; ++i) {
    double expected = std::exp(x.data[i]) + x.data[i];
    EXPECT_NEAR(z.data[i], expected, 1e-5 * (1 + std::abs(expected))) << "element " << i;
  }
}

TEST(ScheduleCache, CopiesGoBeforeTheFirstReaderAndAfterTheWriter) {
  tir::Schedule s(parse_func(kTwoStages));
  s.cache_read(s.get_block("Z"), 0, "shared");
  s.cache_read(s.get_block("Z"), 1, "local");
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_Z: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        Z = T.match_buffer(var_Z, (n, 8))
        Y = T.alloc_buffer((n, 8))
        Y_shared = T.alloc_buffer((n, 8), scope="shared")
        X_local = T.alloc_buffer((n, 8), scope="local")
        for ax0, ax1 in T.grid(n, 8):
            with T.block("X_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(X[v0, v1])
                T.writes(X_local[v0, v1])
                X_local[v0, v1] = X[v0, v1]
        for i, j in T.grid(n, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, vj])
                T.writes(Y[vi, vj])
                Y[vi, vj] = T.exp(X[vi, vj])
        for ax0, ax1 in T.grid(n, 8):
            with T.block("Y_shared"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(Y[v0, v1])
                T.writes(Y_shared[v0, v1])
                Y_shared[v0, v1] = Y[v0, v1]
        for i, j in T.grid(n, 8):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Y_shared[vi, vj], X_local[vi, vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = Y_shared[vi, vj] + X_local[vi, vj]
)");
  for (int64_t n : {1, 5, 33}) {
    HostArray z;
    run_two_stages(s.func(), n, z);
  }
}

TEST(ScheduleCache, CachedStagesComputeTheSame) {
  tir::Schedule s(parse_func(kTwoStages));
  s.cache_write(s.get_block("Y"), 0, "local");
  s.cache_read(s.get_block("Z"), 1, "shared");
  s.cache_write(s.get_block("Z"), 0, "local");
  for (int64_t n : {1, 4, 19}) {
    HostArray z;
    run_two_stages(s.func(), n, z);
  }
}

constexpr const char* kMatmul = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16, 8), "float32"), B: T.Buffer((8, 4), "float32"), C: T.Buffer((16, 4), "float32")):
        for i, j, k in T.grid(16, 4, 8):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";

TEST(ScheduleCache, CacheWriteOfAReductionRedirectsItsInitAndUpdate) {
  tir::Schedule s(parse_func(kMatmul));
  s.cache_write(s.get_block("C"), 0, "local");
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16, 8), "float32"), B: T.Buffer((8, 4), "float32"), C: T.Buffer((16, 4), "float32")):
        C_local = T.alloc_buffer((16, 4), scope="local")
        for i, j, k in T.grid(16, 4, 8):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C_local[vi, vj])
                with T.init():
                    C_local[vi, vj] = T.float32(0)
                C_local[vi, vj] = C_local[vi, vj] + A[vi, vk] * B[vk, vj]
        for ax0, ax1 in T.grid(16, 4):
            with T.block("C_local"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(C_local[v0, v1])
                T.writes(C[v0, v1])
                C[v0, v1] = C_local[v0, v1]
)");
  HostArray a = testing::random_array(DataType::Float(32), {16, 8}, 1);
  HostArray b = testing::random_array(DataType::Float(32), {8, 4}, 2);
  HostArray c = testing::zeros(DataType::Float(32), {16, 4});
  testing::interpret(s.func(), {&a, &b, &c});
  for (int64_t i = 0; i < 16; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      double expected = 0;
      for (int64_t k = 0; k < 8; ++k) expected += a.data[i * 8 + k] * b.data[k * 4 + j];
      EXPECT_NEAR(c.data[i * 4 + j], expected, 1e-5) << i << ", " << j;
    }
  }
}

// Two blocks read A (a row's max, then each element minus it): one copy serves both.
constexpr const char* kTwoReaders = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
        row_max = T.alloc_buffer((4,))
        for i, k in T.grid(4, 8):
            with T.block("M"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(row_max[vi])
                with T.init():
                    row_max[vi] = T.float32(-1e30)
                row_max[vi] = T.max(row_max[vi], A[vi, vk])
        for i, j in T.grid(4, 8):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], row_max[vi])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj] - row_max[vi]
)";

TEST(ScheduleCache, CacheReadServesSeveralConsumersFromOneCopy) {
  tir::Schedule s(parse_func(kTwoReaders));
  tir::BlockRef copy = s.cache_read(s.get_block("M"), 0, "shared", {s.get_block("B")});
  EXPECT_EQ(copy.name, "A_shared");
  for (const char* reader : {"M", "B"}) {
    const tir::Block& block = s.get_block_realize(s.get_block(reader))->block;
    EXPECT_EQ(block->reads.front()->buffer->name, "A_shared") << reader;
  }
  // Moved under the row loop of B, the copy holds one row per iteration.
  std::vector<tir::LoopRef> rows = s.get_loops(s.get_block("B"));
  s.compute_at(s.get_block("M"), rows[0]);
  s.compute_at(copy, rows[0]);
  HostArray a = testing::random_array(DataType::Float(32), {4, 8}, 3);
  HostArray b = testing::zeros(DataType::Float(32), {4, 8});
  testing::interpret(s.func(), {&a, &b});
  for (int64_t i = 0; i < 4; ++i) {
    float row_max = -1e30f;
    for (int64_t k = 0; k < 8; ++k)
      row_max = std::max(row_max, static_cast<float>(a.data[i * 8 + k]));
    for (int64_t j = 0; j < 8; ++j) {
      float expected = static_cast<float>(a.data[i * 8 + j]) - row_max;  // in float32
      EXPECT_EQ(static_cast<float>(b.data[i * 8 + j]), expected) << i << ", " << j;
    }
  }
}

TEST(ScheduleCache, NamesDoNotClash) {
  tir::Schedule s(parse_func(kScale));
  tir::BlockRef first = s.cache_read(s.get_block("B"), 0, "shared");
  tir::BlockRef second = s.cache_read(s.get_block("B"), 0, "shared");
  EXPECT_EQ(first.name, "A_shared");
  EXPECT_EQ(second.name, "A_shared_shared");
  tir::BlockRef third = s.cache_read(s.get_block("A_shared"), 0, "shared");
  EXPECT_EQ(third.name, "A_shared_1");
}

// --- Refusals: each names the block or buffer and says why; the schedule is unchanged.

void expect_refused(tir::Schedule& s, const std::function<void()>& fn, const std::string& message) {
  tir::PrimFunc before = s.func();
  EXPECT_EQ(error_of(fn), message);
  EXPECT_TRUE(s.func().same_as(before));
}

TEST(ScheduleCache, RefusesBadArguments) {
  tir::Schedule s(parse_func(kScale));
  expect_refused(
      s, [&] { s.cache_read(s.get_block("B"), 0, "texture"); },
      "cache_read: unknown storage scope 'texture' (expected \"shared\", \"local\" "
      "or \"global\")");
  expect_refused(
      s, [&] { s.cache_read(s.get_block("B"), 1, "shared"); },
      "cache_read: block 'B' has 1 read regions; read_index 1 is out of range");
  expect_refused(
      s, [&] { s.cache_write(s.get_block("B"), -1, "shared"); },
      "cache_write: block 'B' has 1 write regions; write_index -1 is out of range");
  expect_refused(
      s, [&] { s.cache_read(tir::BlockRef{"nope"}, 0, "shared"); },
      "cache_read: no block named 'nope' in the function");
  expect_refused(
      s, [&] { s.cache_write(tir::BlockRef{"root"}, 0, "shared"); },
      "cache_write cannot cache a buffer of the root block");
}

TEST(ScheduleCache, RefusesANestedBlock) {
  tir::Schedule s(parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
        with T.block("outer"):
            T.reads(A[0:4, 0:4])
            T.writes(B[0:4, 0:4])
            for i, j in T.grid(4, 4):
                with T.block("inner"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    T.reads(A[vi, vj])
                    T.writes(B[vi, vj])
                    B[vi, vj] = A[vi, vj]
)"));
  expect_refused(
      s, [&] { s.cache_read(s.get_block("inner"), 0, "shared"); },
      "cache_read: block 'inner' is nested inside block 'outer'; only blocks directly "
      "under the root block can be cached");
}

TEST(ScheduleCache, RefusesUnsoundPlacements) {
  constexpr const char* kInPlace = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("W"):
                vi = T.axis.spatial(8, i)
                T.reads(B[vi])
                T.writes(A[vi])
                A[vi] = B[vi]
            with T.block("R"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi], B[vi])
                T.writes(B[vi])
                B[vi] = A[vi] + B[vi]
)";
  tir::Schedule s(parse_func(kInPlace));
  expect_refused(
      s, [&] { s.cache_read(s.get_block("R"), 0, "shared"); },
      "cache_read: block 'W' writes 'A' before block 'R' in the same loop nest; there "
      "is no place at the root for the copy between them");
  expect_refused(
      s, [&] { s.cache_read(s.get_block("R"), 1, "shared"); },
      "cache_read: block 'R' also writes 'B'; it cannot read it from a copy");
  expect_refused(
      s, [&] { s.cache_write(s.get_block("R"), 0, "local"); },
      "cache_write: block 'R' reads 'B' without a T.init; the cache would not hold "
      "the values it reads");
  expect_refused(
      s, [&] { s.cache_write(s.get_block("W"), 0, "local"); },
      "cache_write: block 'R' reads 'A' after block 'W' in the same loop nest, before "
      "the copy back could run");
}

TEST(ScheduleCache, RefusesABufferWithTwoWriters) {
  tir::Schedule s(parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(8):
            with T.block("low"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = A[vi]
        for i in range(8):
            with T.block("high"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(B[vi + 8])
                B[vi + 8] = A[vi]
)"));
  expect_refused(
      s, [&] { s.cache_write(s.get_block("low"), 0, "local"); },
      "cache_write: 'B' is also written by block 'high'; copying the cache back would "
      "overwrite its values");
}

TEST(ScheduleCache, RefusesConsumersThatCannotShareTheCopy) {
  tir::Schedule s(parse_func(kTwoReaders));
  expect_refused(
      s, [&] { s.cache_read(s.get_block("M"), 0, "shared", {tir::BlockRef{"nope"}}); },
      "cache_read: consumer block 'nope' is not a block directly under the root block");
  expect_refused(
      s, [&] { s.cache_read(s.get_block("B"), 1, "shared", {s.get_block("M")}); },
      "cache_read: consumer block 'M' does not read 'row_max'");
  constexpr const char* kWriterBetween = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("R1"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = A[vi]
        for i in range(8):
            with T.block("W"):
                vi = T.axis.spatial(8, i)
                T.reads(B[vi])
                T.writes(A[vi])
                A[vi] = B[vi] * T.float32(2)
        for i in range(8):
            with T.block("R2"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(C[vi])
                C[vi] = A[vi]
)";
  tir::Schedule between(parse_func(kWriterBetween));
  expect_refused(
      between,
      [&] { between.cache_read(between.get_block("R1"), 0, "shared", {between.get_block("R2")}); },
      "cache_read: block 'W' writes 'A' between blocks that read it; one copy cannot serve "
      "the readers on both sides");
}

}  // namespace
}  // namespace relaxc
