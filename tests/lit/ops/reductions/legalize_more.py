# legalize-ops on the rest of the family with a symbolic batch: mean and std (a sum,
# then a division; two passes for std), argmin over every axis (a flat position),
# log_softmax, rms_norm, group_norm (statistics per group of 2 channels), batch_norm at
# inference (one call_tir, three outputs), einsum, sort (ranks, then a gather) and
# topk. Every reduction is a block with reduction iterators and T.init.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      me: R.Tensor((n, 6), dtype="float32") = R.call_tir(cls.mean, (x,), out_sinfo=R.Tensor((n, 6), dtype="float32"))
# CHECK:      bn: R.Tuple(R.Tensor((n, 6, 4), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")) = R.call_tir(cls.batch_norm, (x, g, b, g, b), out_sinfo=[R.Tensor((n, 6, 4), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")])
# CHECK:      tk: R.Tuple(R.Tensor((n, 6, 2), dtype="float32"), R.Tensor((n, 6, 2), dtype="int32")) = R.call_tir(cls.topk, (x,), out_sinfo=[R.Tensor((n, 6, 2), dtype="float32"), R.Tensor((n, 6, 2), dtype="int32")])
#
# CHECK-LABEL: def mean(
# CHECK-NEXT:    T.func_attr({"op_pattern": 3, "tir.noalias": True})
# CHECK:           v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
# CHECK:           T_sum[v_ax0, v_ax1] = T_sum[v_ax0, v_ax1] + x[v_ax0, v_ax1, v_k0]
# CHECK:           T_mean[v_ax0, v_ax1] = T_sum[v_ax0, v_ax1] / T.float32(4)
#
# CHECK-LABEL: def std(
# CHECK:           T_mean[v_ax0, v_ax1] = T_sum[v_ax0, v_ax1] / T.Cast("float32", n)
# CHECK:           T_square_sum[v_ax0, v_ax1] = T_square_sum[v_ax0, v_ax1] + (x[v_k0, v_ax0, v_ax1] - T_mean[v_ax0, v_ax1]) * (x[v_k0, v_ax0, v_ax1] - T_mean[v_ax0, v_ax1])
# CHECK:           T_std[v_ax0, v_ax1] = T.sqrt(T_square_sum[v_ax0, v_ax1] / T.Cast("float32", n))
#
# CHECK-LABEL: def argmin(
# CHECK:           v_k0, v_k1, v_k2 = T.axis.remap("RRR", [k0, k1, k2])
# CHECK:           T_min[()] = T.min(T_min[()], x[v_k0, v_k1, v_k2])
# CHECK:           T_argmin_position[()] = T.min(T_argmin_position[()], T.Select(x[v_k0, v_k1, v_k2] == T_min[()], T.Cast("int32", (v_k0 * T.int64(6) + v_k1) * T.int64(4) + v_k2), T.Cast("int32", n * T.int64(24))))
# CHECK:         T_argmin[()] = T.Cast("int64", T_argmin_position[()])
#
# CHECK-LABEL: def log_softmax(
# CHECK:           T_softmax_maxelem[v_ax0, v_ax1] = T.max(T_softmax_maxelem[v_ax0, v_ax1], data[v_ax0, v_k0, v_ax1])
# CHECK:           T_log_softmax_norm[v_ax0, v_ax1, v_ax2] = data[v_ax0, v_ax1, v_ax2] - T_softmax_maxelem[v_ax0, v_ax2] - T.log(T_softmax_expsum[v_ax0, v_ax2])
#
# CHECK-LABEL: def rms_norm(
# CHECK:           T_sum_sq[v_ax0, v_ax1] = T_sum_sq[v_ax0, v_ax1] + data[v_ax0, v_ax1, v_k0] * data[v_ax0, v_ax1, v_k0]
# CHECK:           T_rms_norm[v_ax0, v_ax1, v_ax2] = data[v_ax0, v_ax1, v_ax2] * T.rsqrt(T_sum_sq[v_ax0, v_ax1] / T.float32(4) + T.float32(1e-05)) * weight[v_ax2]
#
# CHECK-LABEL: def group_norm(
# CHECK:         T_sum = T.alloc_buffer((n, T.int64(3)))
# CHECK:           v_ax0, v_ax1, v_k0, v_k1 = T.axis.remap("SSRR", [ax0, ax1, k0, k1])
# CHECK:           T_sum[v_ax0, v_ax1] = T_sum[v_ax0, v_ax1] + data[v_ax0, v_ax1 * T.int64(2) + v_k0, v_k1]
# CHECK:           T_group_norm[v_ax0, v_ax1, v_ax2] = (data[v_ax0, v_ax1, v_ax2] - T_sum[v_ax0, v_ax1 // T.int64(2)] / T.float32(8)) * T.rsqrt(T_square_sum[v_ax0, v_ax1 // T.int64(2)] / T.float32(8) + T.float32(1e-05)) * gamma[v_ax1] + beta[v_ax1]
#
# CHECK-LABEL: def batch_norm(
# CHECK-NEXT:    T.func_attr({"op_pattern": 1, "tir.noalias": True})
# CHECK:           T_moving_mean[v_ax0] = moving_mean[v_ax0]
# CHECK:           T_moving_var[v_ax0] = moving_var[v_ax0]
# CHECK:           T_batch_norm[v_ax0, v_ax1, v_ax2] = (data[v_ax0, v_ax1, v_ax2] - moving_mean[v_ax1]) * T.rsqrt(moving_var[v_ax1] + T.float32(1e-05)) * gamma[v_ax1] + beta[v_ax1]
#
# CHECK-LABEL: def einsum(
# CHECK-NEXT:    T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK:           T_einsum[v_ax0, v_ax1] = T_einsum[v_ax0, v_ax1] + operand0[v_ax0, v_ax1, v_k0] * operand1[v_k0]
#
# CHECK-LABEL: def sort(
# CHECK:         T_rank = T.alloc_buffer((n, T.int64(6), T.int64(4)), "int64")
# CHECK:           v_ax0, v_ax1, v_ax2, v_k0 = T.axis.remap("SSSR", [ax0, ax1, ax2, k0])
# CHECK:           T_rank[v_ax0, v_ax1, v_ax2] = T_rank[v_ax0, v_ax1, v_ax2] + T.Cast("int64", x[v_k0, v_ax1, v_ax2] < x[v_ax0, v_ax1, v_ax2] or x[v_k0, v_ax1, v_ax2] == x[v_ax0, v_ax1, v_ax2] and v_k0 < v_ax0)
# CHECK:           T_sort[v_ax0, v_ax1, v_ax2] = T_sort[v_ax0, v_ax1, v_ax2] + T.Select(T_rank[v_k0, v_ax1, v_ax2] == v_ax0, x[v_k0, v_ax1, v_ax2], T.float32(0))
#
# CHECK-LABEL: def topk(
# CHECK:           T_rank[v_ax0, v_ax1, v_ax2] = T_rank[v_ax0, v_ax1, v_ax2] + T.Cast("int64", data[v_ax0, v_ax1, v_k0] > data[v_ax0, v_ax1, v_ax2] or data[v_ax0, v_ax1, v_k0] == data[v_ax0, v_ax1, v_ax2] and v_k0 < v_ax2)
# CHECK:         for ax0, ax1, ax2, k0 in T.grid(n, T.int64(6), T.int64(2), T.int64(4)):
# CHECK:           T_topk_values[v_ax0, v_ax1, v_ax2] = T_topk_values[v_ax0, v_ax1, v_ax2] + T.Select(T_rank[v_ax0, v_ax1, v_k0] == v_ax2, data[v_ax0, v_ax1, v_k0], T.float32(0))
# CHECK:           T_topk_indices[v_ax0, v_ax1, v_ax2] = T_topk_indices[v_ax0, v_ax1, v_ax2] + T.Select(T_rank[v_ax0, v_ax1, v_k0] == v_ax2, T.Cast("int32", v_k0), 0)

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6, 4), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32"), w: R.Tensor((4,), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            me = R.mean(x, axis=[2], keepdims=False)
            va = R.std(x, axis=[0], keepdims=False)
            am = R.argmin(x, axis=None, keepdims=False)
            ls = R.nn.log_softmax(x, axis=1)
            rms = R.nn.rms_norm(x, w, axes=[-1], epsilon=1e-05)
            gn = R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2], epsilon=1e-05, center=True, scale=True)
            bn = R.nn.batch_norm(x, g, b, g, b, axis=1, epsilon=1e-05, center=True, scale=True, momentum=0.1, training=False)
            e = R.einsum((x, w), subscripts="ncj,j->nc")
            s = R.sort(x, axis=0, descending=False)
            tk = R.topk(x, k=2, axis=-1, ret_type="both", largest=True, dtype="int32")
            gv = (me, va, am, ls, rms, gn, bn, e, s, tk)
            R.output(gv)
        return gv
