# The row reduction rule on softmax over rows of symbolic length m (attention's scores
# over a sequence of any length): where m is at most the bound whose row fits in half the
# shared memory (4096 float32), one kernel that stages the row in shared memory and reads
# it once; past it, one that reads it once per block. Both run on lavapipe against NumPy,
# below, at and past the bound.
#
# RUN: %relaxc opt %s --passes=legalize-ops,default-gpu-schedule | FileCheck %s
# CHECK-LABEL: def softmax(
# CHECK: data_shared = T.alloc_buffer((n, m), scope="shared")
# CHECK: if m <= T.int64(4096):
# CHECK: for {{.*}} in range((T.min(m, T.int64(4096)) + T.int64(255)) // T.int64(256)):
# CHECK: else:
#
# RUN: %op_check %s --work %t --input x:n,m:float32:-8,8 --sizes n=3,m=100 --sizes n=2,m=4096 --sizes n=2,m=4097 --sizes n=1,m=10000 --reference "np.exp(x - x.max(-1, keepdims=True)) / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)" --atol 1e-6 | FileCheck %s --check-prefix=OUT
# OUT: ok: 4 size(s), 4 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            gv = R.nn.softmax(x, axis=-1)
            R.output(gv)
        return gv
