# A kernel and Relax functions over symbolic shapes: n and m from the signature, shape
# arithmetic in annotations, broadcasting with symbolic dimensions, shape_of.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_bias(var_x: T.handle, var_b: T.handle, var_y: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        m = T.int64()
        x = T.match_buffer(var_x, (n, m))
        b = T.match_buffer(var_b, (m,))
        y = T.match_buffer(var_y, (n, m))
        # with T.block("root"):
        for i, j in T.grid(n, m):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj], b[vj])
                T.writes(y[vi, vj])
                y[vi, vj] = x[vi, vj] + b[vj]

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), b: R.Tensor(("m",), dtype="float32")) -> R.Tensor(("n * m",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv: R.Tensor((n, m), dtype="float32") = R.call_tir(cls.add_bias, (x, b), out_sinfo=R.Tensor((n, m), dtype="float32"))
            lv1: R.Tensor((n, m), dtype="float32") = R.add(lv, b)
            lv2: R.Tensor((n * m,), dtype="float32") = R.reshape(lv1, R.shape([n * m]))
            R.output(lv2)
        return lv2

    @R.function
    def shapes(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("n * 4",), dtype="float32")) -> R.Shape(["n", 4]):
        n = T.int64()
        with R.dataflow():
            s: R.Shape([n, 4]) = R.shape_of(x)
            flat: R.Tensor((n * 4,), dtype="float32") = R.reshape(x, R.shape([n * 4]))
            total: R.Tensor((n * 4,), dtype="float32") = R.add(flat, y)
            back: R.Tensor((n, 4), dtype="float32") = R.reshape(total, s)
            R.output(s, back)
        return s
