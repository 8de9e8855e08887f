# Pooling legalized to reductions over the window (max; sum then a division by the
# window's count for the averages), over a symbolic batch and image size; run on
# lavapipe against NumPy: max with padding and ceil_mode, avg with and without
# count_include_pad, NHWC, dilation, adaptive averages (global, and 3x2 windows that
# overlap unevenly).
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      def max_pool2d(var_data: T.handle, var_pool_max: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK:              v_ax0, v_ax1, v_ax2, v_ax3, v_k0, v_k1 = T.axis.remap("SSSSRR", [ax0, ax1, ax2, ax3, k0, k1])
# CHECK:              with T.init():
# CHECK-NEXT:             pool_max[v_ax0, v_ax1, v_ax2, v_ax3] = T.float32(-3.4028234663852886e+38)
# CHECK-NEXT:         pool_max[v_ax0, v_ax1, v_ax2, v_ax3] = T.max(pool_max[v_ax0, v_ax1, v_ax2, v_ax3], T.if_then_else(
# CHECK:      def avg_pool2d(var_data: T.handle, var_pool_avg: T.handle):
# CHECK:              pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else(v_ax2 * T.int64(2) + v_k0 - T.int64(1) >= T.int64(0) and v_ax2 * T.int64(2) + v_k0 - T.int64(1) < h and v_ax3 + v_k1 < w, data[v_ax0, v_ax1, v_ax2 * T.int64(2) + v_k0 - T.int64(1), v_ax3 + v_k1], T.float32(0))
# CHECK:              pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / T.Cast("float32", T.max(T.int64(0), T.min(T.int64(2), h - v_ax2 * T.int64(2)) - T.max(T.int64(0), T.int64(1) - v_ax2 * T.int64(2)) + T.int64(1)) * T.max(T.int64(0), T.min(T.int64(2), w - v_ax3) - T.max(T.int64(0), v_ax3 * T.int64(-1))))
# CHECK:      def adaptive_avg_pool2d(var_data: T.handle, var_adaptive_pool_avg: T.handle):
# CHECK:          with T.block("adaptive_pool_sum"):
# CHECK:              adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] + data[v_ax0, v_ax1, v_k0, v_k1]
# CHECK:          with T.block("adaptive_pool_avg"):
# CHECK:              adaptive_pool_avg[v_ax0, v_ax1, v_ax2, v_ax3] = adaptive_pool_sum[v_ax0, v_ax1, v_ax2, v_ax3] / T.Cast("float32", h * w)
#
# RUN: %op_check %s --work %t --input x:n,3,h,w:float32 --input y:n,h,w,3:float32 --sizes n=1,h=5,w=7 --sizes n=2,h=16,w=11 --reference "(P := __import__('spatial_ref')) and (P.pool(x, 'max', [3, 3], [2, 2], [1, 1, 1, 1], ceil_mode=True), P.pool(x, 'avg', [3, 2], [2, 1], [1, 0, 1, 1]), P.pool(x, 'avg', [3, 3], [2, 2], [1, 1, 1, 1], ceil_mode=True, count_include_pad=True), P.pool(y.transpose(0, 3, 1, 2), 'max', [2, 2], [1, 1], [0, 0, 0, 0], dilation=[2, 2]).transpose(0, 2, 3, 1), P.adaptive_avg_pool(x, 1, 1), P.adaptive_avg_pool(x, 3, 2))" | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 12 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), y: R.Tensor(("n", "h", "w", 3), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            a = R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=True, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            b = R.nn.avg_pool2d(x, pool_size=[3, 2], strides=[2, 1], padding=[1, 0, 1, 1])
            c = R.nn.avg_pool2d(x, pool_size=3, strides=2, padding=1, ceil_mode=True, count_include_pad=True)
            d = R.nn.max_pool2d(y, pool_size=2, dilation=2, layout="NHWC")
            e = R.nn.adaptive_avg_pool2d(x, output_size=[1, 1])
            f = R.nn.adaptive_avg_pool2d(x, output_size=[3, 2])
            R.output(a, b, c, d, e, f)
        return (a, b, c, d, e, f)
