# A two-layer MLP over a symbolic batch, written with operators as TVM prints them:
# matmul, add (bias, broadcast), relu, softmax. Built with relaxc build, run on lavapipe
# at three batch sizes (one past a 256-thread block) against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,64:float32 --input w1:64,128:float32:-0.2,0.2 --input b1:128:float32 --input w2:128,10:float32:-0.2,0.2 --input b2:10:float32 --sizes n=1 --sizes n=7 --sizes n=300 --reference "__import__('graph_ref').mlp(x, w1, b1, w2, b2)" --rtol 1e-4 --atol 1e-5 | FileCheck %s
# CHECK: ok: 3 size(s), 3 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 64), dtype="float32"), w1: R.Tensor((64, 128), dtype="float32"), b1: R.Tensor((128,), dtype="float32"), w2: R.Tensor((128, 10), dtype="float32"), b2: R.Tensor((10,), dtype="float32")) -> R.Tensor(("n", 10), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 128), dtype="float32") = R.matmul(x, w1, out_dtype="void")
            lv1: R.Tensor((n, 128), dtype="float32") = R.add(lv, b1)
            lv2: R.Tensor((n, 128), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((n, 10), dtype="float32") = R.matmul(lv2, w2, out_dtype="void")
            lv4: R.Tensor((n, 10), dtype="float32") = R.add(lv3, b2)
            gv: R.Tensor((n, 10), dtype="float32") = R.nn.softmax(lv4, axis=-1)
            R.output(gv)
        return gv
