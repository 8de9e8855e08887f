# sort, argsort (descending, along the symbolic axis; integer ties keep their order, as
# a stable sort) and topk (values and indices, largest and smallest), run on lavapipe
# against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,37:float32 --input y:n,9:int32:-3,3 --sizes n=1 --sizes n=300 --reference "(np.sort(x, -1), np.argsort(-y, axis=0, kind='stable').astype(np.int32), -np.sort(-x, -1)[:, :3], np.argsort(-x, -1)[:, :3].astype(np.int32), np.argsort(y, -1, kind='stable')[:, :4].astype(np.int64))" | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 10 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 37), dtype="float32"), y: R.Tensor(("n", 9), dtype="int32")):
        n = T.int64()
        with R.dataflow():
            s = R.sort(x, axis=-1, descending=False)
            a = R.argsort(y, axis=0, descending=True, dtype="int32")
            t = R.topk(x, k=3, axis=-1, ret_type="both", largest=True, dtype="int32")
            i = R.topk(y, k=4, axis=1, ret_type="indices", largest=False, dtype="int64")
            gv = (s, a, t[0], t[1], i)
            R.output(gv)
        return gv
