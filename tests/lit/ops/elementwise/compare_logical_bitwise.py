# Comparisons (bool results), logical and bitwise operators, shifts, where and astype,
# with broadcasting over a symbolic batch, run on lavapipe against NumPy: bool tensors
# are read and written as bytes.
#
# RUN: %op_check %s --work %t --input x:n,4:float32 --input y:4:float32 --input i:n,4:int32:-100,100 --input j:4:int32:-100,100 --input s:n,1:int32:0,8 --input b:n,4:bool --input c:4:bool --sizes n=1 --sizes n=300 --reference "(x < y, x <= y, x > y, x >= y, i == j, i != j, b & c, b | c, b ^ c, i & j, i | j, i ^ j, i << s, i >> s, np.where(b, x, y), np.where(x > y, i, j), np.where(b, 0.5, y), x.astype(np.int32), i.astype(np.float32), x.astype(np.bool_), b.astype(np.int32))" | FileCheck %s
# CHECK: ok: 2 size(s), 42 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32"), i: R.Tensor(("n", 4), dtype="int32"), j: R.Tensor((4,), dtype="int32"), s: R.Tensor(("n", 1), dtype="int32"), b: R.Tensor(("n", 4), dtype="bool"), c: R.Tensor((4,), dtype="bool")):
        n = T.int64()
        with R.dataflow():
            lt = R.less(x, y)
            le = R.less_equal(x, y)
            gt = R.greater(x, y)
            ge = R.greater_equal(x, y)
            eq = R.equal(i, j)
            ne = R.not_equal(i, j)
            land = R.logical_and(b, c)
            lor = R.logical_or(b, c)
            lxor = R.logical_xor(b, c)
            band = R.bitwise_and(i, j)
            bor = R.bitwise_or(i, j)
            bxor = R.bitwise_xor(i, j)
            shl = R.left_shift(i, s)
            shr = R.right_shift(i, s)
            w = R.where(b, x, y)
            w2 = R.where(gt, i, j)
            w3 = R.where(b, R.prim_value(T.float32(0.5)), y)
            xi = R.astype(x, dtype="int32")
            if_ = R.astype(i, dtype="float32")
            xb = R.astype(x, dtype="bool")
            bi = R.astype(b, dtype="int32")
            out = (lt, le, gt, ge, eq, ne, land, lor, lxor, band, bor, bxor, shl, shr, w, w2, w3, xi, if_, xb, bi)
            R.output(out)
        return out
