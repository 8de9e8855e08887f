# TVM idiom: several shape variables declared on one line, n, m = T.int64(), T.int64(),
# in a Relax function (where the signature's "n" and "m" name them) and in a prim_func
# (before the buffers that use them). Printed back one a line, as TVM prints them.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(a: T.handle, b: T.handle, c: T.handle):
        n, m = T.int64(), T.int64()
        A = T.match_buffer(a, (n, m))
        B = T.match_buffer(b, (n, m))
        C = T.match_buffer(c, (n, m))
        for i, j in T.grid(n, m):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], B[vi, vj])
                T.writes(C[vi, vj])
                C[vi, vj] = A[vi, vj] + B[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n * m",), dtype="float32"):
        n, m = T.int64(), T.int64()
        cls = Module
        with R.dataflow():
            z = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, m), dtype="float32"))
            flat = R.reshape(z, R.shape([n * m]))
            R.output(flat)
        return flat
