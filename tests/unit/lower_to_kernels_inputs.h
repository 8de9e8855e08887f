// Hand-scheduled TensorIR functions, the inputs of the kernel lowering tests.
#pragma once

namespace relaxc::tir_inputs {

// C = A + B over a symbolic n, 256 threads per block, with a tail guard.
inline constexpr const char* kVectorAdd = R"(@I.ir_module
class Module:
    @T.prim_func
    def add(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i_0 in T.thread_binding((n + T.int64(255)) // T.int64(256), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.block("C"):
                    vi = T.axis.spatial(n, i_0 * T.int64(256) + i_1)
                    T.where(i_0 * T.int64(256) + i_1 < n)
                    T.reads(A[vi], B[vi])
                    T.writes(C[vi])
                    C[vi] = A[vi] + B[vi]
)";

// B = A^T over symbolic m x n, 16 x 16 threads per block (2-D thread binding).
inline constexpr const char* kTranspose = R"(@I.ir_module
class Module:
    @T.prim_func
    def transpose(var_A: T.handle, var_B: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(var_A, (m, n))
        B = T.match_buffer(var_B, (n, m))
        for by in T.thread_binding((m + T.int64(15)) // T.int64(16), thread="blockIdx.y"):
            for bx in T.thread_binding((n + T.int64(15)) // T.int64(16), thread="blockIdx.x"):
                for ty in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                    for tx in T.thread_binding(T.int64(16), thread="threadIdx.x"):
                        with T.block("B"):
                            vi = T.axis.spatial(m, by * T.int64(16) + ty)
                            vj = T.axis.spatial(n, bx * T.int64(16) + tx)
                            T.where(by * T.int64(16) + ty < m and bx * T.int64(16) + tx < n)
                            T.reads(A[vi, vj])
                            T.writes(B[vj, vi])
                            B[vj, vi] = A[vi, vj]
)";

// S[b] = sum of the 1000 elements of row b: one block per row, the reduction split
// 4 x 256 with the inner loop on threadIdx.x (a cross-thread reduction) and a tail guard.
inline constexpr const char* kRowSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def row_sum(var_A: T.handle, var_S: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(1000)))
        S = T.match_buffer(var_S, (n,))
        for b in T.thread_binding(n, thread="blockIdx.x"):
            for ko in range(T.int64(4)):
                for tx in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                    with T.block("S"):
                        vb = T.axis.spatial(n, b)
                        vk = T.axis.reduce(T.int64(1000), ko * T.int64(256) + tx)
                        T.where(ko * T.int64(256) + tx < T.int64(1000))
                        T.reads(A[vb, vk])
                        T.writes(S[vb])
                        with T.init():
                            S[vb] = T.float32(0)
                        S[vb] = S[vb] + A[vb, vk]
)";

// Row softmax over a symbolic number of rows of 300: a cross-thread max and a
// cross-thread sum into shared buffers, then the normalized row, in one kernel.
inline constexpr const char* kSoftmax = R"(@I.ir_module
class Module:
    @T.prim_func
    def softmax(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(300)))
        B = T.match_buffer(var_B, (n, T.int64(300)))
        row_max = T.alloc_buffer((n,), scope="shared")
        row_sum = T.alloc_buffer((n,), scope="shared")
        for b in T.thread_binding(n, thread="blockIdx.x"):
            for ko in range(T.int64(3)):
                for tx in T.thread_binding(T.int64(128), thread="threadIdx.x"):
                    with T.block("max"):
                        vb = T.axis.spatial(n, b)
                        vk = T.axis.reduce(T.int64(300), ko * T.int64(128) + tx)
                        T.where(ko * T.int64(128) + tx < T.int64(300))
                        T.reads(A[vb, vk])
                        T.writes(row_max[vb])
                        with T.init():
                            row_max[vb] = T.float32(-3.4028234663852886e+38)
                        row_max[vb] = T.max(row_max[vb], A[vb, vk])
            for ko in range(T.int64(3)):
                for tx in T.thread_binding(T.int64(128), thread="threadIdx.x"):
                    with T.block("sum"):
                        vb = T.axis.spatial(n, b)
                        vk = T.axis.reduce(T.int64(300), ko * T.int64(128) + tx)
                        T.where(ko * T.int64(128) + tx < T.int64(300))
                        T.reads(A[vb, vk], row_max[vb])
                        T.writes(row_sum[vb])
                        with T.init():
                            row_sum[vb] = T.float32(0)
                        row_sum[vb] = row_sum[vb] + T.exp(A[vb, vk] - row_max[vb])
            for ko in range(T.int64(3)):
                for tx in T.thread_binding(T.int64(128), thread="threadIdx.x"):
                    with T.block("B"):
                        vb = T.axis.spatial(n, b)
                        vj = T.axis.spatial(T.int64(300), ko * T.int64(128) + tx)
                        T.where(ko * T.int64(128) + tx < T.int64(300))
                        T.reads(A[vb, vj], row_max[vb], row_sum[vb])
                        T.writes(B[vb, vj])
                        B[vb, vj] = T.exp(A[vb, vj] - row_max[vb]) / row_sum[vb]
)";

