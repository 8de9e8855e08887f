// Tests of the compute_inline and reverse_compute_inline schedule primitives: the
// inlined functions against expected TIR text, their results on the reference
// interpreter against the original functions, and every refusal's message.
#include <gtest/gtest.h>

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
#include "tests/support/tir_interpreter.h"

namespace relaxc {
namespace {

tir::PrimFunc parse_func(const std::string& source) {
  IRModule m = text::parse_module(source, "inline.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined()) << "no PrimFunc f";
  return f;
}

// Checks `actual` against the function "f" of `expected_source` structurally.
void expect_func(const tir::PrimFunc& actual, const std::string& expected_source) {
  tir::PrimFunc expected = parse_func(expected_source);
  std::optional<std::string> mismatch = structural_mismatch(actual, expected);
  EXPECT_FALSE(mismatch.has_value()) << mismatch.value_or("") << "\nactual:\n"
                                     << text::print_node(actual);
}

void expect_refused(tir::Schedule& s, const std::function<void()>& fn, const std::string& message) {
  tir::PrimFunc before = s.func();
  EXPECT_EQ(error_of(fn), message);
  EXPECT_TRUE(s.func().same_as(before));
}

// X -> Y = exp(X) -> Z = Y[i, 7 - j] + 1 -> W = Z * Y: an injective chain over a symbolic
// number of rows, its intermediates allocated at the root.
constexpr const char* kChain = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_W: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        W = T.match_buffer(var_W, (n, 8))
        Y = T.alloc_buffer((n, 8))
        Z = T.alloc_buffer((n, 8))
        for i, j in T.grid(n, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, vj])
                T.writes(Y[vi, vj])
                Y[vi, vj] = T.exp(X[vi, vj])
        for i, j in T.grid(n, 8):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Y[vi, 7 - vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = Y[vi, 7 - vj] + T.float32(1)
        for i, j in T.grid(n, 8):
            with T.block("W"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Z[vi, vj], Y[vi, vj])
                T.writes(W[vi, vj])
                W[vi, vj] = Z[vi, vj] * Y[vi, vj]
)";

void expect_chain_results(const tir::PrimFunc& scheduled) {
  for (int64_t n : {1, 7, 33}) {
    testing::expect_same_results(parse_func(kChain), scheduled, {{n, 8}, {n, 8}}, 3);
  }
}

TEST(ScheduleComputeInline, SubstitutesIntoEveryConsumer) {
  tir::Schedule s(parse_func(kChain));
  s.compute_inline(s.get_block("Y"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_W: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        W = T.match_buffer(var_W, (n, 8))
        Z = T.alloc_buffer((n, 8))
        for i, j in T.grid(n, 8):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, 7 - vj])
                T.writes(Z[vi, vj])
                Z[vi, vj] = T.exp(X[vi, 7 - vj]) + T.float32(1)
        for i, j in T.grid(n, 8):
            with T.block("W"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(Z[vi, vj], X[vi, vj])
                T.writes(W[vi, vj])
                W[vi, vj] = Z[vi, vj] * T.exp(X[vi, vj])
)");
  expect_chain_results(s.func());
}

TEST(ScheduleComputeInline, AWholeChainBecomesOneBlock) {
  tir::Schedule s(parse_func(kChain));
  s.compute_inline(s.get_block("Y"));
  s.compute_inline(s.get_block("Z"));
  ASSERT_EQ(s.get_blocks().size(), 1u);
  EXPECT_EQ(s.get_blocks()[0].name, "W");
  expect_chain_results(s.func());
}

TEST(ScheduleReverseComputeInline, FoldsTheConsumerIntoItsProducer) {
  tir::Schedule s(parse_func(kChain));
  s.compute_inline(s.get_block("Y"));
  s.reverse_compute_inline(s.get_block("W"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_X: T.handle, var_W: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, 8))
        W = T.match_buffer(var_W, (n, 8))
        for i, j in T.grid(n, 8):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, T.min(vj, 7 - vj):T.min(vj, 7 - vj) + (T.max(vj, 7 - vj) - T.min(vj, 7 - vj) + 1)])
                T.writes(W[vi, vj])
                W[vi, vj] = (T.exp(X[vi, 7 - vj]) + T.float32(1)) * T.exp(X[vi, vj])
)");
  expect_chain_results(s.func());
}

