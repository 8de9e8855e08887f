# TVM idiom: TE-generated TensorIR (as LegalizeOps writes it) gives intrinsics their
# result type as a keyword, T.exp(x, dtype="float32"); read as the call it types.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp_pad(A: T.Buffer((T.int64(4), T.int64(6)), "float32"), B: T.Buffer((T.int64(4), T.int64(8)), "float32")):
        T.func_attr({"tir.noalias": True})
        for i0, i1 in T.grid(T.int64(4), T.int64(8)):
            with T.block("B"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(A[v_i0, v_i1 - T.int64(1)])
                T.writes(B[v_i0, v_i1])
                B[v_i0, v_i1] = T.if_then_else(T.int64(1) <= v_i1 and v_i1 < T.int64(7), T.exp(A[v_i0, v_i1 - T.int64(1)], dtype="float32"), T.float32(0), dtype="float32")

    @R.function
    def main(x: R.Tensor((4, 6), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.exp_pad, (x,), out_sinfo=R.Tensor((4, 8), dtype="float32"))
            R.output(gv)
        return gv