// C = A B over symbolic m, n, k: 16 x 16 tiles of A and B in shared memory (allocated at
// the root with full shapes, as cache_read leaves them), a local accumulator per thread.
inline constexpr const char* kMatmul = R"(@I.ir_module
class Module:
    @T.prim_func
    def matmul(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        A = T.match_buffer(var_A, (m, k))
        B = T.match_buffer(var_B, (k, n))
        C = T.match_buffer(var_C, (m, n))
        A_shared = T.alloc_buffer((m, k), scope="shared")
        B_shared = T.alloc_buffer((k, n), scope="shared")
        C_local = T.alloc_buffer((m, n), scope="local")
        for by in T.thread_binding((m + T.int64(15)) // T.int64(16), thread="blockIdx.y"):
            for bx in T.thread_binding((n + T.int64(15)) // T.int64(16), thread="blockIdx.x"):
                for ty in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                    for tx in T.thread_binding(T.int64(16), thread="threadIdx.x"):
                        with T.block("C_init"):
                            vi = T.axis.spatial(m, by * T.int64(16) + ty)
                            vj = T.axis.spatial(n, bx * T.int64(16) + tx)
                            T.where(by * T.int64(16) + ty < m and bx * T.int64(16) + tx < n)
                            C_local[vi, vj] = T.float32(0)
                for ko in range((k + T.int64(15)) // T.int64(16)):
                    for ty in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                        for tx in T.thread_binding(T.int64(16), thread="threadIdx.x"):
                            with T.block("A_shared"):
                                vi = T.axis.spatial(m, by * T.int64(16) + ty)
                                vk = T.axis.spatial(k, ko * T.int64(16) + tx)
                                T.where(by * T.int64(16) + ty < m and ko * T.int64(16) + tx < k)
                                A_shared[vi, vk] = A[vi, vk]
                    for ty in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                        for tx in T.thread_binding(T.int64(16), thread="threadIdx.x"):
                            with T.block("B_shared"):
                                vk = T.axis.spatial(k, ko * T.int64(16) + ty)
                                vj = T.axis.spatial(n, bx * T.int64(16) + tx)
                                T.where(ko * T.int64(16) + ty < k and bx * T.int64(16) + tx < n)
                                B_shared[vk, vj] = B[vk, vj]
                    for ty in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                        for tx in T.thread_binding(T.int64(16), thread="threadIdx.x"):
                            for ki in range(T.int64(16)):
                                with T.block("C_update"):
                                    vi = T.axis.spatial(m, by * T.int64(16) + ty)
                                    vj = T.axis.spatial(n, bx * T.int64(16) + tx)
                                    vk = T.axis.reduce(k, ko * T.int64(16) + ki)
                                    T.where(by * T.int64(16) + ty < m and bx * T.int64(16) + tx < n and ko * T.int64(16) + ki < k)
                                    C_local[vi, vj] = C_local[vi, vj] + A_shared[vi, vk] * B_shared[vk, vj]
                for ty in T.thread_binding(T.int64(16), thread="threadIdx.y"):
                    for tx in T.thread_binding(T.int64(16), thread="threadIdx.x"):
                        with T.block("C"):
                            vi = T.axis.spatial(m, by * T.int64(16) + ty)
                            vj = T.axis.spatial(n, bx * T.int64(16) + tx)
                            T.where(by * T.int64(16) + ty < m and bx * T.int64(16) + tx < n)
                            C[vi, vj] = C_local[vi, vj]
)";

// C = A B as schedule_tiled_matmul leaves it: 32 x 32 tiles per block of 8 x 32 threads,
// k in steps of 16; the copies of the A and B tiles into shared memory are computed at
// the k loop and bound to the threads of the enclosing loops again (cooperative fetch),
// so after unify_thread_bindings the k loop's body is: copy A, copy B, compute.
inline constexpr const char* kCooperativeMatmul = R"(@I.ir_module
class Module:
    @T.prim_func
    def matmul(a: T.handle, b: T.handle, c: T.handle):
        m = T.int64()
        k = T.int64()
        n = T.int64()
        A = T.match_buffer(a, (m, k))
        B = T.match_buffer(b, (k, n))
        C = T.match_buffer(c, (m, n))
        C_local = T.alloc_buffer((m, n), scope="local")
        A_shared = T.alloc_buffer((m, k), scope="shared")
        B_shared = T.alloc_buffer((k, n), scope="shared")
        for i_0 in T.thread_binding((m + T.int64(31)) // T.int64(32), thread="blockIdx.y"):
            for j_0 in T.thread_binding((n + T.int64(31)) // T.int64(32), thread="blockIdx.x"):
                for i_1 in T.thread_binding(T.int64(8), thread="threadIdx.y"):
                    for j_1 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                        for r_0 in range((k + T.int64(15)) // T.int64(16)):
                            for ax0_ax1_fused_0 in range(T.int64(2)):
                                for ax0_ax1_fused_1 in T.thread_binding(T.int64(8), thread="threadIdx.y"):
                                    for ax0_ax1_fused_2 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                                        with T.block("A_shared"):
                                            v0 = T.axis.spatial(m, i_0 * T.int64(32) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) // T.int64(16))
                                            v1 = T.axis.spatial(k, r_0 * T.int64(16) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) % T.int64(16))
                                            T.where(i_0 * T.int64(32) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) // T.int64(16) < m and r_0 * T.int64(16) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) % T.int64(16) < k)
                                            T.reads(A[v0, v1])
                                            T.writes(A_shared[v0, v1])
                                            A_shared[v0, v1] = A[v0, v1]
                            for ax0_ax1_fused_0 in range(T.int64(2)):
                                for ax0_ax1_fused_1 in T.thread_binding(T.int64(8), thread="threadIdx.y"):
                                    for ax0_ax1_fused_2 in T.thread_binding(T.int64(32), thread="threadIdx.x"):
                                        with T.block("B_shared"):
                                            v0 = T.axis.spatial(k, r_0 * T.int64(16) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) // T.int64(32))
                                            v1 = T.axis.spatial(n, j_0 * T.int64(32) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) % T.int64(32))
                                            T.where(r_0 * T.int64(16) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) // T.int64(32) < k and j_0 * T.int64(32) + ((ax0_ax1_fused_0 * T.int64(8) + ax0_ax1_fused_1) * T.int64(32) + ax0_ax1_fused_2) % T.int64(32) < n)
                                            T.reads(B[v0, v1])
                                            T.writes(B_shared[v0, v1])
                                            B_shared[v0, v1] = B[v0, v1]
                            for r_1, i_2 in T.grid(T.int64(16), T.int64(4)):
                                with T.block("C"):
                                    vi = T.axis.spatial(m, (i_0 * T.int64(8) + i_1) * T.int64(4) + i_2)
                                    vj = T.axis.spatial(n, j_0 * T.int64(32) + j_1)
                                    vr = T.axis.reduce(k, r_0 * T.int64(16) + r_1)
                                    T.where((i_0 * T.int64(8) + i_1) * T.int64(4) + i_2 < m and j_0 * T.int64(32) + j_1 < n and r_0 * T.int64(16) + r_1 < k)
                                    T.reads(A_shared[vi, vr], B_shared[vr, vj])
                                    T.writes(C_local[vi, vj])
                                    with T.init():
                                        C_local[vi, vj] = T.float32(0)
                                    C_local[vi, vj] = C_local[vi, vj] + A_shared[vi, vr] * B_shared[vr, vj]
                        for ax0 in range(T.int64(4)):
                            with T.block("C_local"):
                                v0 = T.axis.spatial(m, i_0 * T.int64(32) + i_1 * T.int64(4) + ax0)
                                v1 = T.axis.spatial(n, j_0 * T.int64(32) + j_1)
                                T.where(i_0 * T.int64(32) + i_1 * T.int64(4) + ax0 < m and j_0 * T.int64(32) + j_1 < n)
                                T.reads(C_local[v0, v1])
                                T.writes(C[v0, v1])
                                C[v0, v1] = C_local[v0, v1]
)";

// B = A * 2 + 1 in two kernels through a global intermediate (a workspace).
inline constexpr const char* kTwoKernels = R"(@I.ir_module
class Module:
    @T.prim_func
    def two_kernels(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        tmp = T.alloc_buffer((n,))
        for i_0 in T.thread_binding((n + T.int64(63)) // T.int64(64), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("tmp"):
                    vi = T.axis.spatial(n, i_0 * T.int64(64) + i_1)
                    T.where(i_0 * T.int64(64) + i_1 < n)
                    tmp[vi] = A[vi] * T.float32(2)
        for i_0 in T.thread_binding((n + T.int64(63)) // T.int64(64), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                with T.block("B"):
                    vi = T.axis.spatial(n, i_0 * T.int64(64) + i_1)
                    T.where(i_0 * T.int64(64) + i_1 < n)
                    B[vi] = tmp[vi] + T.float32(1)
)";

}  // namespace relaxc::tir_inputs
