# TVM idiom: R.call_tir with a single argument that is not a tuple (made a tuple of one,
# as TVM's R.call_tir does), out_sinfo and tir_vars given positionally, and
# R.call_dps_packed(name, args, out_sinfo), args also as a list, tir_vars as a tuple. Printed back in TVM's
# keyword form.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift(a: T.handle, b: T.handle, k: T.int64):
        n = T.int64()
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (n,))
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                B[vi] = A[vi] + T.Cast("float32", k)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), s: R.Shape(["k"])) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        k = T.int64()
        cls = Module
        y = R.call_tir(cls.shift, x, R.Tensor((n,), dtype="float32"), R.shape([k]))
        z = R.call_dps_packed("my_exp", y, R.Tensor((n,), dtype="float32"))
        pair = R.call_dps_packed("my_split", [y, z], [R.Tensor((n,), dtype="float32"), R.Tensor((n,), dtype="float32")])
        first = pair[0]
        again = R.call_tir(cls.shift, first, out_sinfo=R.Tensor((n,), dtype="float32"), tir_vars=(k,))
        return again
