# Booleans have logic, not arithmetic: + and * on bool operands are refused where they
# are written (no back end defines them), with the operators to use instead.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s
# CHECK: tir_bool_arithmetic.py:[[@LINE+9]]:31: error: [tir] 'a[vi] * b[vi]' is arithmetic on booleans; use and, or, not (or cast the operands to an integer type)

@I.ir_module
class Module:
    @T.prim_func
    def f(a: T.Buffer((4,), "bool"), b: T.Buffer((4,), "bool"), c: T.Buffer((4,), "bool")):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            with T.block("c"):
                vi = T.axis.spatial(4, i)
                c[vi] = a[vi] * b[vi]
