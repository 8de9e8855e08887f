// Tests of prefetch_tile_copies as text in / expected text out (structural equality), and
// of the pipelined kernel on the interpreter against the kernel as it was: the next tiles
// are loaded into registers before this iteration's work, the first ones before the loop,
// the barriers stay where they were, and a loop of another form is left as it is.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc {
namespace {

// A kernel of 4 threads over A (8 k steps of 8 elements) and B (8 k steps of 4, the last
// 2 elements past its end), whose k loop (the last statement, as the register
// allocations that the pass puts around it reach to the end of the text's block) has the
// body `body` (lines indented by 16 spaces).
tir::PrimFunc tile_kernel(const std::string& loop, const std::string& body,
                          const std::string& before_loop = "") {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((64,), "float32"), B: T.Buffer((30,), "float32"), O: T.Buffer((4,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            S = T.alloc_buffer((8,), scope="shared")
            U = T.alloc_buffer((4,), scope="shared")
            acc = T.alloc_buffer((1,), scope="local")
            acc[0] = T.float32(0)
)" + before_loop + "            " +
                       loop + ":\n" + body;
  IRModule m = text::parse_module(source, "prefetch.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined());
  return f;
}

void expect_same(const tir::PrimFunc& expected, const tir::PrimFunc& actual) {
  std::optional<std::string> diff = structural_mismatch(expected, actual);
  EXPECT_FALSE(diff.has_value()) << *diff << "\nexpected:\n"
                                 << text::print_node(expected) << "\nactual:\n"
                                 << text::print_node(actual);
}

constexpr const char* kAnnotated =
    R"(for k in T.serial(8, annotations={"prefetch_tile_copies": 1}))";
constexpr const char* kPlain = "for k in range(8)";
// A vectorized copy of A's 8 elements of step k, a guarded copy of B's 4, then (after the
// barrier that insert_shared_barriers puts there) the work, which reads the thread's own
// elements of both tiles (the interpreter runs the threads one after another).
constexpr const char* kCopiesThenWork = R"(                for v in T.vectorized(2):
                    S[t * 2 + v] = A[k * 8 + t * 2 + v]
                if k * 4 + t < 30:
                    U[t] = B[k * 4 + t]
                T.evaluate(T.tvm_storage_sync("shared"))
                acc[0] = acc[0] * T.float32(0.5) + S[t * 2 + 1] + U[t]
                O[t] = acc[0]
                T.evaluate(T.tvm_storage_sync("shared"))
)";

TEST(PrefetchTileCopies, LoadsTheNextTilesWhileThisOneComputes) {
  tir::PrimFunc pipelined = tir::prefetch_tile_copies(tile_kernel(kAnnotated, kCopiesThenWork));
  expect_same(tile_kernel(kPlain, R"(                for v in T.vectorized(2):
                    S[t * 2 + v] = S_next[v]
                if k * 4 + t < 30:
                    U[t] = U_next[0]
                if k < 0 + 8 - 1:
                    for v_next in T.vectorized(2):
                        S_next[v_next] = A[(k + 1) * 8 + t * 2 + v_next]
                    if (k + 1) * 4 + t < 30:
                        U_next[0] = B[(k + 1) * 4 + t]
                T.evaluate(T.tvm_storage_sync("shared"))
                acc[0] = acc[0] * T.float32(0.5) + S[t * 2 + 1] + U[t]
                O[t] = acc[0]
                T.evaluate(T.tvm_storage_sync("shared"))
)",
                          R"(            S_next = T.alloc_buffer((2,), scope="local")
            U_next = T.alloc_buffer((1,), scope="local")
            for v_next in T.vectorized(2):
                S_next[v_next] = A[0 * 8 + t * 2 + v_next]
            if 0 * 4 + t < 30:
                U_next[0] = B[0 * 4 + t]
)"),
              pipelined);
  // The same totals as the loop that copies and then computes.
  testing::expect_same_results(tile_kernel(kPlain, kCopiesThenWork), pipelined, {{64}, {30}, {4}},
                               7);
}

TEST(PrefetchTileCopies, OtherLoopsOnlyLoseTheAnnotation) {
  // The work comes first: nothing to load ahead of it.
  constexpr const char* work_first = R"(                acc[0] = acc[0] + S[t]
                S[t] = A[k * 8 + t]
)";
  expect_same(tile_kernel(kPlain, work_first),
              tir::prefetch_tile_copies(tile_kernel(kAnnotated, work_first)));
  // A copy that reads shared memory is not a tile copy.
  constexpr const char* shared_source = R"(                S[t] = U[t]
                acc[0] = acc[0] + S[(t + 1) % 4]
)";
  expect_same(tile_kernel(kPlain, shared_source),
              tir::prefetch_tile_copies(tile_kernel(kAnnotated, shared_source)));
  // Copies alone: no work to overlap them with.
  constexpr const char* copies_only = R"(                S[t] = A[k * 8 + t]
)";
  expect_same(tile_kernel(kPlain, copies_only),
              tir::prefetch_tile_copies(tile_kernel(kAnnotated, copies_only)));
}

}  // namespace
}  // namespace relaxc
