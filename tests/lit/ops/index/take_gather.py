# take (each mode, int32 and int64 indices, negative ones, a 0-d index), gather_elements and
# gather_nd (with batch_dims) over a symbolic batch, legalized to TensorIR and run on
# lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      def take(var_x: T.handle, var_indices: T.handle, var_T_take: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# An index out of range reads the nearest element, never memory outside the tensor.
# CHECK:          T_take[v_ax0, v_ax1, v_ax2] = x[T.min(T.max(T.Select(indices[v_ax0, v_ax1] < T.int64(0), indices[v_ax0, v_ax1] + n, indices[v_ax0, v_ax1]), T.int64(0)), n - T.int64(1)), v_ax2]
# CHECK:      def gather_elements(
# CHECK:          T_gather_elements[v_ax0, v_ax1] = data[v_ax0, T.min(T.max(T.Select(T.Cast("int64", indices[v_ax0, v_ax1]) < T.int64(0), T.Cast("int64", indices[v_ax0, v_ax1]) + T.int64(6), T.Cast("int64", indices[v_ax0, v_ax1])), T.int64(0)), T.int64(5))]
# CHECK:      def gather_nd(
#
# RUN: %op_check %s --work %t --input x:n,6:float32 --input i:m,2:int64:-6,6 --input j:m:int32:-9,9 --input k:n,4:int32:-6,6 --input g:m,2:int64:0,6 --input z::int64:-6,6 --sizes n=6,m=1 --sizes n=300,m=257 --reference "(np.take(x, np.where(i < 0, i + x.shape[0], i), axis=0), np.take(x, j, axis=1, mode='clip'), np.take(x, j, axis=-1, mode='wrap'), np.take_along_axis(x, np.where(k < 0, k + 6, k).astype(np.int64), 1), x[g[:, 0], g[:, 1]], x[:, int(z)])" | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 12 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), i: R.Tensor(("m", 2), dtype="int64"), j: R.Tensor(("m",), dtype="int32"), k: R.Tensor(("n", 4), dtype="int32"), g: R.Tensor(("m", 2), dtype="int64"), z: R.Tensor((), dtype="int64")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            a = R.take(x, i, axis=0)
            b = R.take(x, j, axis=1, mode="clip")
            c = R.take(x, j, axis=-1, mode="wrap")
            d = R.gather_elements(x, k, axis=1)
            e = R.gather_nd(x, g)
            f = R.take(x, z, axis=1)
            R.output(a, b, c, d, e, f)
        return (a, b, c, d, e, f)
