# TVM idiom: the bit operators & | ^ ~ << >> on integer (and bool) values, and T.likely
# on a condition, as TVM's TensorIR tests write them. The operators build the intrinsic
# calls TVM's build (T.bitwise_and ... T.shift_right), which is how TVM prints them.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def pack_bits(A: T.Buffer((64,), "int32"), B: T.Buffer((64,), "int32"), C: T.Buffer((64,), "int32")):
        for i in range(64):
            with T.block("C"):
                vi = T.axis.spatial(64, i)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                if T.likely(vi < 63):
                    C[vi] = (A[vi] & 0xFF) | (B[vi] ^ ~A[vi]) << 8
                else:
                    C[vi] = A[vi] >> (B[vi] & 7)
                C[vi] <<= 1

    @T.prim_func(private=True)
    def spelled_out(U: T.Buffer((16,), "uint32"), Q: T.Buffer((16,), "int8")):
        for i in range(16):
            with T.block("U"):
                vi = T.axis.spatial(16, i)
                T.reads(U[vi], Q[vi])
                T.writes(U[vi], Q[vi])
                U[vi] = T.bitwise_or(T.shift_right(U[vi], T.uint32(28)), T.shift_left(U[vi], T.uint32(4)))
                Q[vi] = T.Cast("int8", T.bitwise_xor(T.bitwise_not(Q[vi] > 0), T.bitwise_and(Q[vi] < 0, vi > 7)))

    @R.function
    def main(a: R.Tensor((64,), dtype="int32"), b: R.Tensor((64,), dtype="int32")) -> R.Tensor((64,), dtype="int32"):
        cls = Module
        with R.dataflow():
            c = R.call_tir(cls.pack_bits, (a, b), out_sinfo=R.Tensor((64,), dtype="int32"))
            R.output(c)
        return c
