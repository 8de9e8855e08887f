# The PTX of relaxc codegen assembles with ptxas for sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: %relaxc codegen --target "cuda -arch=sm_90" %s -o %t90.ptx
# RUN: %ptxas -arch=sm_90 %t90.ptx -o %t90.cubin
# RUN: %relaxc codegen --target "cuda -arch=sm_80" %s -o %t80.ptx
# RUN: %ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
# RUN: FileCheck %s < %t90.ptx
# CHECK: .entry row_max_kernel

@I.ir_module
class Module:
    @T.prim_func
    def row_max(a: T.handle, m: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(100)), "float32")
        M = T.match_buffer(m, (n,), "float32")
        for i, k in T.grid(n, T.int64(100)):
            with T.block("M"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    M[vi] = T.float32(-3.4028234663852886e+38)
                M[vi] = T.max(M[vi], T.exp(A[vi, vk]))
