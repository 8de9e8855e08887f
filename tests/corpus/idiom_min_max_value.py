# TVM idiom: T.min_value / T.max_value as legalized reductions write their initial value
# (a row max and a row min); folded to constants and printed back as TVM prints them.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def row_max(A: T.Buffer((T.int64(4), T.int64(8)), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, k in T.grid(T.int64(4), T.int64(8)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.min_value("float32")
                B[vi] = T.max(B[vi], A[vi, vk])

    @T.prim_func(private=True)
    def row_min(A: T.Buffer((T.int64(4), T.int64(8)), "int32"), B: T.Buffer((T.int64(4),), "int32")):
        T.func_attr({"tir.noalias": True})
        for i, k in T.grid(T.int64(4), T.int64(8)):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.max_value("int32")
                B[vi] = T.min(B[vi], A[vi, vk])

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), y: R.Tensor((4, 8), dtype="int32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="int32")):
        cls = Module
        with R.dataflow():
            a = R.call_tir(cls.row_max, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            b = R.call_tir(cls.row_min, (y,), out_sinfo=R.Tensor((4,), dtype="int32"))
            gv = (a, b)
            R.output(gv)
        return gv
