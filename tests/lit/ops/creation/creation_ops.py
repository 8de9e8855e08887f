# The creation operators, with symbolic sizes where a shape gives them (a PrimValue
# holds only an immediate: arange and eye have constant bounds), run on lavapipe against NumPy: full,
# zeros, ones and their _like forms, arange (integer and float, negative step), eye,
# tril, triu and one_hot.
#
# RUN: %op_check %s --work %t --input x:n,m:float32 --input f:"":float32 --input idx:n:int64:0,6 --sizes n=3,m=5 --sizes n=300,m=7 --reference "(np.full((n, m), f, np.float32), np.zeros((m, n), np.int32), np.ones((n, 2), np.float32), np.zeros_like(x), np.ones_like(x, np.int64), np.full_like(x, f), np.arange(3, 12, dtype=np.int64), np.arange(9, 0, -2, dtype=np.int64), np.arange(0, 1, 0.25, dtype=np.float32), np.eye(4, 5, 1, dtype=np.float32), np.eye(5, 3, -2, dtype=np.int32), np.tril(x), np.triu(x, 2), np.tril(x, -1), np.eye(6, dtype=np.float32)[idx] * 3 - 1, np.eye(6, dtype=np.int32)[idx].T)" | FileCheck %s
# CHECK: ok: 2 size(s), 32 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), f: R.Tensor((), dtype="float32"), idx: R.Tensor(("n",), dtype="int64")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            out = (R.full(R.shape([n, m]), f, dtype="void"), R.zeros(R.shape([m, n]), dtype="int32"), R.ones(R.shape([n, 2]), dtype="float32"), R.zeros_like(x, dtype="void"), R.ones_like(x, dtype="int64"), R.full_like(x, f, dtype="void"), R.arange(R.prim_value(3), R.prim_value(12), R.prim_value(1), dtype="int64"), R.arange(R.prim_value(9), R.prim_value(0), R.prim_value(-2), dtype="int64"), R.arange(R.prim_value(T.float32(0)), R.prim_value(T.float32(1)), R.prim_value(T.float32(0.25)), dtype="float32"), R.eye(R.prim_value(4), R.prim_value(5), R.prim_value(1), dtype="float32"), R.eye(R.prim_value(5), R.prim_value(3), R.prim_value(-2), dtype="int32"), R.tril(x, R.prim_value(0)), R.triu(x, R.prim_value(2)), R.tril(x, R.prim_value(-1)), R.one_hot(idx, R.prim_value(T.float32(2)), R.prim_value(T.float32(-1)), depth=6, axis=-1), R.one_hot(idx, R.prim_value(T.int32(1)), R.prim_value(T.int32(0)), depth=6, axis=0))
            R.output(out)
        return out
