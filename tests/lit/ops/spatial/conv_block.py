# A small CNN as an importer writes it, over a symbolic batch and image size: conv2d +
# bias + relu, max_pool2d, a depthwise-separable pair (depthwise 3x3, pointwise 1x1)
# with relu, avg_pool2d, then a global adaptive average; built with relaxc build (which
# legalizes every operator) and run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK-NOT: R.nn.
# CHECK:     R.call_tir(cls.adaptive_avg_pool2d
#
# RUN: %op_check %s --work %t --input x:n,3,h,w:float32 --input w1:8,3,3,3:float32 --input b1:1,8,1,1:float32 --input wd:8,1,3,3:float32 --input wp:16,8,1,1:float32 --sizes n=1,h=16,w=16 --sizes n=2,h=21,w=19 --reference "(P := __import__('spatial_ref')) and P.adaptive_avg_pool(P.pool(np.maximum(P.conv(np.maximum(P.conv(P.pool(np.maximum(P.conv(x, w1, [1, 1], [1, 1, 1, 1], [1, 1]) + b1, 0), 'max', [2, 2], [2, 2], [0, 0, 0, 0]), wd, [1, 1], [1, 1, 1, 1], [1, 1], 8), 0), wp, [1, 1], [0, 0, 0, 0], [1, 1]), 0), 'avg', [3, 3], [2, 2], [1, 1, 1, 1]), 1, 1)" --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 2 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), w1: R.Tensor((8, 3, 3, 3), dtype="float32"), b1: R.Tensor((1, 8, 1, 1), dtype="float32"), wd: R.Tensor((8, 1, 3, 3), dtype="float32"), wp: R.Tensor((16, 8, 1, 1), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            lv = R.nn.conv2d(x, w1, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1 = R.add(lv, b1)
            lv2 = R.nn.relu(lv1)
            lv3 = R.nn.max_pool2d(lv2, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv4 = R.nn.conv2d(lv3, wd, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=8, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv5 = R.nn.relu(lv4)
            lv6 = R.nn.conv2d(lv5, wp, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv7 = R.nn.relu(lv6)
            lv8 = R.nn.avg_pool2d(lv7, pool_size=[3, 3], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            gv = R.nn.adaptive_avg_pool2d(lv8, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            R.output(gv)
        return gv
