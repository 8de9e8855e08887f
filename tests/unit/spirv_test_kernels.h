// Hand-written lowered device kernels (the form lower_to_kernels produces) for the SPIR-V
// code generator's tests: flat buffers first, int32 shape scalars after, thread-bound
// loops outermost.
#pragma once
#include <array>
#include <string>

#include "ir/text/parser.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "passes/tir/lower_to_kernels.h"

namespace relaxc::testing {

inline constexpr const char* kSpirvTestKernels = R"(
@I.ir_module
class Module:
    @T.prim_func
    def vector_add(a: T.handle, b: T.handle, c: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n,))
        C = T.match_buffer(c, (n,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    C[bx * 64 + tx] = A[bx * 64 + tx] + B[bx * 64 + tx]

    @T.prim_func
    def transpose(a: T.handle, b: T.handle, m: T.int32, n: T.int32):
        A = T.match_buffer(a, (m * n,))
        B = T.match_buffer(b, (n * m,))
        for by in T.thread_binding((m + 15) // 16, thread="blockIdx.y"):
            for bx in T.thread_binding((n + 15) // 16, thread="blockIdx.x"):
                for ty in T.thread_binding(16, thread="threadIdx.y"):
                    for tx in T.thread_binding(16, thread="threadIdx.x"):
                        if by * 16 + ty < m and bx * 16 + tx < n:
                            B[(bx * 16 + tx) * m + by * 16 + ty] = A[(by * 16 + ty) * n + bx * 16 + tx]

    @T.prim_func
    def math_chain(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n,))
        for bx in T.thread_binding((n + 127) // 128, thread="blockIdx.x"):
            for tx in T.thread_binding(128, thread="threadIdx.x"):
                if bx * 128 + tx < n:
                    x: T.float32 = A[bx * 128 + tx]
                    B[bx * 128 + tx] = T.erf(T.sigmoid(T.tanh(T.exp(x)))) + T.log2(T.sqrt(T.fabs(x) + T.float32(1)))

    @T.prim_func
    def inverse_and_hyperbolic(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n,))
        for bx in T.thread_binding((n + 127) // 128, thread="blockIdx.x"):
            for tx in T.thread_binding(128, thread="threadIdx.x"):
                if bx * 128 + tx < n:
                    x: T.float32 = A[bx * 128 + tx]
                    B[bx * 128 + tx] = T.asin(x) + T.acos(x) + T.atan(x) + T.sinh(x) + T.cosh(x) + T.asinh(x) + T.acosh(x + T.float32(2)) + T.atanh(x)

    @T.prim_func
    def row_sum(a: T.handle, s: T.handle, rows: T.int32, cols: T.int32):
        A = T.match_buffer(a, (rows * cols,))
        S = T.match_buffer(s, (rows,))
        for bx in T.thread_binding(rows, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                red = T.alloc_buffer((64,), scope="shared")
                acc = T.alloc_buffer((1,), scope="local")
                stride = T.alloc_buffer((1,), "int32", scope="local")
                acc[0] = T.float32(0)
                for k in range((cols + 63) // 64):
                    if k * 64 + tx < cols:
                        acc[0] = acc[0] + A[bx * cols + k * 64 + tx]
                red[tx] = acc[0]
                T.tvm_storage_sync("shared")
                stride[0] = 32
                while stride[0] > 0:
                    if tx < stride[0]:
                        red[tx] = red[tx] + red[tx + stride[0]]
                    T.tvm_storage_sync("shared")
                    stride[0] = stride[0] // 2
                if tx == 0:
                    S[bx] = red[0]

    @T.prim_func
    def matmul_local(a: T.handle, b: T.handle, c: T.handle, m: T.int32, n: T.int32, k: T.int32):
        A = T.match_buffer(a, (m * k,))
        B = T.match_buffer(b, (k * n,))
        C = T.match_buffer(c, (m * n,))
        for by in T.thread_binding((m + 7) // 8, thread="blockIdx.y"):
            for bx in T.thread_binding((n + 7) // 8, thread="blockIdx.x"):
                for ty in T.thread_binding(8, thread="threadIdx.y"):
                    for tx in T.thread_binding(8, thread="threadIdx.x"):
                        acc = T.alloc_buffer((1,), scope="local")
                        if by * 8 + ty < m and bx * 8 + tx < n:
                            acc[0] = T.float32(0)
                            for kk in range(k):
                                acc[0] = acc[0] + A[(by * 8 + ty) * k + kk] * B[kk * n + bx * 8 + tx]
                            C[(by * 8 + ty) * n + bx * 8 + tx] = acc[0]

    @T.prim_func
    def int_ops(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,), "int32")
        B = T.match_buffer(b, (n * 6,), "int32")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    i: T.int32 = bx * 64 + tx
                    B[i * 6] = A[i] // 7
                    B[i * 6 + 1] = A[i] % 7
                    B[i * 6 + 2] = T.truncdiv(A[i], -3)
                    B[i * 6 + 3] = T.truncmod(A[i], -3)
                    B[i * 6 + 4] = T.min(A[i], 5) * T.max(A[i], -5) - A[i] // -4
                    B[i * 6 + 5] = A[i] % -4

    @T.prim_func
    def fp16_scale(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,), "float16")
        B = T.match_buffer(b, (n,), "float16")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    B[bx * 64 + tx] = T.Cast("float16", T.Cast("float32", A[bx * 64 + tx]) * T.float32(0.5)) + T.float16(1)

    @T.prim_func
    def int8_add(a: T.handle, b: T.handle, c: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,), "int8")
        B = T.match_buffer(b, (n,), "int8")
        C = T.match_buffer(c, (n,), "int32")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    B[bx * 64 + tx] = A[bx * 64 + tx] + T.int8(1)
                    C[bx * 64 + tx] = T.Cast("int32", A[bx * 64 + tx]) * 3

    @T.prim_func
    def bool_less(a: T.handle, b: T.handle, c: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n,), "bool")
        C = T.match_buffer(c, (n,), "bool")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    C[bx * 64 + tx] = (A[bx * 64 + tx] < T.float32(0)) != B[bx * 64 + tx]

    @T.prim_func
    def int64_param(a: T.handle, b: T.handle, m: T.int32, n: T.int64):
        A = T.match_buffer(a, (m,))
        B = T.match_buffer(b, (m,))
        for bx in T.thread_binding((m + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if T.Cast("int64", bx * 64 + tx) < n:
                    B[bx * 64 + tx] = A[bx * 64 + tx] * T.float32(2)

    @T.prim_func
    def vectorized(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n * 4,))
        B = T.match_buffer(b, (n * 4,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    for v in T.vectorized(4):
                        B[(bx * 64 + tx) * 4 + v] = A[(bx * 64 + tx) * 4 + v] * T.float32(2) + T.float32(1)

    @T.prim_func
    def vectorized_strided(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n * 8,))
        B = T.match_buffer(b, (n * 8,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    for v in T.vectorized(4):
                        B[(bx * 64 + tx) * 8 + v * 2] = A[(bx * 64 + tx) * 8 + v * 2] + T.float32(1)

    @T.prim_func
    def ramp_store(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (64,))
        B = T.match_buffer(b, (64,))
        for tx in T.thread_binding(16, thread="threadIdx.x"):
            B[T.Ramp(tx * 4, 1, 4)] = A[T.Ramp(tx * 4, 1, 4)] + T.Broadcast(T.float32(1), 4)

    @T.prim_func
    def nested_if(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    B[bx * 64 + tx] = T.float32(0)
                    for k in range(5):
                        if A[bx * 64 + tx] > T.float32(0):
                            if k % 2 == 0:
                                B[bx * 64 + tx] = B[bx * 64 + tx] + A[bx * 64 + tx]
                            else:
                                B[bx * 64 + tx] = B[bx * 64 + tx] - T.float32(1)
                        else:
                            B[bx * 64 + tx] = B[bx * 64 + tx] * T.float32(2) + T.float32(1)

    @T.prim_func
    def select_cast(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n * 3,))
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                i: T.int32 = bx * 64 + tx
                if i < n:
                    B[i * 3] = T.Select(A[i] > T.float32(0), T.Cast("float32", T.Cast("int32", A[i] * T.float32(10))), T.float32(-1))
                    B[i * 3 + 1] = T.Cast("float32", T.Cast("uint32", T.fabs(A[i]) * T.float32(100)))
                    B[i * 3 + 2] = T.if_then_else(i + 1 < n, A[i + 1], T.float32(0)) + T.Cast("float32", i % 2 == 0)

    @T.prim_func
    def two_phases(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (64,))
        B = T.match_buffer(b, (32,))
        for bx in T.thread_binding(1, thread="blockIdx.x"):
            tile = T.alloc_buffer((64,), scope="shared")
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                tile[tx] = A[tx]
                for u in T.unroll(2):
                    tile[tx] = tile[tx] * T.float32(2)
            T.tvm_storage_sync("shared")
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                B[tx] = tile[tx * 2] + tile[tx * 2 + 1]

    @T.prim_func
    def fp64_exp(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (64,), "float64")
        B = T.match_buffer(b, (64,), "float64")
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            B[tx] = T.exp(A[tx])

    @T.prim_func
    def fp64_math(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (64,), "float64")
        B = T.match_buffer(b, (64,), "float64")
        for tx in T.thread_binding(16, thread="threadIdx.x"):
            B[T.Ramp(tx * 4, 1, 4)] = T.exp(A[T.Ramp(tx * 4, 1, 4)]) + T.log(A[T.Ramp(tx * 4, 1, 4)])
            B[tx] = T.exp2(A[tx]) + T.exp10(A[tx]) + T.log2(A[tx]) + T.log10(A[tx]) + T.sigmoid(A[tx]) + T.tanh(A[tx])

    @T.prim_func
    def fp64_sin(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (64,), "float64")
        B = T.match_buffer(b, (64,), "float64")
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            B[tx] = T.sin(A[tx])

    @T.prim_func
    def extern_call(a: T.handle):
        A = T.match_buffer(a, (64,))
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            A[tx] = T.call_extern("float32", "my_func", A[tx])
    @T.prim_func
    def int64_compare(a: T.handle):
        A = T.match_buffer(a, (128,))
        for tx in T.thread_binding(128, thread="threadIdx.x"):
            wide: T.int64 = T.Cast("int64", tx)
            A[tx] = T.Select(wide < T.int64(64), T.float32(1), T.float32(0)) + T.Select(T.int64(100) <= T.Cast("int64", tx), T.float32(2), T.float32(0)) + T.Select(wide + T.int64(1) == T.int64(7), T.float32(4), T.float32(0))
)";

// The kernel "<name>_kernel" made of the PrimFunc `name` above, with the given block size.
inline tir::DeviceKernel kernel_named(const std::string& name, std::array<int64_t, 3> block_size) {
  static const IRModule module = text::parse_module(kSpirvTestKernels, "spirv_test_kernels.py");
  tir::DeviceKernel kernel;
  kernel.name = name + "_kernel";
  // The kernel pipeline's last rewrite, which decides what the back ends emit as vector
  // code (the kernels' vectorized loops have 4 lanes, within every target's limit).
  kernel.func = tir::legalize_vector_loops(module->prim_func(name), vulkan_profile("mobile"));
  kernel.block_size = block_size;
  return kernel;
}

}  // namespace relaxc::testing
