# fold-constant in the build: the constant part of the graph (w + 1, transposed, times
# 2, and its column sums) is folded at compile time, the part that depends on x runs as
# kernels; the results on lavapipe match NumPy at several sizes.
#
# RUN: %op_check %s --work %t --input x:n,3:float32 --sizes n=1 --sizes n=5 --reference "x @ ((np.array([[1.0, 6.0, -2.0], [0.5, 3.0, 4.0], [2.0, -1.0, 0.0]], dtype=np.float32) + 1).T * 2) + (((np.array([[1.0, 6.0, -2.0], [0.5, 3.0, 4.0], [2.0, -1.0, 0.0]], dtype=np.float32) + 1).T * 2).sum(axis=0))" --rtol 1e-5 --atol 1e-5 | FileCheck %s
# CHECK: ok: 2 size(s), 2 output(s) match NumPy
#
# RUN: %relaxc build %s --target vulkan -o %t/folded.rxe --print-after-each | FileCheck %s --check-prefix=FOLDED
# FOLDED:      # after fold-constant
# FOLDED:      c: R.Tensor((3, 3), dtype="float32") = R.const({{\[\[}}4.0, 3.0, 6.0], [14.0, 8.0, 0.0], [-2.0, 10.0, 2.0]], "float32")
# FOLDED:      s: R.Tensor((3,), dtype="float32") = R.const([16.0, 21.0, 8.0], "float32")
# FOLDED:      # after dead-code-elimination
# FOLDED-NOT:  def transpose(
# FOLDED:      # after lambda-lift

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32")) -> R.Tensor(("n", 3), dtype="float32"):
        with R.dataflow():
            w = R.const([[1.0, 6.0, -2.0], [0.5, 3.0, 4.0], [2.0, -1.0, 0.0]], "float32")
            a = R.add(w, R.const(1.0, "float32"))
            t = R.permute_dims(a)
            c = R.multiply(t, R.const(2.0, "float32"))
            s = R.sum(c, axis=[0])
            y = R.add(R.matmul(x, c, out_dtype="void"), s)
            R.output(y)
        return y
