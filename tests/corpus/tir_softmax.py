# Softmax in TensorIR pieces (row max, exp, row sum, divide) with intermediate buffers
# allocated in the root block, and the Relax function that calls it.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def softmax(var_A: T.handle, var_B: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(256)))
        B = T.match_buffer(var_B, (n, T.int64(256)))
        # with T.block("root"):
        row_max = T.alloc_buffer((n,))
        row_exp = T.alloc_buffer((n, T.int64(256)))
        row_sum = T.alloc_buffer((n,))
        for i, k in T.grid(n, T.int64(256)):
            with T.block("row_max"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(row_max[vi])
                with T.init():
                    row_max[vi] = T.float32(-3.4028234663852886e+38)
                row_max[vi] = T.max(row_max[vi], A[vi, vk])
        for i, j in T.grid(n, T.int64(256)):
            with T.block("row_exp"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], row_max[vi])
                T.writes(row_exp[vi, vj])
                row_exp[vi, vj] = T.exp(A[vi, vj] - row_max[vi])
        for i, k in T.grid(n, T.int64(256)):
            with T.block("row_sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(row_exp[vi, vk])
                T.writes(row_sum[vi])
                with T.init():
                    row_sum[vi] = T.float32(0)
                row_sum[vi] = row_sum[vi] + row_exp[vi, vk]
        for i, j in T.grid(n, T.int64(256)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(row_exp[vi, vj], row_sum[vi])
                T.writes(B[vi, vj])
                B[vi, vj] = row_exp[vi, vj] / row_sum[vi]

    @R.function
    def main(x: R.Tensor(("n", 256), dtype="float32")) -> R.Tensor(("n", 256), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            y: R.Tensor((n, 256), dtype="float32") = R.call_tir(cls.softmax, (x,), out_sinfo=R.Tensor((n, 256), dtype="float32"))
            R.output(y)
        return y
