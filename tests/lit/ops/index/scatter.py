# scatter_elements and scatter_nd (update, where the last of duplicate targets wins;
# add; max), negative indices, over symbolic sizes; legalized to a reduction over the
# candidate updates and a combining stage, run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      R.reshape(h, R.shape([m * 3, 1]))
# CHECK:      R.reshape(w, R.shape([m * 3, 6]))
# CHECK:      def scatter_elements(
# CHECK-NEXT:     T.func_attr({"op_pattern": 8, "tir.noalias": True})
# CHECK:          v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
# CHECK:          T_scatter_elements_last[v_ax0, v_ax1] = T.max(T_scatter_elements_last[v_ax0, v_ax1], T.Select(
# CHECK:          T_scatter_elements[v_ax0, v_ax1] = T.if_then_else(T_scatter_elements_last[v_ax0, v_ax1] >= T.int64(0), updates[v_ax0, T_scatter_elements_last[v_ax0, v_ax1]], data[v_ax0, v_ax1])
# CHECK:      def scatter_elements1(
# CHECK:          T_scatter_elements[v_ax0, v_ax1] = data[v_ax0, v_ax1] + T_scatter_elements_add[v_ax0, v_ax1]
# CHECK:      def scatter_nd(
# CHECK:          T_scatter_nd[v_ax0, v_ax1] = T.if_then_else(T_scatter_nd_last[v_ax0, v_ax1] >= T.int64(0), updates[T_scatter_nd_last[v_ax0, v_ax1]], data[v_ax0, v_ax1])
#
# RUN: %op_check %s --work %t --input x:n,6:float32 --input k:n,4:int32:-6,6 --input u:n,4:float32 --input g:m,2:int64:0,6 --input v:m:float32 --input h:m,3,1:int64:0,6 --input w:m,3,6:float32 --sizes n=6,m=1 --sizes n=300,m=259 --reference "((lambda o: (np.put_along_axis(o, np.where(k < 0, k + 6, k), u, 1), o)[1])(x.copy()), (lambda o: (np.add.at(o, (np.arange(x.shape[0])[:, None], np.where(k < 0, k + 6, k)), u), o)[1])(x.copy()), (lambda o: (o.__setitem__((g[:, 0], g[:, 1]), v), o)[1])(x.copy()), (lambda o: (np.maximum.at(o, (g[:, 0], g[:, 1]), v), o)[1])(x.copy()), (lambda o: (np.add.at(o, h[..., 0], w), o)[1])(x.copy()))" --rtol 1e-5 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 10 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), k: R.Tensor(("n", 4), dtype="int32"), u: R.Tensor(("n", 4), dtype="float32"), g: R.Tensor(("m", 2), dtype="int64"), v: R.Tensor(("m",), dtype="float32"), h: R.Tensor(("m", 3, 1), dtype="int64"), w: R.Tensor(("m", 3, 6), dtype="float32")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            a = R.scatter_elements(x, k, u, axis=1)
            b = R.scatter_elements(x, k, u, axis=-1, reduction="add")
            c = R.scatter_nd(x, g, v)
            d = R.scatter_nd(x, g, v, reduction="max")
            e = R.scatter_nd(x, h, w, "add")
            R.output(a, b, c, d, e)
        return (a, b, c, d, e)
