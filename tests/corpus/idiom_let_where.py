# TVM idiom: the Let expression as TVM prints it, T.Let(body, where={x: value}), its
# variable declared at the top of the function (x = T.float32()); and a let statement
# written as an annotated assignment (y: T.int32 = value).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scaled(A: T.Buffer((8,), "float32")):
        x = T.float32()
        for i in range(8):
            with T.block("A"):
                vi = T.axis.spatial(8, i)
                T.reads()
                T.writes(A[vi])
                y: T.int32 = vi * 2
                A[vi] = T.Let(T.float32(5) * x + T.Cast("float32", y), where={x: T.Cast("float32", vi + 1)})

    @R.function
    def main() -> R.Tensor((8,), dtype="float32"):
        cls = Module
        a = R.call_tir(cls.scaled, (), out_sinfo=R.Tensor((8,), dtype="float32"))
        return a
