# Tuples: call_tir with two outputs, tuple construction and indexing, nested and empty
# tuples, tuple parameters, and a tuple returned directly.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split_halves(A: T.Buffer((8,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                T.reads(A[vi])
                T.writes(B[vi])
                B[vi] = A[vi]
        for i in range(4):
            with T.block("C"):
                vi = T.axis.spatial(4, i)
                T.reads(A[vi + 4])
                T.writes(C[vi])
                C[vi] = A[vi + 4]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        cls = Module
        with R.dataflow():
            halves: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = R.call_tir(cls.split_halves, (x,), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")])
            lo: R.Tensor((4,), dtype="float32") = halves[0]
            hi: R.Tensor((4,), dtype="float32") = halves[1]
            swapped: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (hi, lo)
            R.output(swapped)
        return swapped

    @R.function
    def nested(a: R.Tensor((2,), dtype="int32"), b: R.Shape([3])) -> R.Tuple(R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([3])), R.Tuple):
        pair: R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([3])) = (a, b)
        empty: R.Tuple = ()
        both: R.Tuple(R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([3])), R.Tuple) = (pair, empty)
        first: R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([3])) = both[0]
        shape: R.Shape([3]) = first[1]
        return both

    @R.function
    def unpack(t: R.Tuple(R.Tensor((2,), dtype="int32"), R.Object)) -> R.Tuple(R.Object, R.Tensor((2,), dtype="int32")):
        x: R.Tensor((2,), dtype="int32") = t[0]
        y: R.Object = t[1]
        return (y, x)
