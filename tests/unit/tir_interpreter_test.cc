// Tests of the reference TensorIR interpreter: results against loops written here, and
// its refusals (out-of-bounds, a block value outside its domain, too long a loop).
#include "tests/support/tir_interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "ir/text/parser.h"
#include "tests/support/kernel_suite.h"

namespace relaxc::testing {
namespace {

tir::PrimFunc parse_func(const std::string& source, const std::string& name = "f") {
  IRModule m = text::parse_module(source, "interp.py");
  tir::PrimFunc f = m->prim_func(name);
  EXPECT_TRUE(f.defined()) << "no PrimFunc " << name;
  return f;
}

std::string error_of(const tir::PrimFunc& f, std::vector<HostArray*> arrays,
                     const std::map<std::string, int64_t>& scalars = {}) {
  try {
    interpret(f, std::move(arrays), scalars);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

constexpr const char* kVectorAdd = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
)";

TEST(TirInterpreter, VectorAddWithSymbolicLength) {
  tir::PrimFunc f = parse_func(kVectorAdd);
  for (int64_t n : {1, 7, 300}) {
    HostArray a = random_array(DataType::Float(32), {n}, 1);
    HostArray b = random_array(DataType::Float(32), {n}, 2);
    HostArray c = zeros(DataType::Float(32), {n});
    interpret(f, {&a, &b, &c});
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(c.data[i], static_cast<float>(a.data[i] + b.data[i])) << "n=" << n << " i=" << i;
    }
  }
}

// The bit operators and T.likely (the suite's kernel, unscheduled) against its reference.
TEST(TirInterpreter, BitOperationsMatchTheSuiteReference) {
  const SuiteKernel& kernel = suite_kernel("bit_ops_i32");
  tir::PrimFunc f = parse_func(kernel.source, kernel.name);
  std::vector<HostArray> args = kernel.make_args({{"n", 500}}, 7);
  std::vector<HostArray> expected = args;
  kernel.reference(expected);
  interpret(f, {&args[0], &args[1], &args[2]});
  EXPECT_EQ(args[2].data, expected[2].data);
}

// ~ of a bool is its negation; >> of an unsigned value is logical.
TEST(TirInterpreter, BitOperationsOfBoolAndUnsigned) {
  tir::PrimFunc f = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(U: T.Buffer((2,), "uint32"), Q: T.Buffer((2,), "int8")):
        for i in range(2):
            U[i] = U[i] >> T.uint32(28) | U[i] << T.uint32(4)
            Q[i] = T.Cast("int8", ~(Q[i] > 0) ^ (i == 1))
)");
  HostArray u = zeros(DataType::UInt(32), {2});
  u.data = {4026531841.0, 18.0};  // 0xF0000001 rotates to 0x1F
  HostArray q = zeros(DataType::Int(8), {2});
  q.data = {1, 1};
  interpret(f, {&u, &q});
  EXPECT_EQ(u.data, (std::vector<double>{31.0, 288.0}));
  EXPECT_EQ(q.data, (std::vector<double>{0.0, 1.0}));
}

constexpr const char* kMatmul = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16, 8), "float32"), B: T.Buffer((8, 12), "float32"), C: T.Buffer((16, 12), "float32")):
        for i, j, k in T.grid(16, 12, 8):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";

TEST(TirInterpreter, MatmulRunsInitOnFirstReductionStep) {
  tir::PrimFunc f = parse_func(kMatmul);
  HostArray a = random_array(DataType::Float(32), {16, 8}, 3);
  HostArray b = random_array(DataType::Float(32), {8, 12}, 4);
  // Garbage in C: the init must overwrite it.
  HostArray c = random_array(DataType::Float(32), {16, 12}, 5, 100.0, 200.0);
  interpret(f, {&a, &b, &c});
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 12; ++j) {
      double expected = 0.0;
      for (int k = 0; k < 8; ++k) expected += a.data[i * 8 + k] * b.data[k * 12 + j];
      EXPECT_NEAR(c.data[i * 12 + j], expected, 1e-5);
    }
  }
}

constexpr const char* kRowSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_S: T.handle):
        m = T.int64()
        A = T.match_buffer(var_A, (m, T.int64(10)), "int32")
        S = T.match_buffer(var_S, (m,), "int32")
        for i, k in T.grid(m, T.int64(10)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = 0
                S[vi] = S[vi] + A[vi, vk] * 2
)";

TEST(TirInterpreter, IntegerRowSumWithInit) {
  tir::PrimFunc f = parse_func(kRowSum);
  HostArray a = random_array(DataType::Int(32), {5, 10}, 6, -50, 50);
  HostArray s = zeros(DataType::Int(32), {5});
  interpret(f, {&a, &s});
  for (int i = 0; i < 5; ++i) {
    double expected = 0;
    for (int k = 0; k < 10; ++k) expected += 2 * a.data[i * 10 + k];
    EXPECT_EQ(s.data[i], expected);
  }
}

