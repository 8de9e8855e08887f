# softmax along the last axis (300 elements a row: not a multiple of the 256 threads)
# and log_softmax along the symbolic axis; run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,300:float32:-8,8 --sizes n=1 --sizes n=257 --reference "(np.exp(x - x.max(-1, keepdims=True)) / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True), x - x.max(0) - np.log(np.exp(x - x.max(0)).sum(0)))" | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 4 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 300), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            s = R.nn.softmax(x, axis=-1)
            l = R.nn.log_softmax(x, axis=0)
            gv = (s, l)
            R.output(gv)
        return gv
