# A transformer encoder block over a symbolic sequence length s, written with operators
# as TVM prints them: layer_norm, matmul, split into q/k/v, reshape and permute_dims into
# 4 heads, scaled q k^T, softmax, the weighted sum of v, heads merged, the output
# projection and a residual add; then layer_norm, an MLP with gelu, a residual add.
# Built with relaxc build, run on lavapipe at three lengths against NumPy.
#
# RUN: %op_check %s --work %t --input x:1,s,32:float32 --input g1:32:float32:0.5,1.5 --input b1:32:float32 --input wqkv:32,96:float32:-0.3,0.3 --input wo:32,32:float32:-0.3,0.3 --input g2:32:float32:0.5,1.5 --input b2:32:float32 --input w1:32,64:float32:-0.3,0.3 --input w2:64,32:float32:-0.3,0.3 --sizes s=1 --sizes s=9 --sizes s=67 --reference "__import__('graph_ref').encoder(x, g1, b1, wqkv, wo, g2, b2, w1, w2)" --rtol 1e-3 --atol 1e-4 | FileCheck %s
# CHECK: ok: 3 size(s), 3 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, "s", 32), dtype="float32"), g1: R.Tensor((32,), dtype="float32"), b1: R.Tensor((32,), dtype="float32"), wqkv: R.Tensor((32, 96), dtype="float32"), wo: R.Tensor((32, 32), dtype="float32"), g2: R.Tensor((32,), dtype="float32"), b2: R.Tensor((32,), dtype="float32"), w1: R.Tensor((32, 64), dtype="float32"), w2: R.Tensor((64, 32), dtype="float32")) -> R.Tensor((1, "s", 32), dtype="float32"):
        s = T.int64()
        with R.dataflow():
            h = R.nn.layer_norm(x, g1, b1, axes=[-1], epsilon=1e-05, center=True, scale=True)
            qkv = R.matmul(h, wqkv, out_dtype="void")
            parts = R.split(qkv, indices_or_sections=3, axis=-1)
            q = R.permute_dims(R.reshape(parts[0], R.shape([1, s, 4, 8])), axes=[0, 2, 1, 3])
            k = R.permute_dims(R.reshape(parts[1], R.shape([1, s, 4, 8])), axes=[0, 2, 3, 1])
            v = R.permute_dims(R.reshape(parts[2], R.shape([1, s, 4, 8])), axes=[0, 2, 1, 3])
            scores = R.multiply(R.matmul(q, k, out_dtype="void"), R.const(0.35355339059327373, "float32"))
            att = R.nn.softmax(scores, axis=-1)
            o = R.matmul(att, v, out_dtype="void")
            merged = R.reshape(R.permute_dims(o, axes=[0, 2, 1, 3]), R.shape([1, s, 32]))
            x1 = R.add(x, R.matmul(merged, wo, out_dtype="void"))
            h2 = R.nn.layer_norm(x1, g2, b2, axes=[-1], epsilon=1e-05, center=True, scale=True)
            m = R.matmul(R.nn.gelu(R.matmul(h2, w1, out_dtype="void")), w2, out_dtype="void")
            gv = R.add(x1, m)
            R.output(gv)
        return gv