// A split loop with its tail guard, thread-bound loops, a local buffer, a LetStmt and
// an if: what a schedule produces.
constexpr const char* kGuarded = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        for i_0 in T.thread_binding((n + T.int64(3)) // T.int64(4), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(4), thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                    T.where(i_0 * T.int64(4) + i_1 < n)
                    acc = T.alloc_buffer((1,), scope="local")
                    x: T.float32 = T.tanh(A[vi])
                    acc[0] = T.exp(x)
                    if A[vi] > T.float32(0):
                        B[vi] = acc[0]
                    else:
                        B[vi] = T.float32(-1)
)";

TEST(TirInterpreter, PredicateLocalBufferLetAndIf) {
  tir::PrimFunc f = parse_func(kGuarded);
  for (int64_t n : {1, 4, 10}) {
    HostArray a = random_array(DataType::Float(32), {n}, 7);
    HostArray b = zeros(DataType::Float(32), {n});
    interpret(f, {&a, &b});
    for (int64_t i = 0; i < n; ++i) {
      double expected = a.data[i] > 0 ? std::exp(std::tanh(a.data[i])) : -1.0;
      EXPECT_NEAR(b.data[i], expected, 1e-6) << "n=" << n << " i=" << i;
    }
  }
}

TEST(TirInterpreter, MissingPredicateIsReportedAsOutOfDomain) {
  std::string source = kGuarded;
  source.erase(source.find("                    T.where"),
               std::string("                    T.where(i_0 * T.int64(4) + i_1 < n)\n").size());
  tir::PrimFunc f = parse_func(source);
  HostArray a = random_array(DataType::Float(32), {6}, 7);
  HostArray b = zeros(DataType::Float(32), {6});
  EXPECT_EQ(error_of(f, {&a, &b}),
            "block 'B': iteration variable 'vi' = 6 is outside its domain [0, 6)");
}

TEST(TirInterpreter, OutOfBoundsAccessNamesBufferAndIndex) {
  tir::PrimFunc f = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((4, 3), "float32")):
        for i, j in T.grid(4, 4):
            A[i, j] = T.float32(1)
)");
  HostArray a = zeros(DataType::Float(32), {4, 3});
  EXPECT_EQ(error_of(f, {&a}), "out-of-bounds access A[0, 3]: dimension 1 has extent 3");
}

TEST(TirInterpreter, FlatBufferAndAllocate) {
  // Lowered form: an Allocate outside blocks, flat buffers, a scalar parameter, and the
  // barrier as a no-op.
  tir::PrimFunc f = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((12,), "float32"), B: T.Buffer((12,), "float32"), scale: T.int32):
        tmp = T.alloc_buffer((12,), scope="shared")
        for i in range(12):
            tmp[i] = A[i] * T.Cast("float32", scale)
        T.tvm_storage_sync("shared")
        for i in range(12):
            B[11 - i] = tmp[i]
)");
  HostArray a = random_array(DataType::Float(32), {12}, 8);
  HostArray b = zeros(DataType::Float(32), {12});
  interpret(f, {&a, &b}, {{"scale", 3}});
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(b.data[11 - i], static_cast<float>(a.data[i] * 3));
  }
  EXPECT_EQ(error_of(f, {&a, &b}), "no value for scalar parameter 'scale'");
}

TEST(TirInterpreter, RefusesHugeLoopsAndMismatchedArrays) {
  tir::PrimFunc huge = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((1,), "float32")):
        for i in range(200000000):
            A[0] = A[0] + T.float32(1)
)");
  HostArray one = zeros(DataType::Float(32), {1});
  EXPECT_EQ(error_of(huge, {&one}),
            "loop 'i' has the extent 200000000, over the interpreter's limit of 1e8");

  tir::PrimFunc f = parse_func(kMatmul);
  HostArray a = zeros(DataType::Float(32), {16, 9});
  HostArray b = zeros(DataType::Float(32), {8, 12});
  HostArray c = zeros(DataType::Float(32), {16, 12});
  EXPECT_EQ(error_of(f, {&a, &b, &c}), "buffer 'A' dimension 1 is 8, the array's 9");
  EXPECT_EQ(error_of(f, {&a, &b}), "no array for buffer parameter 'C'");
}

TEST(TirInterpreter, Float16RoundsEveryOperation) {
  tir::PrimFunc f = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((3,), "float16"), B: T.Buffer((3,), "float16")):
        for i in range(3):
            with T.block("B"):
                vi = T.axis.spatial(3, i)
                B[vi] = A[vi] * T.float16(3) + T.float16(1)
)");
  HostArray a = random_array(DataType::Float(16), {3}, 9);
  HostArray b = zeros(DataType::Float(16), {3});
  interpret(f, {&a, &b});
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(b.data[i], round_to_fp16(round_to_fp16(a.data[i] * 3) + 1));
  }
}

}  // namespace
}  // namespace relaxc::testing