// The producer stores transposed: the consumer's variables take the producer's indices.
TEST(ScheduleReverseComputeInline, TakesTheProducersIndices) {
  const char* source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((4, 8), "float32"), Z: T.Buffer((8, 4), "float32")):
        Y = T.alloc_buffer((8, 4))
        for i, j in T.grid(4, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, vj])
                T.writes(Y[vj, vi])
                Y[vj, vi] = X[vi, vj]
        for a, b in T.grid(8, 4):
            with T.block("Z"):
                va, vb = T.axis.remap("SS", [a, b])
                T.reads(Y[va, vb])
                T.writes(Z[va, vb])
                Z[va, vb] = Y[va, vb] * T.float32(2) + T.Cast("float32", va)
)";
  tir::Schedule s(parse_func(source));
  s.reverse_compute_inline(s.get_block("Z"));
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((4, 8), "float32"), Z: T.Buffer((8, 4), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(X[vi, vj])
                T.writes(Z[vj, vi])
                Z[vj, vi] = X[vi, vj] * T.float32(2) + T.Cast("float32", vj)
)");
  testing::expect_same_results(parse_func(source), s.func(), {{4, 8}, {8, 4}}, 5);
}

// --- Refusals: each names the block and says why; the schedule is unchanged.

// A module holding one function f(X, Z) (both 16 x 8 float32) with the given body.
std::string module_of(const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @T.prim_func\n"
         "    def f(X: T.Buffer((16, 8), \"float32\"), Z: T.Buffer((16, 8), \"float32\")):\n" +
         body;
}

// A block `name` over i, j in 16 x 8 with the given store and value.
std::string block_of(const std::string& name, const std::string& store, const std::string& value) {
  return "        for i, j in T.grid(16, 8):\n            with T.block(\"" + name +
         "\"):\n                vi, vj = T.axis.remap(\"SS\", [i, j])\n                " + store +
         " = " + value + "\n";
}

constexpr const char* kAllocY = "        Y = T.alloc_buffer((16, 8))\n";
const std::string kProducerY = block_of("Y", "Y[vi, vj]", "T.exp(X[vi, vj])");
const std::string kConsumerZ = block_of("Z", "Z[vi, vj]", "Y[vi, vj] + T.float32(1)");

