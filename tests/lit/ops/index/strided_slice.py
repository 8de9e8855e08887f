# strided_slice as TVM prints it and as written by hand: negative axes and begins,
# reverse strides, ends past the dimension, an end of INT64_MAX (ONNX); legalized to TensorIR and
# run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      a: R.Tensor((n, 3), dtype="float32") = R.call_tir(cls.strided_slice, (x,), out_sinfo=R.Tensor((n, 3), dtype="float32"))
# CHECK:      def strided_slice(
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK:          T_strided_slice[v_ax0, v_ax1] = x[v_ax0, T.int64(5) + v_ax1 * T.int64(-2)]
#
# RUN: %op_check %s --work %t --input x:n,7:float32 --sizes n=1 --sizes n=5 --sizes n=300 --reference "(x[:, 5:0:-2], x[1:100, -4:], x[-1:-100:-1, 0:100:3], x[x.shape[0] - 1:0:-1], x[1:x.shape[0]])" | FileCheck %s --check-prefix=NUM
# NUM: ok: 3 size(s), 15 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 7), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            a = R.strided_slice(x, (R.prim_value(1),), (R.prim_value(5),), (R.prim_value(0),), (R.prim_value(-2),), assume_inbound=False)
            b = R.strided_slice(x, axes=[0, -1], begin=[1, -4], end=[100, 7])
            c = R.strided_slice(x, axes=[1, 0], begin=[0, -1], end=[100, -100], strides=[3, -1])
            d = R.strided_slice(x, (R.prim_value(0),), (R.prim_value(-1),), (R.prim_value(0),), (R.prim_value(-1),))
            e = R.strided_slice(x, (R.prim_value(0),), (R.prim_value(1),), (R.prim_value(9223372036854775807),))
            R.output(a, b, c, d, e)
        return (a, b, c, d, e)
