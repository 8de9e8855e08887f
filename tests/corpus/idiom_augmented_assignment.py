# TVM idiom: augmented assignment to a buffer element, B[vi] += A[vi, vk], as TVM's
# TensorIR tests write reductions; read as B[vi] = B[vi] + A[vi, vk] and printed so.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def row_sum(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32")):
        for i, k in T.grid(16, 16):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] += A[vi, vk]

    @T.prim_func(private=True)
    def steps(C: T.Buffer((8,), "int32")):
        for i in range(8):
            C[i] = i
            C[i] *= 3
            C[i] -= 1
            C[i] //= 2
            C[i] %= 5

    @R.function
    def main(x: R.Tensor((16, 16), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.row_sum, (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
            R.output(y)
        return y
