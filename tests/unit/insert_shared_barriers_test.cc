// Tests of insert_shared_barriers as text in / expected text out (structural equality):
// where barriers go between the accesses of a block's threads to the buffers they share,
// and where they do not.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc {
namespace {

void expect_same(const tir::PrimFunc& expected, const tir::PrimFunc& actual) {
  std::optional<std::string> diff = structural_mismatch(expected, actual);
  EXPECT_FALSE(diff.has_value()) << *diff << "\nexpected:\n"
                                 << text::print_node(expected) << "\nactual:\n"
                                 << text::print_node(actual);
}

// A kernel of 64 threads with shared buffers S and U, whose body is `body` (lines
// indented by 12 spaces).
tir::PrimFunc shared_kernel(const std::string& body) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((256,), "float32"), B: T.Buffer((256,), "float32"), n: T.int32):
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            S = T.alloc_buffer((64,), scope="shared")
            U = T.alloc_buffer((64,), scope="shared")
)" + body;
  IRModule m = text::parse_module(source, "barriers.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined());
  return f;
}

constexpr const char* kSync = "T.evaluate(T.tvm_storage_sync(\"shared\"))";

void expect_barriers(const std::string& body, const std::string& expected_body) {
  tir::PrimFunc placed = tir::insert_shared_barriers(shared_kernel(body));
  expect_same(shared_kernel(expected_body), placed);
}

std::string lines(const std::vector<std::string>& text) {
  std::string out;
  for (const std::string& line : text) out += "            " + line + "\n";
  return out;
}

TEST(SharedBarriers, NoneBetweenStatementsSharingNoBuffer) {
  tir::PrimFunc unchanged = shared_kernel(lines({"S[tx] = A[tx]", "B[tx] = A[63 - tx]"}));
  EXPECT_TRUE(tir::insert_shared_barriers(unchanged).same_as(unchanged));
  // Conflicts are by buffer (any element, any thread): one barrier before the read of S
  // and U, none between their writes or before the global store.
  expect_barriers(lines({"S[tx] = A[tx]", "U[tx] = A[tx + 64]", "B[tx] = A[tx + 128]",
                         "B[tx + 64] = S[tx] + U[tx]"}),
                  lines({"S[tx] = A[tx]", "U[tx] = A[tx + 64]", "B[tx] = A[tx + 128]", kSync,
                         "B[tx + 64] = S[tx] + U[tx]"}));
  // Write after read.
  expect_barriers(lines({"S[tx] = A[tx]", "B[tx] = U[tx]", "U[tx] = A[tx + 64]"}),
                  lines({"S[tx] = A[tx]", "B[tx] = U[tx]", kSync, "U[tx] = A[tx + 64]"}));
}

TEST(SharedBarriers, GlobalPerBlockResults) {
  // Thread 0 writes a value for its block into global memory, which every thread reads: a
  // barrier in between, as for shared memory.
  expect_barriers(lines({"if tx == 0:", "    B[0] = A[0]", "B[tx + 64] = B[0]"}),
                  lines({"if tx == 0:", "    B[0] = A[0]", kSync, "B[tx + 64] = B[0]"}));
  // Global elements written per thread are that thread's own.
  tir::PrimFunc own = shared_kernel(lines({"B[tx] = A[tx]", "B[tx + 64] = B[tx]"}));
  EXPECT_TRUE(tir::insert_shared_barriers(own).same_as(own));
}

TEST(SharedBarriers, HoistedOutOfThreadConditions) {
  // The write and the read are each under `tx < 32`: the barrier goes between the two
  // conditions, where all 64 threads arrive.
  expect_barriers(
      lines({"if tx < 32:", "    S[tx] = A[tx]", "if tx < 32:", "    B[tx] = S[31 - tx]"}),
      lines({"if tx < 32:", "    S[tx] = A[tx]", kSync, "if tx < 32:", "    B[tx] = S[31 - tx]"}));
  // One condition over both is split around the barrier; a condition that reads memory
  // (which the first part may change) is not, nor one with an else.
  expect_barriers(lines({"if tx < 32:", "    S[tx] = A[tx]", "    B[tx] = A[tx + 64]",
                         "    B[tx + 64] = S[31 - tx]"}),
                  lines({"if tx < 32:", "    S[tx] = A[tx]", "    B[tx] = A[tx + 64]", kSync,
                         "if tx < 32:", "    B[tx + 64] = S[31 - tx]"}));
  std::string reads_memory =
      lines({"if A[tx] < T.float32(0):", "    S[tx] = A[tx]", "    B[tx] = S[31 - tx]"});
  expect_barriers(reads_memory, reads_memory);
  // A condition every thread evaluates alike (on a shape value) may hold a barrier.
  expect_barriers(lines({"if n > 4:", "    S[tx] = A[tx]", "    B[tx] = S[63 - tx]"}),
                  lines({"if n > 4:", "    S[tx] = A[tx]", "    " + std::string(kSync),
                         "    B[tx] = S[63 - tx]"}));
  // A loop whose trip count depends on the thread is one opaque statement too.
  expect_barriers(lines({"for i in range(tx):", "    S[tx] = A[i]", "B[tx] = S[63 - tx]"}),
                  lines({"for i in range(tx):", "    S[tx] = A[i]", kSync, "B[tx] = S[63 - tx]"}));
}

TEST(SharedBarriers, LoopsReusingATile) {
  // Each iteration overwrites the tile the previous one read: a barrier at the end of the
  // body, after the one between the write and the read.
  expect_barriers(
      lines(
          {"for i in range(4):", "    S[tx] = A[i * 64 + tx]", "    B[i * 64 + tx] = S[63 - tx]"}),
      lines({"for i in range(4):", "    S[tx] = A[i * 64 + tx]", "    " + std::string(kSync),
             "    B[i * 64 + tx] = S[63 - tx]", "    " + std::string(kSync)}));
  // A loop that only writes needs none inside; its reader waits once, before its loop.
  expect_barriers(lines({"for i in range(2):", "    U[i * 32 + tx // 2] = A[i * 64 + tx]",
                         "for j in range(4):", "    B[j * 64 + tx] = U[63 - tx]"}),
                  lines({"for i in range(2):", "    U[i * 32 + tx // 2] = A[i * 64 + tx]", kSync,
                         "for j in range(4):", "    B[j * 64 + tx] = U[63 - tx]"}));
  // A vectorized loop's iterations are lanes of one thread.
  std::string lanes =
      lines({"for v in T.vectorized(2):", "    S[v * 32 + tx // 2] = S[v * 32 + tx // 2] + A[tx]"});
  expect_barriers(lanes, lanes);
  // A body that already ends with a barrier gets no second one.
  std::string synced =
      lines({"for i in range(4):", "    S[tx] = A[i * 64 + tx]", "    " + std::string(kSync),
             "    B[i * 64 + tx] = S[63 - tx]", "    " + std::string(kSync)});
  expect_barriers(synced, synced);
}

}  // namespace
}  // namespace relaxc
