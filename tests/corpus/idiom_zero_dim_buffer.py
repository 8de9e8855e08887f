# TVM idiom: a 0-d buffer, its only element indexed as A[()] in loads, stores, T.reads
# and T.writes (a reduction to a scalar, and a scalar broadcast).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def total(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((), "float32")):
        for k in range(T.int64(8)):
            with T.block("B"):
                vk = T.axis.reduce(T.int64(8), k)
                T.reads(A[vk], B[()])
                T.writes(B[()])
                with T.init():
                    B[()] = T.float32(0)
                B[()] = B[()] + A[vk]

    @T.prim_func(private=True)
    def fill(S: T.Buffer((), "float32"), C: T.Buffer((T.int64(8),), "float32")):
        for i in range(T.int64(8)):
            with T.block("C"):
                vi = T.axis.spatial(T.int64(8), i)
                T.reads(S[()])
                T.writes(C[vi])
                C[vi] = S[()]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        with R.dataflow():
            s = R.call_tir(cls.total, (x,), out_sinfo=R.Tensor((), dtype="float32"))
            y = R.call_tir(cls.fill, (s,), out_sinfo=R.Tensor((8,), dtype="float32"))
            R.output(y)
        return y
