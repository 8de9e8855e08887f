# isnan / isinf / isfinite (bool results), logical_not, bitwise_not, clip and the
# activations of R.nn over a symbolic batch, run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,5:float32:-6,6 --input a:5:float32:0,1 --input a1:1:float32:0,1 --input i:n,5:int32:-50,50 --input b:n,5:bool --sizes n=1 --sizes n=300 --atol 2e-5 --rtol 2e-5 --reference "(np.isnan(np.log(x)), np.isinf(np.log(np.abs(np.round(x)))), np.isfinite(np.log(x)), ~b, ~i, np.clip(x, -1, 2.5), np.maximum(x, 0), np.where(x > 0, x, 0.2 * x), x * 0.5 * (1 + np.vectorize(__import__('math').erf)(x / np.sqrt(2))), 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))), x / (1 + np.exp(-x)), np.where(2 * x > 5, x, np.log1p(np.exp(2 * x)) / 2), np.where(x > 0, x, x * a), np.where(x > 0, x, x * a1), np.clip(x, 0, 6), x, x)" | FileCheck %s
# CHECK: ok: 2 size(s), 34 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="float32"), a: R.Tensor((5,), dtype="float32"), a1: R.Tensor((1,), dtype="float32"), i: R.Tensor(("n", 5), dtype="int32"), b: R.Tensor(("n", 5), dtype="bool")):
        n = T.int64()
        with R.dataflow():
            logx = R.log(x)
            dropped = R.nn.dropout(x, rate=0.3)
            out = (R.isnan(logx), R.isinf(R.log(R.abs(R.round(x)))), R.isfinite(logx), R.logical_not(b), R.bitwise_not(i), R.clip(x, R.prim_value(T.float32(-1)), R.prim_value(T.float32(2.5))), R.nn.relu(x), R.nn.leakyrelu(x, alpha=0.2), R.nn.gelu(x), R.nn.gelu_tanh(x), R.nn.silu(x), R.nn.softplus(x, beta=2.0, threshold=5.0), R.nn.prelu(x, a, axis=-1), R.nn.prelu(x, a1, axis=1), R.clip(x, R.prim_value(0), R.prim_value(6)), dropped[0], dropped[1])
            R.output(out)
        return out
