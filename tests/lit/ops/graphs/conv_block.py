# A convolution block over a symbolic batch, written with operators as TVM prints them:
# conv2d (padding 1) -> batch_norm (inference: training=False; its tuple's first field)
# -> relu -> max_pool2d 2x2 -> adaptive_avg_pool2d to 1x1 -> reshape -> dense (matmul +
# bias).
# Built with relaxc build, run on lavapipe at two batch sizes against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,3,8,8:float32 --input w:8,3,3,3:float32:-0.5,0.5 --input gamma:8:float32:0.5,1.5 --input beta:8:float32 --input mean:8:float32 --input var:8:float32:0.5,2 --input wd:8,10:float32 --input bd:10:float32 --sizes n=1 --sizes n=5 --reference "__import__('graph_ref').conv_block(x, w, gamma, beta, mean, var, wd, bd)" --rtol 1e-4 --atol 1e-4 | FileCheck %s
# CHECK: ok: 2 size(s), 2 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 8, 8), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32"), gamma: R.Tensor((8,), dtype="float32"), beta: R.Tensor((8,), dtype="float32"), mean: R.Tensor((8,), dtype="float32"), var: R.Tensor((8,), dtype="float32"), wd: R.Tensor((8, 10), dtype="float32"), bd: R.Tensor((10,), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1 = R.nn.batch_norm(lv, gamma, beta, mean, var, axis=1, epsilon=1e-05, center=True, scale=True, momentum=0.1, training=False)
            lv2 = lv1[0]
            lv3 = R.nn.relu(lv2)
            lv4 = R.nn.max_pool2d(lv3, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv5 = R.nn.adaptive_avg_pool2d(lv4, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            lv6 = R.reshape(lv5, R.shape([n, 8]))
            lv7 = R.matmul(lv6, wd, out_dtype="void")
            gv = R.add(lv7, bd)
            R.output(gv)
        return gv