TEST(ScheduleComputeInline, RefusesAReduction) {
  tir::Schedule s(parse_func(module_of(std::string(kAllocY) + R"(        for i, k in T.grid(16, 8):
            with T.block("Y"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    Y[vi, 0] = T.float32(0)
                Y[vi, 0] = Y[vi, 0] + X[vi, vk]
)" + kConsumerZ)));
  expect_refused(
      s, [&] { s.compute_inline(s.get_block("Y")); },
      "compute_inline: block 'Y' has the reduce iteration variable 'vk'; only a "
      "spatial block can be inlined");
}

TEST(ScheduleComputeInline, RefusesAnOutput) {
  tir::Schedule s(parse_func(module_of(std::string(kAllocY) + kProducerY + kConsumerZ)));
  expect_refused(
      s, [&] { s.compute_inline(s.get_block("Z")); },
      "compute_inline: block 'Z' writes 'Z', a parameter of the function; its values "
      "are a result");
}

TEST(ScheduleComputeInline, RefusesABodyThatIsNotOneStore) {
  tir::Schedule s(parse_func(module_of(std::string(kAllocY) + R"(        for i, j in T.grid(16, 8):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, vj]
                Y[vi, vj] = Y[vi, vj] * T.float32(2)
)" + kConsumerZ)));
  expect_refused(
      s, [&] { s.compute_inline(s.get_block("Y")); },
      "compute_inline: the body of block 'Y' is not a single buffer store");
}

TEST(ScheduleComputeInline, RefusesIndicesThatAreNotItsVariables) {
  tir::Schedule s(parse_func(module_of(
      std::string(kAllocY) + block_of("Y", "Y[vi, 7 - vj]", "T.exp(X[vi, vj])") + kConsumerZ)));
  expect_refused(
      s, [&] { s.compute_inline(s.get_block("Y")); },
      "compute_inline: block 'Y' stores to 'Y' at indices that are not its iteration "
      "variables, each once");
}

TEST(ScheduleComputeInline, RefusesASecondWriter) {
  tir::Schedule s(
      parse_func(module_of(std::string(kAllocY) + kProducerY +
                           block_of("Y2", "Y[vi, vj]", "Y[vi, vj] + X[vi, vj]") + kConsumerZ)));
  expect_refused(
      s, [&] { s.compute_inline(s.get_block("Y")); },
      "compute_inline: 'Y' is also written by block 'Y2'");
}

TEST(ScheduleComputeInline, RefusesWhenItsInputChangesLater) {
  std::string body = "        T2 = T.alloc_buffer((16, 8))\n" + std::string(kAllocY) +
                     block_of("T1", "T2[vi, vj]", "X[vi, vj]") +
                     block_of("Y", "Y[vi, vj]", "T.exp(T2[vi, vj])") +
                     block_of("T3", "T2[vi, vj]", "X[vi, vj] * T.float32(2)") + kConsumerZ;
  tir::Schedule s(parse_func(module_of(body)));
  expect_refused(
      s, [&] { s.compute_inline(s.get_block("Y")); },
      "compute_inline: block 'T3' writes 'T2', which block 'Y' reads, after it; the "
      "inlined loads would see the new values");
}

TEST(ScheduleReverseComputeInline, RefusesTwoProducers) {
  std::string body = "        Y2 = T.alloc_buffer((16, 8))\n" + std::string(kAllocY) + kProducerY +
                     block_of("Y2", "Y2[vi, vj]", "X[vi, vj]") +
                     block_of("Z", "Z[vi, vj]", "Y[vi, vj] + Y2[vi, vj]");
  tir::Schedule s(parse_func(module_of(body)));
  expect_refused(
      s, [&] { s.reverse_compute_inline(s.get_block("Z")); },
      "reverse_compute_inline: block 'Z' reads 2 buffers that other blocks write ('Y', "
      "'Y2'); it needs exactly one producer");
}

TEST(ScheduleReverseComputeInline, RefusesABufferOthersRead) {
  std::string body = "        Y2 = T.alloc_buffer((16, 8))\n" + std::string(kAllocY) + kProducerY +
                     block_of("Y2", "Y2[vi, vj]", "Y[vi, vj] + X[vi, vj]") +
                     block_of("Z", "Z[vi, vj]", "Y[vi, vj] * T.float32(2)");
  tir::Schedule s(parse_func(module_of(body)));
  expect_refused(
      s, [&] { s.reverse_compute_inline(s.get_block("Z")); },
      "reverse_compute_inline: 'Y' is also read by block 'Y2'; it must stay");
}

TEST(ScheduleReverseComputeInline, RefusesOtherIndices) {
  tir::Schedule s(parse_func(
      module_of(std::string(kAllocY) + kProducerY + block_of("Z", "Z[vi, vj]", "Y[vi, 7 - vj]"))));
  expect_refused(
      s, [&] { s.reverse_compute_inline(s.get_block("Z")); },
      "reverse_compute_inline: block 'Z' reads 'Y' at indices that are not its "
      "iteration variables, each once");
}

TEST(ScheduleReverseComputeInline, RefusesAPartialRead) {
  tir::Schedule s(
      parse_func(module_of(std::string(kAllocY) + kProducerY + R"(        for i, j in T.grid(16, 4):
            with T.block("Z"):
                vi, vj = T.axis.remap("SS", [i, j])
                Z[vi, vj] = Y[vi, vj]
)")));
  expect_refused(
      s, [&] { s.reverse_compute_inline(s.get_block("Z")); },
      "reverse_compute_inline: block 'Z' reads only part of 'Y' in dimension 1; the "
      "producer computes all of it");
}

TEST(ScheduleReverseComputeInline, RefusesAReductionProducer) {
  tir::Schedule s(
      parse_func(module_of(std::string(kAllocY) + R"(        for i, j, k in T.grid(16, 8, 4):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk]
)" + kConsumerZ)));
  expect_refused(
      s, [&] { s.reverse_compute_inline(s.get_block("Z")); },
      "reverse_compute_inline: block 'Y' has the reduce iteration variable 'vk'; only "
      "a spatial block can be inlined");
}

TEST(ScheduleReverseComputeInline, RefusesAParameter) {
  std::string body = block_of("Y", "Z[vi, vj]", "T.exp(X[vi, vj])") +
                     block_of("W", "X[vi, vj]", "Z[vi, vj] + T.float32(1)");
  tir::Schedule s(parse_func(module_of(body)));
  expect_refused(
      s, [&] { s.reverse_compute_inline(s.get_block("W")); },
      "reverse_compute_inline: 'Z' is a parameter of the function; its values are a "
      "result");
}

}  // namespace
}  // namespace relaxc
