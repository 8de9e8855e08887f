# Kernels compute indices in 32 bits: a constant index, or a buffer's flat size, that
# does not fit is an error at the buffer or access it belongs to.
#
# RUN: not %relaxc codegen --target vulkan %s 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: not %relaxc build --target vulkan -o %t.rxe %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func
    def far(A: T.Buffer((T.int64(4),), "float32"), y: T.Buffer((T.int64(4),), "float32")):
        for i in range(T.int64(4)):
            with T.block("A"):
                vi = T.axis.spatial(T.int64(4), i)
                # CHECK: index_over_32_bits.py:[[@LINE+1]]:32: error: the index value 10000000000 does not fit in 32 bits, which kernels compute indices in
                y[vi] = A[vi * T.int64(10000000000)]
