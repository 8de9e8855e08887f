// Tests of unify_thread_bindings on scheduled TensorIR, as text in / expected text out
// (structural equality), and results of the reference interpreter against the unpassed
// function and a CPU reference.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "tests/support/host_array.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc {
namespace {

using testing::HostArray;

// The PrimFunc `f` of a module holding it: `params` is its parameter list and `body` its
// lines, each indented by 8 spaces.
tir::PrimFunc parse_func(const std::string& params, const std::string& body) {
  std::string source = "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(" + params +
                       "):\n        T.func_attr({\"tir.noalias\": True})\n" + body;
  IRModule m = text::parse_module(source, "prepasses.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined());
  return f;
}

void expect_same(const tir::PrimFunc& actual, const tir::PrimFunc& expected) {
  std::optional<std::string> mismatch = structural_mismatch(actual, expected);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\nactual:\n"
                                     << text::print_node(actual) << "\nexpected:\n"
                                     << text::print_node(expected);
}

// "line:col: message" of the error unify_thread_bindings reports, or "".
std::string unify_error(const tir::PrimFunc& f) {
  try {
    tir::unify_thread_bindings(f);
  } catch (const UserError& e) {
    const Diagnostic& d = e.diagnostics().front();
    return std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message;
  }
  return "";
}

// Runs `f` on copies of `arrays` (its buffer params in order) and returns them after.
std::vector<HostArray> run(const tir::PrimFunc& f, std::vector<HostArray> arrays) {
  std::vector<HostArray*> pointers;
  for (HostArray& a : arrays) pointers.push_back(&a);
  testing::interpret(f, pointers);
  return arrays;
}

void expect_close(const HostArray& actual, const HostArray& expected, double tolerance) {
  ASSERT_EQ(actual.shape, expected.shape);
  EXPECT_LE(testing::max_scaled_error(actual, expected, tolerance, tolerance), 1.0);
}

constexpr DataType kF32 = DataType::Float(32);

// ------------------------------------------------------------ unify_thread_bindings

// A cooperative copy into shared memory computed under the consumer's threadIdx.x loop,
// with its own threadIdx.x loop of the same extent.
constexpr const char* kScaleParams = "var_A: T.handle, var_B: T.handle";
constexpr const char* kScaleNested = R"(        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        A_shared = T.alloc_buffer((n,), scope="shared")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                for tx_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                    with T.block("A_shared"):
                        v0 = T.axis.spatial(n, bx * 64 + tx_1)
                        T.where(bx * 64 + tx_1 < n)
                        T.reads(A[v0])
                        T.writes(A_shared[v0])
                        A_shared[v0] = A[v0]
                with T.block("B"):
                    vi = T.axis.spatial(n, bx * 64 + tx)
                    T.where(bx * 64 + tx < n)
                    T.reads(A_shared[vi])
                    T.writes(B[vi])
                    B[vi] = A_shared[vi] * T.float32(2)
)";
constexpr const char* kScaleUnified = R"(        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        A_shared = T.alloc_buffer((n,), scope="shared")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("A_shared"):
                    v0 = T.axis.spatial(n, bx * 64 + tx)
                    T.where(bx * 64 + tx < n)
                    T.reads(A[v0])
                    T.writes(A_shared[v0])
                    A_shared[v0] = A[v0]
                with T.block("B"):
                    vi = T.axis.spatial(n, bx * 64 + tx)
                    T.where(bx * 64 + tx < n)
                    T.reads(A_shared[vi])
                    T.writes(B[vi])
                    B[vi] = A_shared[vi] * T.float32(2)
)";

TEST(UnifyThreadBindings, NestedSameExtentBecomesTheEnclosingIndex) {
  tir::PrimFunc f = parse_func(kScaleParams, kScaleNested);
  tir::PrimFunc unified = tir::unify_thread_bindings(f);
  expect_same(unified, parse_func(kScaleParams, kScaleUnified));

  for (int64_t n : {1, 64, 100, 200}) {
    HostArray a = testing::random_array(kF32, {n}, 7 + n);
    std::vector<HostArray> out = run(unified, {a, testing::zeros(kF32, {n})});
    HostArray expected = testing::zeros(kF32, {n});
    for (int64_t i = 0; i < n; ++i) expected.data[i] = a.data[i] * 2;
    expect_close(out[1], expected, 1e-6);
  }
}

