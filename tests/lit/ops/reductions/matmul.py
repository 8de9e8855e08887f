# matmul with a symbolic dimension: 2-D weights, 1-D operands on either side, and
# broadcast batch dimensions; run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input a:2,n,8:float32 --input w:8,5:float32 --input v:8:float32 --input p:n,1,3,8:float32 --input q:4,8,6:float32 --sizes n=1 --sizes n=300 --reference "(a @ w, a @ v, v @ w, p @ q)" | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 8 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2, "n", 8), dtype="float32"), w: R.Tensor((8, 5), dtype="float32"), v: R.Tensor((8,), dtype="float32"), p: R.Tensor(("n", 1, 3, 8), dtype="float32"), q: R.Tensor((4, 8, 6), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            aw = R.matmul(a, w, out_dtype="void")
            av = R.matmul(a, v, out_dtype="void")
            vw = R.matmul(v, w, out_dtype="void")
            pq = R.matmul(p, q, out_dtype="void")
            gv = (aw, av, vw, pq)
            R.output(gv)
        return gv
