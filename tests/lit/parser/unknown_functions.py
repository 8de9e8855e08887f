# Unknown operators, T. functions and names are errors at the start of what is unknown.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s
# RUN: sed 's/R.nn.relu(/R.nn.reluu(/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=OP
# RUN: sed 's/T.exp(/T.expp(/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=TIR

@I.ir_module
class Module:
    @T.prim_func
    def exp(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                T.reads(A[vi])
                T.writes(B[vi])
                # TIR: <stdin>:[[@LINE+1]]:25: error: unknown TensorIR function 'T.expp'
                B[vi] = T.exp(A[vi])

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            # OP: <stdin>:[[@LINE+1]]:50: error: unknown operator 'R.nn.reluu'
            z: R.Tensor((4,), dtype="float32") = R.nn.relu(y)
            # CHECK: unknown_functions.py:[[@LINE+1]]:35: error: unknown name 'n'
            w = R.add(z, R.shape([n]))
            R.output(w)
        return w
