# nn.conv1d (NCW, and NWC with a WIO kernel) and nn.conv2d_transpose (strides, padding,
# output_padding, dilation, groups) legalized to one reduction block each, over a
# symbolic batch and length; run on lavapipe against NumPy. A transposed convolution
# reads data[(y + pad - k * dilation) / stride] where the division is exact.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      def conv1d(var_data: T.handle, weight: T.Buffer((T.int64(4), T.int64(3), T.int64(3))), var_T_conv1d: T.handle):
# CHECK:          T_conv1d[v_ax0, v_ax1, v_ax2] = T_conv1d[v_ax0, v_ax1, v_ax2] + data[v_ax0, v_k0, v_ax2 * T.int64(2) + v_k1] * weight[v_ax1, v_k0, v_k1]
# CHECK:      def conv2d_transpose(var_data: T.handle, weight: T.Buffer((T.int64(4), T.int64(3), T.int64(3), T.int64(2))), var_T_conv2d_transpose: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK:          T_conv2d_transpose[v_ax0, v_ax1, v_ax2, v_ax3] = T_conv2d_transpose[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 - v_k1 * T.int64(2) + T.int64(1) >= T.int64(0) and (v_ax2 - v_k1 * T.int64(2) + T.int64(1)) % T.int64(2) == T.int64(0)
#
# RUN: %op_check %s --work %t --input x:n,3,l:float32 --input w1:4,3,3:float32 --input xl:n,l,3:float32 --input w2:2,3,4:float32 --input xt:n,4,l,l:float32 --input wt:4,3,3,2:float32 --sizes n=1,l=5 --sizes n=2,l=23 --reference "(P := __import__('spatial_ref')) and (P.conv(x, w1, [2], [0, 0], [1]), P.conv(xl.transpose(0, 2, 1), w2.transpose(2, 1, 0), [1], [1, 2], [2]).transpose(0, 2, 1), P.conv_transpose(xt, wt, [2, 1], [1, 0, 1, 1], [1, 0], [2, 1], 2))" --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 6 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "l"), dtype="float32"), w1: R.Tensor((4, 3, 3), dtype="float32"), xl: R.Tensor(("n", "l", 3), dtype="float32"), w2: R.Tensor((2, 3, 4), dtype="float32"), xt: R.Tensor(("n", 4, "l", "l"), dtype="float32"), wt: R.Tensor((4, 3, 3, 2), dtype="float32")):
        n = T.int64()
        l = T.int64()
        with R.dataflow():
            a = R.nn.conv1d(x, w1, strides=[2], padding=[0, 0], dilation=[1], groups=1, data_layout="NCW", kernel_layout="OIW", out_layout="NCW", out_dtype="void")
            b = R.nn.conv1d(xl, w2, padding=[1, 2], dilation=2, data_layout="NWC", kernel_layout="WIO")
            c = R.nn.conv2d_transpose(xt, wt, strides=[2, 1], padding=[1, 0, 1, 1], output_padding=[1, 0], dilation=[2, 1], groups=2)
            R.output(a, b, c)
        return (a, b, c)
