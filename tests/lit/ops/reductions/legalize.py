# legalize-ops on the reductions, matmul, softmax and layer_norm with a symbolic batch:
# each is an R.call_tir of a PrimFunc whose reductions are blocks with reduction
# iterators and T.init ("SR"), the statistics of softmax and layer_norm stages of one
# function; the two sums over different shape variables share one PrimFunc.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      s: R.Tensor((n,), dtype="float32") = R.call_tir(cls.sum, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
# CHECK-NEXT: t: R.Tensor((m,), dtype="float32") = R.call_tir(cls.sum, (z,), out_sinfo=R.Tensor((m,), dtype="float32"))
# CHECK-NEXT: a: R.Tensor((n, 1), dtype="int64") = R.call_tir(cls.argmax, (x,), out_sinfo=R.Tensor((n, 1), dtype="int64"))
# CHECK-NEXT: mm: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK-NEXT: y: R.Tensor((n, 8), dtype="float32") = R.call_tir(cls.softmax, (x,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
# CHECK-NEXT: ln: R.Tensor((n, 8), dtype="float32") = R.call_tir(cls.layer_norm, (x, g, b), out_sinfo=R.Tensor((n, 8), dtype="float32"))
#
# CHECK-LABEL: def sum(var_x: T.handle, var_T_sum: T.handle):
# CHECK-NEXT:    T.func_attr({"op_pattern": 3, "tir.noalias": True})
# CHECK:         for ax0, k0 in T.grid(n, T.int64(8)):
# CHECK-NEXT:      with T.block("T_sum"):
# CHECK-NEXT:        v_ax0, v_k0 = T.axis.remap("SR", [ax0, k0])
# CHECK:             with T.init():
# CHECK-NEXT:          T_sum[v_ax0] = T.float32(0)
# CHECK-NEXT:        T_sum[v_ax0] = T_sum[v_ax0] + x[v_ax0, v_k0]
#
# The extreme value, then the least position holding it (in int32), widened.
# CHECK-LABEL: def argmax(
# CHECK:         with T.block("T_max"):
# CHECK:           T_max[v_ax0, v_ax1] = T.max(T_max[v_ax0, v_ax1], x[v_ax0, v_k0])
# CHECK:         with T.block("T_argmax_position"):
# CHECK-NEXT:      v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
# CHECK:             T_argmax_position[v_ax0, v_ax1] = 2147483647
# CHECK-NEXT:      T_argmax_position[v_ax0, v_ax1] = T.min(T_argmax_position[v_ax0, v_ax1], T.Select(x[v_ax0, v_k0] == T_max[v_ax0, v_ax1], T.Cast("int32", v_k0), 8))
# CHECK:           T_argmax[v_ax0, v_ax1] = T.Cast("int64", T_argmax_position[v_ax0, v_ax1])
#
# CHECK-LABEL: def matmul(var_x1: T.handle, x2: T.Buffer((T.int64(8), T.int64(4))), var_T_matmul: T.handle):
# CHECK-NEXT:    T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK:           v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
# CHECK:           T_matmul[v_ax0, v_ax1] = T_matmul[v_ax0, v_ax1] + x1[v_ax0, v_k0] * x2[v_k0, v_ax1]
#
# CHECK-LABEL: def softmax(
# CHECK:         T_softmax_maxelem = T.alloc_buffer((n,))
# CHECK-NEXT:    T_softmax_expsum = T.alloc_buffer((n,))
# CHECK:           T_softmax_maxelem[v_ax0] = T.max(T_softmax_maxelem[v_ax0], data[v_ax0, v_k0])
# CHECK:           T_softmax_expsum[v_ax0] = T_softmax_expsum[v_ax0] + T.exp(data[v_ax0, v_k0] - T_softmax_maxelem[v_ax0])
# CHECK:           T_softmax_norm[v_ax0, v_ax1] = T.exp(data[v_ax0, v_ax1] - T_softmax_maxelem[v_ax0]) / T_softmax_expsum[v_ax0]
#
# CHECK-LABEL: def layer_norm(
# CHECK:         T_sum = T.alloc_buffer((n,))
# CHECK-NEXT:    T_square_sum = T.alloc_buffer((n,))
# CHECK:           T_sum[v_ax0] = T_sum[v_ax0] + data[v_ax0, v_k0]
# CHECK:           T_square_sum[v_ax0] = T_square_sum[v_ax0] + (data[v_ax0, v_k0] - T_sum[v_ax0] / T.float32(8)) * (data[v_ax0, v_k0] - T_sum[v_ax0] / T.float32(8))
# CHECK:           T_layer_norm[v_ax0, v_ax1] = (data[v_ax0, v_ax1] - T_sum[v_ax0] / T.float32(8)) * T.rsqrt(T_square_sum[v_ax0] / T.float32(8) + T.float32(1e-05)) * gamma[v_ax1] + beta[v_ax1]

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), z: R.Tensor(("m", 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), g: R.Tensor((8,), dtype="float32"), b: R.Tensor((8,), dtype="float32")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            s = R.sum(x, axis=[1], keepdims=False)
            t = R.sum(z, axis=[-1], keepdims=False)
            a = R.argmax(x, axis=1, keepdims=True)
            mm = R.matmul(x, w, out_dtype="void")
            y = R.nn.softmax(x, axis=-1)
            ln = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-05, center=True, scale=True)
            gv = (s, t, a, mm, y, ln)
            R.output(gv)
        return gv
