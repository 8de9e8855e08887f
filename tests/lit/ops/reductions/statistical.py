# The reductions over a list of axes, negative axes, every axis (None) and keepdims, on
# a symbolic batch, legalized to TensorIR and run on lavapipe against NumPy (n = 300:
# 4500 elements folded by max, not a multiple of the 256 threads).
#
# RUN: %op_check %s --work %t --input x:n,3,5:float32 --sizes n=1 --sizes n=300 --reference "(x.sum(1), x.mean(axis=(2, 0), keepdims=True), x.max(), x.min(2), x.prod(1, keepdims=True), x.var(axis=(0, 2)), x.std(-1))" | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 14 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 5), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            s = R.sum(x, axis=[1], keepdims=False)
            me = R.mean(x, axis=[-1, 0], keepdims=True)
            mx = R.max(x, axis=None, keepdims=False)
            mn = R.min(x, axis=[2], keepdims=False)
            p = R.prod(x, axis=[1], keepdims=True)
            v = R.variance(x, axis=[0, 2], keepdims=False)
            sd = R.std(x, axis=[-1], keepdims=False)
            gv = (s, me, mx, mn, p, v, sd)
            R.output(gv)
        return gv
