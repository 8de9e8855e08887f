# TVM idiom: the shape argument of an operator written as a Python tuple or list,
# R.reshape(x, (n, 4)), with constant and symbolic dimensions; printed back as
# R.shape([...]), as TVM prints it.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n * 8",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            a = R.reshape(x, (n, 2, 4))
            b = R.reshape(a, [n * 2, 4])
            c = R.reshape(b, (n * 8,))
            R.output(c)
        return c
