# nn.conv2d legalized to one reduction block over (input channel of the group, kernel
# row, kernel column) with a guarded read through the padding, over a symbolic batch
# and image size; run on lavapipe against NumPy: groups with stride and padding (NCHW),
# NHWC data with an HWIO kernel and dilation, depthwise with asymmetric padding.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      a: R.Tensor((n, 4, (h + 1) // 2, (w + 1) // 2), dtype="float32") = R.call_tir(cls.conv2d, (x, wa), out_sinfo=R.Tensor((n, 4, (h + 1) // 2, (w + 1) // 2), dtype="float32"))
# CHECK:      def conv2d(var_data: T.handle, weight: T.Buffer((T.int64(4), T.int64(3), T.int64(3), T.int64(3))), var_T_conv2d: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK:          v_ax0, v_ax1, v_ax2, v_ax3, v_k0, v_k1, v_k2 = T.axis.remap("SSSSRRR", [ax0, ax1, ax2, ax3, k0, k1, k2])
# CHECK:          with T.init():
# CHECK-NEXT:         T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(0)
# CHECK-NEXT:     T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] = T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 * T.int64(2) + v_k1 - T.int64(1) >= T.int64(0) and v_ax2 * T.int64(2) + v_k1 - T.int64(1) < h and v_ax3 * T.int64(2) + v_k2 - T.int64(1) >= T.int64(0) and v_ax3 * T.int64(2) + v_k2 - T.int64(1) < w, data[v_ax0, v_ax1 // T.int64(2) * T.int64(3) + v_k0, v_ax2 * T.int64(2) + v_k1 - T.int64(1), v_ax3 * T.int64(2) + v_k2 - T.int64(1)], T.float32(0)) * weight[v_ax1, v_k0, v_k1, v_k2]
# CHECK:      def conv2d1(
# CHECK:          T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] = T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] + data[v_ax0, v_ax1 + v_k1 * T.int64(2), v_ax2 + v_k2 * T.int64(2), v_k0] * weight[v_k1, v_k2, v_k0, v_ax3]
#
# RUN: %op_check %s --work %t --input x:n,6,h,w:float32 --input wa:4,3,3,3:float32 --input xh:n,h,w,6:float32 --input wh:3,3,6,5:float32 --input wd:6,1,3,2:float32 --sizes n=1,h=5,w=7 --sizes n=3,h=16,w=11 --reference "(P := __import__('spatial_ref')) and (P.conv(x, wa, [2, 2], [1, 1, 1, 1], [1, 1], 2), P.conv(xh.transpose(0, 3, 1, 2), wh.transpose(3, 2, 0, 1), [1, 1], [0, 0, 0, 0], [2, 2]).transpose(0, 2, 3, 1), P.conv(x, wd, [1, 1], [1, 0, 2, 1], [1, 1], 6))" --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 6 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6, "h", "w"), dtype="float32"), wa: R.Tensor((4, 3, 3, 3), dtype="float32"), xh: R.Tensor(("n", "h", "w", 6), dtype="float32"), wh: R.Tensor((3, 3, 6, 5), dtype="float32"), wd: R.Tensor((6, 1, 3, 2), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            a = R.nn.conv2d(x, wa, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=2, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            b = R.nn.conv2d(xh, wh, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[2, 2], groups=1, data_layout="NHWC", kernel_layout="HWIO", out_layout="NHWC", out_dtype="void")
            c = R.nn.conv2d(x, wd, padding=[1, 0, 2, 1], groups=6)
            R.output(a, b, c)
        return (a, b, c)
