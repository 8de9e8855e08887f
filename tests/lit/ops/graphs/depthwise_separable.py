# A depthwise-separable block (MobileNet's) over a symbolic batch, written with
# operators as TVM prints them: a depthwise 3x3 conv2d (groups = channels), relu6 as
# clip(0, 6), a pointwise 1x1 conv2d, relu6. Built with relaxc build, run on lavapipe at
# two batch sizes against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,8,10,10:float32 --input wd:8,1,3,3:float32 --input wp:16,8,1,1:float32:-0.5,0.5 --sizes n=1 --sizes n=3 --reference "__import__('graph_ref').depthwise_separable(x, wd, wp)" --rtol 1e-4 --atol 1e-4 | FileCheck %s
# CHECK: ok: 2 size(s), 2 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8, 10, 10), dtype="float32"), wd: R.Tensor((8, 1, 3, 3), dtype="float32"), wp: R.Tensor((16, 8, 1, 1), dtype="float32")) -> R.Tensor(("n", 16, 10, 10), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.nn.conv2d(x, wd, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=8, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1 = R.clip(lv, R.prim_value(T.float32(0)), R.prim_value(T.float32(6)))
            lv2 = R.nn.conv2d(lv1, wp, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            gv = R.clip(lv2, R.prim_value(T.float32(0)), R.prim_value(T.float32(6)))
            R.output(gv)
        return gv
