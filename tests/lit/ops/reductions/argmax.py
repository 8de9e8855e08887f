# argmax/argmin over one axis, a negative axis, keepdims and the flattened tensor, on
# floats and on integers with ties (the first position holding the extreme, as NumPy
# gives it), run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,7:float32 --input y:n,7:int32:-3,3 --sizes n=1 --sizes n=300 --reference "(x.argmax(-1), x.argmin(0)[None, :], np.array(x.argmax()), y.argmax(1), np.array(y.argmin()))" | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 10 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 7), dtype="float32"), y: R.Tensor(("n", 7), dtype="int32")):
        n = T.int64()
        with R.dataflow():
            a = R.argmax(x, axis=-1, keepdims=False)
            b = R.argmin(x, axis=0, keepdims=True)
            c = R.argmax(x, axis=None, keepdims=False)
            d = R.argmax(y, axis=1, keepdims=False)
            e = R.argmin(y, axis=None, keepdims=False)
            gv = (a, b, c, d, e)
            R.output(gv)
        return gv
