# einsum: a matrix product (of a tuple written in the call, and of a tuple bound
# before), a batched product through "...", a diagonal, a transpose with the implicit
# output, and a full sum; run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input a:n,4:float32 --input b:4,6:float32 --input c:2,n,4:float32 --input s:5,5:float32 --sizes n=1 --sizes n=300 --reference "(np.einsum('ij,jk->ik', a, b), np.einsum('...ij,jk->...ik', c, b), np.einsum('ii->i', s), np.einsum('ji', a), np.einsum('ij->', a), np.einsum('ij,jk', a, b))" | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 12 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor(("n", 4), dtype="float32"), b: R.Tensor((4, 6), dtype="float32"), c: R.Tensor((2, "n", 4), dtype="float32"), s: R.Tensor((5, 5), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            ab = R.einsum((a, b), subscripts="ij,jk->ik")
            cb = R.einsum((c, b), subscripts="...ij,jk->...ik")
            d = R.einsum((s,), subscripts="ii->i")
            t = R.einsum((a,), subscripts="ji")
            total = R.einsum((a,), subscripts="ij->")
            pair = (a, b)
            implicit = R.einsum(pair, subscripts="ij,jk")
            gv = (ab, cb, d, t, total, implicit)
            R.output(gv)
        return gv
