# layer_norm over two axes, rms_norm over the last, group_norm (3 groups of 2 channels)
# and instance_norm on a symbolic batch, with their scales and shifts; run on lavapipe
# against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,4,37:float32 --input g:4,37:float32 --input b:4,37:float32 --input w:37:float32 --input y:n,6,5,5:float32 --input g6:6:float32 --input b6:6:float32 --sizes n=1 --sizes n=300 --reference "((x - x.mean((1, 2), keepdims=True)) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-5) * g + b, x / np.sqrt((x * x).mean(-1, keepdims=True) + 1e-5) * w, ((lambda r: (r - r.mean((2, 3, 4), keepdims=True)) / np.sqrt(r.var((2, 3, 4), keepdims=True) + 1e-5))(y.reshape(n, 3, 2, 5, 5))).reshape(y.shape) * g6[:, None, None] + b6[:, None, None], (y - y.mean((2, 3), keepdims=True)) / np.sqrt(y.var((2, 3), keepdims=True) + 1e-5) * g6[:, None, None] + b6[:, None, None])" --atol 1e-4 | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 8 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4, 37), dtype="float32"), g: R.Tensor((4, 37), dtype="float32"), b: R.Tensor((4, 37), dtype="float32"), w: R.Tensor((37,), dtype="float32"), y: R.Tensor(("n", 6, 5, 5), dtype="float32"), g6: R.Tensor((6,), dtype="float32"), b6: R.Tensor((6,), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            ln = R.nn.layer_norm(x, g, b, axes=[-2, -1], epsilon=1e-05, center=True, scale=True)
            rms = R.nn.rms_norm(x, w, axes=[-1], epsilon=1e-05)
            gn = R.nn.group_norm(y, g6, b6, num_groups=3, channel_axis=1, axes=[2, 3], epsilon=1e-05, center=True, scale=True)
            inn = R.nn.instance_norm(y, g6, b6, channel_axis=1, axes=[2, 3], epsilon=1e-05, center=True, scale=True)
            gv = (ln, rms, gn, inn)
            R.output(gv)
        return gv
