# float16: softmax, layer_norm and sum computed in float16 (as TVM computes them), and
# matmul of float16 operands accumulated in float32 (out_dtype); run on lavapipe against
# NumPy in float32 at float16's tolerance.
#
# REQUIRES: vulkan-float16
# RUN: %op_check %s --work %t --input x:n,16:float16 --input w:16,8:float16 --input g:16:float16 --input b:16:float16 --sizes n=1 --sizes n=300 --reference "(lambda f: ((lambda e: e / e.sum(-1, keepdims=True))(np.exp(f(x) - f(x).max(-1, keepdims=True))), f(x) @ f(w), (f(x) - f(x).mean(-1, keepdims=True)) / np.sqrt(f(x).var(-1, keepdims=True) + 1e-5) * f(g) + f(b), f(x).sum(0)))(lambda a: a.astype(np.float32))" --rtol 2e-2 --atol 2e-2 | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 8 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 16), dtype="float16"), w: R.Tensor((16, 8), dtype="float16"), g: R.Tensor((16,), dtype="float16"), b: R.Tensor((16,), dtype="float16")):
        n = T.int64()
        with R.dataflow():
            s = R.nn.softmax(x, axis=-1)
            m = R.matmul(x, w, out_dtype="float32")
            ln = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1e-05, center=True, scale=True)
            t = R.sum(x, axis=[0], keepdims=False)
            gv = (s, m, ln, t)
            R.output(gv)
        return gv
