# Element-wise operators on float16 over a symbolic batch, run on lavapipe against NumPy
# (in float32, compared at float16's precision).
#
# REQUIRES: vulkan-float16
# RUN: %op_check %s --work %t --input x:n,8:float16 --input y:8:float16 --sizes n=3 --sizes n=100 --rtol 2e-3 --atol 2e-3 --reference "tuple(v.astype(np.float32) for v in (x + y, np.exp(x.astype(np.float32)), np.maximum(x, 0), np.where(x < y, x, y), np.tanh(x.astype(np.float32)), x.astype(np.float32) / (1 + np.exp(-x.astype(np.float32)))))" | FileCheck %s
# CHECK: ok: 2 size(s), 12 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float16"), y: R.Tensor((8,), dtype="float16")):
        n = T.int64()
        with R.dataflow():
            out = (R.add(x, y), R.exp(x), R.nn.relu(x), R.where(R.less(x, y), x, y), R.tanh(x), R.nn.silu(x))
            R.output(out)
        return out