// The inner loop covers only 32 of the 64 threads: the body runs where tx < 32.
constexpr const char* kHalfParams = "var_A: T.handle, var_B: T.handle, var_C: T.handle";
constexpr const char* kHalfNested = R"(        n = T.int64()
        h = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (h,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(n, bx * 64 + tx)
                    T.where(bx * 64 + tx < n)
                    T.reads(A[vi])
                    T.writes(B[vi])
                    B[vi] = A[vi] + T.float32(1)
                for tx_1 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                    with T.block("C"):
                        vj = T.axis.spatial(h, bx * 32 + tx_1)
                        T.where(bx * 32 + tx_1 < h)
                        T.reads(A[vj * 2])
                        T.writes(C[vj])
                        C[vj] = A[vj * 2] * T.float32(3)
)";
constexpr const char* kHalfUnified = R"(        n = T.int64()
        h = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (h,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(n, bx * 64 + tx)
                    T.where(bx * 64 + tx < n)
                    T.reads(A[vi])
                    T.writes(B[vi])
                    B[vi] = A[vi] + T.float32(1)
                if tx < T.int64(32):
                    with T.block("C"):
                        vj = T.axis.spatial(h, bx * 32 + tx)
                        T.where(bx * 32 + tx < h)
                        T.reads(A[vj * 2])
                        T.writes(C[vj])
                        C[vj] = A[vj * 2] * T.float32(3)
)";

TEST(UnifyThreadBindings, NestedSmallerExtentIsGuarded) {
  tir::PrimFunc f = parse_func(kHalfParams, kHalfNested);
  tir::PrimFunc unified = tir::unify_thread_bindings(f);
  expect_same(unified, parse_func(kHalfParams, kHalfUnified));

  for (int64_t n : {2, 64, 130, 255}) {
    int64_t h = n / 2;
    HostArray a = testing::random_array(kF32, {n}, 11 + n);
    std::vector<HostArray> out =
        run(unified, {a, testing::zeros(kF32, {n}), testing::zeros(kF32, {h})});
    for (int64_t i = 0; i < n; ++i) EXPECT_FLOAT_EQ(out[1].data[i], a.data[i] + 1) << i;
    for (int64_t j = 0; j < h; ++j) EXPECT_FLOAT_EQ(out[2].data[j], a.data[2 * j] * 3) << j;
    // Same as the function before the pass (whose inner loop runs for every tx).
    std::vector<HostArray> before =
        run(f, {a, testing::zeros(kF32, {n}), testing::zeros(kF32, {h})});
    EXPECT_EQ(out[2].data, before[2].data);
  }
}

TEST(UnifyThreadBindings, NestedBlockIdxUnifies) {
  constexpr const char* kNested = R"(        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for bx_1 in T.thread_binding(4, thread="blockIdx.x"):
                for tx in T.thread_binding(8, thread="threadIdx.x"):
                    with T.block("B"):
                        vi = T.axis.spatial(32, bx_1 * 8 + tx)
                        B[vi] = A[vi]
)";
  constexpr const char* kUnified = R"(        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for tx in T.thread_binding(8, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(32, bx * 8 + tx)
                    B[vi] = A[vi]
)";
  const char* params = R"(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32"))";
  expect_same(tir::unify_thread_bindings(parse_func(params, kNested)),
              parse_func(params, kUnified));
}

TEST(UnifyThreadBindings, SiblingBindingsAreLeftAlone) {
  const char* params = R"(A: T.Buffer((32,), "float32"), B: T.Buffer((32,), "float32"))";
  tir::PrimFunc f =
      parse_func(params, R"(        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for tx in T.thread_binding(8, thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(32, bx * 8 + tx)
                    B[vi] = A[vi]
            for tx in T.thread_binding(8, thread="threadIdx.x"):
                with T.block("C"):
                    vi = T.axis.spatial(32, bx * 8 + tx)
                    B[vi] = B[vi] + A[vi]
)");
  EXPECT_TRUE(tir::unify_thread_bindings(f).same_as(f));
}

TEST(UnifyThreadBindings, LargerInnerExtentIsAnError) {
  const char* params = R"(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"))";
  tir::PrimFunc f =
      parse_func(params, R"(        for tx in T.thread_binding(T.int64(32), thread="threadIdx.x"):
            for tx_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(64, tx_1)
                    B[vi] = A[vi]
)");
  EXPECT_EQ(
      unify_error(f),
      "7:13: loop 'tx_1' is bound to threadIdx.x with extent 64 inside loop 'tx', bound to the "
      "same axis with extent 32; a loop nested under a loop bound to the same thread axis "
      "must have a constant extent no larger than the enclosing one's");
}

TEST(UnifyThreadBindings, SymbolicInnerExtentIsAnError) {
  tir::PrimFunc f = parse_func("var_A: T.handle", R"(        n = T.int32()
        A = T.match_buffer(var_A, (n,), "int32")
        for ty in T.thread_binding(16, thread="threadIdx.y"):
            for ty_1 in T.thread_binding(n, thread="threadIdx.y"):
                with T.block("A"):
                    vi = T.axis.spatial(n, ty_1)
                    A[vi] = 1
)");
  std::string message = unify_error(f);
  EXPECT_EQ(message.rfind("9:13: loop 'ty_1' is bound", 0), 0u) << message;
  EXPECT_NE(message.find("loop 'ty_1' is bound to threadIdx.y with extent n inside loop 'ty', "
                         "bound to the same axis with extent 16"),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace relaxc
