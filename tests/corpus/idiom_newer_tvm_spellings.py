# TVM idiom: the spellings of TVM's tests after 0.23, read as the 0.23 forms they rename
# and printed in those: @I.ir_module(s_tir=True), @T.prim_func(s_tir=True),
# T.sblock_alloc_buffer, T.sblock_attr, out_ty= (out_sinfo), ty_args= (sinfo_args),
# R.Any (R.Object) and R.Tuple([...]).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module(s_tir=True)
class Module:
    @T.prim_func(private=True, s_tir=True)
    def scale(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.sblock("B"):
                vi = T.axis.spatial(8, i)
                T.reads(A[vi])
                T.writes(B[vi])
                T.sblock_attr({"note": "scaled"})
                tmp = T.sblock_alloc_buffer((1,), scope="local")
                tmp[0] = A[vi] * T.float32(2)
                B[vi] = tmp[0]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), handle: R.Any) -> R.Tuple([R.Tensor((8,), dtype="float32"), R.Any]):
        cls = Module
        y = R.call_tir(cls.scale, (x,), out_ty=R.Tensor((8,), dtype="float32"))
        z = R.call_pure_packed("my_identity", y, ty_args=(R.Tensor((8,), dtype="float32"),))
        out = (z, handle)
        return out
