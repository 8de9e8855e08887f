# A whole graph of the family over a symbolic sequence length s: projections (matmul),
# scores as an einsum against the keys, a scaled softmax, the weighted values, a
# residual add and layer_norm; built with relaxc and run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:s,16:float32 --input wq:16,16:float32:-0.5,0.5 --input wk:16,16:float32:-0.5,0.5 --input wv:16,16:float32:-0.5,0.5 --input g:16:float32 --input b:16:float32 --sizes s=1 --sizes s=300 --reference "(lambda q, k, v: (lambda p: (lambda r: (r - r.mean(-1, keepdims=True)) / np.sqrt(r.var(-1, keepdims=True) + 1e-5) * g + b)(p @ v + x))((lambda e: e / e.sum(-1, keepdims=True))(np.exp(q @ k.T * 0.25 - (q @ k.T * 0.25).max(-1, keepdims=True)))))(x @ wq, x @ wk, x @ wv)" --atol 1e-4 | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 2 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("s", 16), dtype="float32"), wq: R.Tensor((16, 16), dtype="float32"), wk: R.Tensor((16, 16), dtype="float32"), wv: R.Tensor((16, 16), dtype="float32"), g: R.Tensor((16,), dtype="float32"), b: R.Tensor((16,), dtype="float32")) -> R.Tensor(("s", 16), dtype="float32"):
        s = T.int64()
        with R.dataflow():
            q = R.matmul(x, wq, out_dtype="void")
            k = R.matmul(x, wk, out_dtype="void")
            v = R.matmul(x, wv, out_dtype="void")
            scores = R.einsum((q, k), subscripts="id,jd->ij")
            scaled = R.multiply(scores, R.prim_value(T.float32(0.25)))
            p = R.nn.softmax(scaled, axis=-1)
            o = R.matmul(p, v, out_dtype="void")
            r = R.add(o, x)
            y = R.nn.layer_norm(r, g, b, axes=[-1], epsilon=1e-05, center=True, scale=True)
            R.output(y)
        return y
