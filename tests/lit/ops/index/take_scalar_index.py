# R.take with a PrimValue index (one index, a 0-d tensor of indices), as TVM's tests and
# the ONNX Gather of a scalar write it: the axis disappears from the result. Negative
# indices count from the end.
#
# RUN: %relaxc print %s | FileCheck %s
# CHECK: a: R.Tensor((n,), dtype="float32") = R.take(x, R.prim_value(T.int64(2)), axis=1, mode="fast")
# CHECK: b: R.Tensor((5,), dtype="float32") = R.take(x, R.prim_value(T.int64(-1)), axis=0, mode="fast")
#
# RUN: %op_check %s --work %t --input x:n,5:float32 --sizes n=1 --sizes n=300 --reference "(x[:, 2], x[-1, :])" | FileCheck %s --check-prefix=NUMPY
# NUMPY: ok: 2 size(s), 4 output(s) match NumPy
#
# RUN: sed -e 's/T.int64(2)/T.float32(2)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=DTYPE
# DTYPE: error: R.take: argument 'indices' must have an integer dtype, got float32

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            a = R.take(x, R.prim_value(T.int64(2)), axis=1)
            b = R.take(x, R.prim_value(T.int64(-1)), axis=0)
            r = (a, b)
            R.output(r)
        return r
