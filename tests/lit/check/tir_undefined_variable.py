# TensorIR: a variable used but not defined (m is declared, but no buffer shape,
# parameter, loop or let defines it), reported once.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func
    def kernel(a: T.handle):
        n = T.int64()
        m = T.int64()
        A = T.match_buffer(a, (n,))
        # CHECK: tir_undefined_variable.py:[[@LINE+1]]:9: error: [tir] variable 'm' is used but not defined in PrimFunc 'kernel'
        for i in range(m):
            A[i] = T.float32(0)
        for j in range(m):
            A[j] = T.float32(1)
