# Vector loads on Vulkan: storage buffers are arrays of scalars, so a vectorized loop's
# load of 4 consecutive floats from a buffer the kernel only reads, at an index that is a
# multiple of 4, goes through a second variable of the same binding that views the
# buffer as an array of vec4 (NonWritable, like the buffer); other loads go lane by lane.
# RUN: %relaxc codegen --target "vulkan -profile=desktop" %s | FileCheck %s
# RUN: %relaxc codegen --target "vulkan -profile=desktop -version=1.3" %s | FileCheck %s

# CHECK: OpDecorate %A_vec4 DescriptorSet 0
# CHECK: OpDecorate %A_vec4 Binding 0
# CHECK: OpDecorate %A_vec4 NonWritable
# CHECK-NOT: OpDecorate %{{[A-Za-z]+}}_vec4 Binding
# CHECK: OpTypeRuntimeArray %v4float
# CHECK: OpFunction
# CHECK: OpLoad %v4float
# CHECK: OpFunctionEnd
# The rows of 5 start at 5 * i: lane by lane. And the buffer the kernel also writes.
# CHECK: OpFunction
# CHECK-NOT: OpLoad %v4float
# CHECK: OpFunctionEnd
# CHECK: OpFunction
# CHECK-NOT: OpLoad %v4float
# CHECK: OpFunctionEnd

@I.ir_module
class Module:
    @T.prim_func
    def aligned(A: T.Buffer((256, 4), "float32"), B: T.Buffer((256, 4), "float32")):
        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                for v in T.vectorized(4):
                    with T.block("B"):
                        vi = T.axis.spatial(256, bx * 64 + tx)
                        vj = T.axis.spatial(4, v)
                        B[vi, vj] = A[vi, vj] * T.float32(2)

    @T.prim_func
    def unaligned(A: T.Buffer((256, 5), "float32"), B: T.Buffer((256, 4), "float32")):
        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                for v in T.vectorized(4):
                    with T.block("B"):
                        vi = T.axis.spatial(256, bx * 64 + tx)
                        vj = T.axis.spatial(4, v)
                        B[vi, vj] = A[vi, vj] * T.float32(2)

    @T.prim_func
    def in_place(A: T.Buffer((256, 4), "float32")):
        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                for v in T.vectorized(4):
                    with T.block("A"):
                        vi = T.axis.spatial(256, bx * 64 + tx)
                        vj = T.axis.spatial(4, v)
                        A[vi, vj] = A[vi, vj] * T.float32(2)
