# concat (an axis, negative, and axis=None; float32 and int64) and split (sections, one
# section, indices past the dimension) over a symbolic batch, legalized to TensorIR and
# run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      c: R.Tensor((n, 7), dtype="float32") = R.call_tir(cls.concatenate, (x, y), out_sinfo=R.Tensor((n, 7), dtype="float32"))
# CHECK:      p: {{.*}} = R.call_tir(cls.split, (c,), out_sinfo=[R.Tensor((n, 2), dtype="float32"), R.Tensor((n, 5), dtype="float32"), R.Tensor((n, 0), dtype="float32")])
# CHECK:      o: R.Tuple(R.Tensor((n, 4), dtype="float32")) = (y,)
# CHECK:      def concatenate(var_tensors_0: T.handle, var_tensors_1: T.handle, var_T_concat: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK:          T_concat[v_ax0, v_ax1] = T.if_then_else(v_ax1 < T.int64(3), tensors_0[v_ax0, v_ax1], tensors_1[v_ax0, v_ax1 - T.int64(3)])
# CHECK:      def split(
# CHECK:          T_split_1[v_ax0, v_ax1] = x[v_ax0, v_ax1 + T.int64(2)]
#
# RUN: %op_check %s --work %t --input x:n,3:float32 --input y:n,4:float32 --input s:n:int64 --sizes n=1 --sizes n=300 --reference "(np.split(np.concatenate([x, y], -1), [2, 9], 1)[1], np.concatenate([x.ravel(), y.ravel()]), *np.split(x, 3, 1), np.concatenate([y, y, y], 0), np.concatenate([s, s[::-1]]), y)" | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 16 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), y: R.Tensor(("n", 4), dtype="float32"), s: R.Tensor(("n",), dtype="int64")):
        n = T.int64()
        with R.dataflow():
            c = R.concat((x, y), axis=-1)
            p = R.split(c, indices_or_sections=[2, 9], axis=1)
            f = R.concat((x, y), axis=None)
            t = R.split(x, 3, 1)
            r = R.concat((y, y, y), axis=0)
            i = R.concat((s, R.flip(s, axis=0)))
            o = R.split(y, 1, 1)
            R.output(p, f, t, r, i, o)
        return (p[1], f, t[0], t[1], t[2], r, i, o[0])
