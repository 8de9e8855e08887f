# relaxc codegen --target cuda: the default GPU schedule, kernel lowering, LLVM NVPTX.
# RUN: %relaxc codegen --target "cuda -arch=sm_90" %s | FileCheck %s --check-prefix=SM90
# RUN: %relaxc codegen --target "cuda -arch=sm_80" %s | FileCheck %s --check-prefix=SM80
# RUN: not %relaxc codegen --target "cuda -arch=sm_60" %s 2>&1 | FileCheck %s --check-prefix=OLD

# SM90: // target: cuda -arch=sm_90
# SM90: // kernel add_kernel
# SM90: .version 7.8
# SM90: .target sm_90
# SM90: .visible .entry add_kernel(
# SM90-NEXT: .param .u64 {{.*}}add_kernel_param_0,
# SM90-NEXT: .param .u64 {{.*}}add_kernel_param_1,
# SM90-NEXT: .param .u64 {{.*}}add_kernel_param_2,
# SM90-NEXT: .param .u32 {{.*}}add_kernel_param_3
# SM90: .reqntid 256, 1, 1
# SM90: %ctaid.x
# SM90: %tid.x
# SM90: ld.global.nc.f32
# SM90: add.f32
# SM90: st.global.f32
# SM90: // kernel row_sum_kernel
# SM90: .shared .align {{[0-9]+}} .b8 S_shared[
# The cross-thread sum: shuffles within each warp, the warps' sums through shared memory,
# shuffles again in the first warp.
# SM90: shfl.sync.down.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 16, 31, -1;
# SM90: shfl.sync.down.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 1, 31, -1;
# SM90: st.shared.f32
# SM90: bar.sync 0
# SM90: @{{%p[0-9]+}} bra
# SM90: ld.shared.f32
# SM90: shfl.sync.down.b32

# SM80: .version 7.0
# SM80: .target sm_80
# SM80: shfl.sync.down.b32

# OLD: error: invalid target 'cuda -arch=sm_60': -arch sm_60 is not supported; expected sm_70 ... sm_90

@I.ir_module
class Module:
    @T.prim_func
    def add(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        C = T.match_buffer(c, (n,), "float32")
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]

    @T.prim_func
    def row_sum(a: T.handle, s: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(300)), "float32")
        S = T.match_buffer(s, (n,), "float32")
        for i, k in T.grid(n, T.int64(300)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
