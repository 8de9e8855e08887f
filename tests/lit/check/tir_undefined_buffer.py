# TensorIR: a buffer used but not defined. The parser rejects the unknown name before
# the checker runs (the checker's report is tested in tests/unit/well_formed_test.cc,
# TirUndefinedVarsAndBuffersAndIterValueCount).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func
    def kernel(A: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("A"):
                vi = T.axis.spatial(4, i)
                # CHECK: tir_undefined_buffer.py:[[@LINE+1]]:25: error: unknown name 'B'
                A[vi] = B[vi]
