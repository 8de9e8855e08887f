// Tests of legalize_bfloat16 as text in / expected text out (structural equality): bfloat16
// buffers as uint16 bits, loads widened to float32, each operation rounded to nearest
// even, constants rounded at compile time; kernels left alone where bfloat16 is native or
// cannot be emulated, and the errors for what cannot be emulated.
#include <gtest/gtest.h>

#include <string>

#include "ir/module.h"
#include "ir/target/target.h"
#include "ir/text/parser.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "tests/support/errors.h"
#include "tests/unit/lower_to_kernels_checks.h"

namespace relaxc {
namespace {

using lowering_checks::expect_same;

// The kernel f(params) whose body is `body` (lines indented by 8 spaces).
tir::PrimFunc kernel(const std::string& params, const std::string& body) {
  std::string source =
      "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(" + params + "):\n" + body;
  IRModule m = text::parse_module(source, "bf16.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined());
  return f;
}

// The uint16 bits of the bfloat16 nearest the float32 `value`, through the uint32 let
// variable `bits`: ties to even, a NaN quiet with its sign and high payload.
std::string rounded_bits(const std::string& bits, const std::string& value) {
  std::string high = "T.shift_right(" + bits + ", T.uint32(16))";
  return "T.Let(T.Cast(\"uint16\", T.Select(T.bitwise_and(" + bits +
         ", T.uint32(0x7fffffff)) > T.uint32(0x7f800000), T.bitwise_or(" + high +
         ", T.uint32(0x40)), T.shift_right(" + bits + " + (T.uint32(0x7fff) + T.bitwise_and(" +
         high + ", T.uint32(1))), T.uint32(16)))), where={" + bits +
         ": T.reinterpret(\"uint32\", " + value + ")})";
}

// The float32 of bfloat16 bits.
std::string widened(const std::string& bits) {
  return "T.reinterpret(\"float32\", T.shift_left(T.Cast(\"uint32\", " + bits + "), T.uint32(16)))";
}

Target vulkan() { return vulkan_profile("desktop"); }

constexpr const char* kCastParams =
    R"(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "bfloat16"), C: T.Buffer((4,), "float32"))";
constexpr const char* kCastBody = R"(        for i in range(4):
            B[i] = T.Cast("bfloat16", A[i])
            C[i] = T.Cast("float32", B[i])
)";

TEST(LegalizeBfloat16, CastsThroughUint16Bits) {
  tir::PrimFunc legalized = tir::legalize_bfloat16(kernel(kCastParams, kCastBody), vulkan());
  std::string expected =
      "        bits = T.uint32()\n        for i in range(4):\n"
      "            B[i] = " +
      rounded_bits("bits", "A[i]") + "\n            C[i] = " + widened("B[i]") + "\n";
  expect_same(kernel(R"(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "uint16"), )"
                     R"(C: T.Buffer((4,), "float32"))",
                     expected),
              legalized);
}

// Each operation rounds once; the store takes the bits of the last rounding. The constant
// 1 + 2^-8 lies halfway between the bfloat16 values 1 and 1 + 2^-7: it rounds to even, 1.
TEST(LegalizeBfloat16, ArithmeticRoundsEachOperation) {
  tir::PrimFunc before = kernel(R"(A: T.Buffer((4,), "bfloat16"), B: T.Buffer((4,), "bfloat16"))",
                                R"(        for i in range(4):
            B[i] = A[i] * A[i] + T.bfloat16(1.00390625)
)");
  std::string a = widened("A[i]");
  std::string product = widened(rounded_bits("p", a + " * " + a));
  std::string after =
      "        p = T.uint32()\n        s = T.uint32()\n"
      "        for i in range(4):\n            B[i] = " +
      rounded_bits("s", product + " + T.float32(1.0)") + "\n";
  expect_same(kernel(R"(A: T.Buffer((4,), "uint16"), B: T.Buffer((4,), "uint16"))", after),
              tir::legalize_bfloat16(before, vulkan()));
}

// min, max and select pick a bfloat16 value: no rounding; comparisons compare float32.
TEST(LegalizeBfloat16, ExactOperationsDoNotRound) {
  tir::PrimFunc before = kernel(R"(A: T.Buffer((4,), "bfloat16"), B: T.Buffer((4,), "bfloat16"))",
                                R"(        for i in range(4):
            B[i] = T.Select(A[i] > T.bfloat16(0), T.max(A[i], B[i]), A[i])
)");
  std::string a = widened("A[i]");
  std::string value =
      "T.Select(" + a + " > T.float32(0), T.max(" + a + ", " + widened("B[i]") + "), " + a + ")";
  std::string after = "        s = T.uint32()\n        for i in range(4):\n            B[i] = " +
                      rounded_bits("s", value) + "\n";
  expect_same(kernel(R"(A: T.Buffer((4,), "uint16"), B: T.Buffer((4,), "uint16"))", after),
              tir::legalize_bfloat16(before, vulkan()));
}

// A local bfloat16 buffer becomes uint16 too; reinterpreting to bfloat16 takes the bits
// as they are, and from bfloat16 gives the rounded bits.
TEST(LegalizeBfloat16, ReinterpretAndLocalBuffers) {
  tir::PrimFunc before = kernel(R"(A: T.Buffer((4,), "bfloat16"), B: T.Buffer((4,), "int16"))",
                                R"(        for i in range(4):
            L = T.alloc_buffer((1,), "bfloat16", scope="local")
            L[0] = T.reinterpret("bfloat16", B[i])
            B[i] = T.reinterpret("int16", L[0] + A[i])
)");
  std::string sum = widened("L[0]") + " + " + widened("A[i]");
  std::string after = R"(        s = T.uint32()
        for i in range(4):
            L = T.alloc_buffer((1,), "uint16", scope="local")
            L[0] = T.reinterpret("uint16", B[i])
            B[i] = T.reinterpret("int16", )" +
                      rounded_bits("s", sum) + ")\n";
  expect_same(kernel(R"(A: T.Buffer((4,), "uint16"), B: T.Buffer((4,), "int16"))", after),
              tir::legalize_bfloat16(before, vulkan()));
}

TEST(LegalizeBfloat16, NativeOrImpossibleLeftAlone) {
  tir::PrimFunc before = kernel(kCastParams, kCastBody);
  EXPECT_TRUE(vulkan().emulates_bfloat16());
  EXPECT_FALSE(cuda_target(80).emulates_bfloat16());
  EXPECT_TRUE(tir::legalize_bfloat16(before, cuda_target(80)).same_as(before));
  // The mobile profile has no 16-bit storage: the kernel stays, and the check refuses it.
  Target mobile = vulkan_profile("mobile");
  EXPECT_FALSE(mobile.emulates_bfloat16());
  tir::PrimFunc kept = tir::legalize_bfloat16(before, mobile);
  EXPECT_TRUE(kept.same_as(before));
  EXPECT_EQ(error_of([&] { tir::check_kernel_limits(tir::launch_of_kernel(kept, "k"), mobile); }),
            "buffer 'B' of kernel 'k' has dtype bfloat16, which target 'vulkan -profile=mobile' "
            "does not support; bfloat16 is emulated in 16-bit integer storage, which it lacks");
  EXPECT_EQ(error_of([&] {
              tir::check_kernel_limits(tir::launch_of_kernel(kept, "k"), cuda_target(70));
            }),
            "buffer 'B' of kernel 'k' has dtype bfloat16, which target 'cuda -arch=sm_70' does "
            "not support; bfloat16 arithmetic needs sm_80 or later");
}

TEST(LegalizeBfloat16, RefusesBfloat16Scalars) {
  tir::PrimFunc f = kernel(R"(A: T.Buffer((4,), "bfloat16"), s: T.bfloat16)",
                           "        for i in range(4):\n            A[i] = s\n");
  EXPECT_EQ(error_of([&] { tir::legalize_bfloat16(f, vulkan()); }),
            "scalar parameter 's' has dtype bfloat16, which target 'vulkan -profile=desktop' "
            "emulates only in buffers; pass it in a tensor");
}

}  // namespace
}  // namespace relaxc
