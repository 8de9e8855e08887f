# A kernel's "local" allocations are per thread and bounded by the target's local memory
# per thread (16 KiB on Vulkan, 512 KiB on CUDA): a kernel that needs more is refused at
# its largest buffer, with the bytes and the limit. Before, a 2.4 GB local buffer compiled.
#
# RUN: not %relaxc codegen --target "vulkan -profile=desktop" %s 2>&1 | FileCheck %s --check-prefix=VULKAN --implicit-check-not=error:
# RUN: not %relaxc codegen --target cuda %s 2>&1 | FileCheck %s --check-prefix=CUDA --implicit-check-not=error:
# RUN: not %relaxc build --target "vulkan -profile=desktop" -o %t.rxe %s 2>&1 | FileCheck %s --check-prefix=VULKAN --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func
    def big(A: T.Buffer((4,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for t in T.thread_binding(4, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(4, t)
                    small = T.alloc_buffer((16,), "float32", scope="local")
                    # VULKAN: local_memory_limit.py:[[@LINE+2]]:21: error: kernel 'big_kernel' uses 2400000064 bytes of local memory per thread (buffers 'small' 64, 'L' 2400000000 bytes); target 'vulkan -profile=desktop' allows at most 16384
                    # CUDA: local_memory_limit.py:[[@LINE+1]]:21: error: kernel 'big_kernel' uses 2400000064 bytes of local memory per thread (buffers 'small' 64, 'L' 2400000000 bytes); target 'cuda -arch=sm_80' allows at most 524288
                    L = T.alloc_buffer((600000000,), "float32", scope="local")
                    for j in range(600000000):
                        L[j] = T.float32(1)
                    for j in range(16):
                        small[j] = L[j * 3]
                    A[vi] = small[vi * 2] + L[vi * 7]
