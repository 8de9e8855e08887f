# Reductions of booleans: sum is "any" and prod is "all" (booleans have logic, not
# arithmetic), max and min the same; over a symbolic batch, against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,5:bool --sizes n=1 --sizes n=300 --reference "(x.any(axis=1), x.all(axis=0, keepdims=True), x.any(), x.all(axis=1))" | FileCheck %s
# CHECK: ok: 2 size(s), 8 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="bool")):
        n = T.int64()
        with R.dataflow():
            a = R.sum(x, axis=[1], keepdims=False)
            b = R.prod(x, axis=[0], keepdims=True)
            c = R.max(x, axis=None, keepdims=False)
            d = R.min(x, axis=[1], keepdims=False)
            r = (a, b, c, d)
            R.output(r)
        return r
