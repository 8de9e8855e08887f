# A vectorized loop (a thread's row of 4 floats, under a tail guard) becomes one vector
# load and one vector store in PTX, and OpTypeVector arithmetic in SPIR-V.
# RUN: %relaxc codegen --target "cuda -arch=sm_90" %s | FileCheck %s --check-prefix=PTX
# RUN: %relaxc codegen --target "vulkan -profile=desktop" %s | FileCheck %s --check-prefix=SPIRV

# PTX: .entry scale4_kernel
# PTX: ld.global.nc.v4.f32 {{{%f[0-9]+, %f[0-9]+, %f[0-9]+, %f[0-9]+}}}
# PTX: st.global.v4.f32
# PTX-NOT: st.global.f32

# SPIRV: OpTypeVector %float 4
# SPIRV: OpFMul %v4float

@I.ir_module
class Module:
    @T.prim_func
    def scale4(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(4)), "float32")
        B = T.match_buffer(b, (n, T.int64(4)), "float32")
        for bx in T.thread_binding((n + T.int64(63)) // T.int64(64), thread="blockIdx.x"):
            for tx in T.thread_binding(T.int64(64), thread="threadIdx.x"):
                for v in T.vectorized(T.int64(4)):
                    with T.block("B"):
                        vi = T.axis.spatial(n, bx * T.int64(64) + tx)
                        vj = T.axis.spatial(T.int64(4), v)
                        T.where(bx * T.int64(64) + tx < n)
                        B[vi, vj] = A[vi, vj] * T.float32(2)
