# nn.pad legalized to one injective compute over the output: a guarded read for the
# constant mode, mirrored (reflect) or clamped (edge) indices; over symbolic sizes, run
# on lavapipe against NumPy's np.pad.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      def pad(var_data: T.handle, var_T_pad: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK:          T_pad[v_ax0, v_ax1, v_ax2] = T.if_then_else(v_ax1 - T.int64(1) >= T.int64(0) and v_ax1 - T.int64(1) < m and v_ax2 - T.int64(3) >= T.int64(0), data[v_ax0, v_ax1 - T.int64(1), v_ax2 - T.int64(3)], T.float32(1.5))
# CHECK:      def pad1(
# CHECK:          T_pad[v_ax0, v_ax1, v_ax2] = data[v_ax0, T.Select(
# CHECK:      def pad2(
# CHECK:          T_pad[v_ax0, v_ax1, v_ax2] = data[v_ax0, T.min(T.max(v_ax1 - T.int64(2), T.int64(0)), m - T.int64(1)), T.min(T.max(v_ax2 - T.int64(1), T.int64(0)), k - T.int64(1))]
#
# RUN: %op_check %s --work %t --input x:n,m,k:float32 --sizes n=1,m=4,k=5 --sizes n=3,m=17,k=29 --reference "(np.pad(x, ((0, 0), (1, 2), (3, 0)), constant_values=1.5), np.pad(x, ((0, 0), (2, 3), (1, 1)), mode='reflect'), np.pad(x, ((0, 0), (2, 0), (1, 4)), mode='edge'))" | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 6 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m", "k"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        with R.dataflow():
            a = R.nn.pad(x, pad_width=[0, 0, 1, 2, 3, 0], pad_value=1.5, pad_mode="constant")
            b = R.nn.pad(x, pad_width=[0, 0, 2, 3, 1, 1], pad_mode="reflect")
            c = R.nn.pad(x, pad_width=[0, 0, 2, 0, 1, 4], pad_mode="edge")
            R.output(a, b, c)
        return (a, b, c)
