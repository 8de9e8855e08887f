# A module whose result is a nested tuple: two tensors from one TensorIR kernel with two
# outputs, and a shape. relaxc run prints (and writes) each leaf in order.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def plus_one_and_double(var_x: T.handle, var_a: T.handle, var_b: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        a = T.match_buffer(var_a, (n,))
        b = T.match_buffer(var_b, (n,))
        # with T.block("root"):
        for i in range(n):
            with T.block("a"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(a[vi])
                a[vi] = x[vi] + T.float32(1)
        for i in range(n):
            with T.block("b"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(b[vi])
                b[vi] = x[vi] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor(("n",), dtype="float32"), R.Tensor(("n",), dtype="float32")), R.Shape(["n"])):
        n = T.int64()
        cls = Module
        with R.dataflow():
            ab = R.call_tir(cls.plus_one_and_double, (x,), out_sinfo=[R.Tensor((n,), dtype="float32"), R.Tensor((n,), dtype="float32")])
            out = (ab, R.shape([n]))
            R.output(out)
        return out
