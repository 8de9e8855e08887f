# TVM idiom: dataflow blocks inside the branches of an if; each branch's R.output is the
# value the branch gives.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        if c:
            with R.dataflow():
                a = R.add(x, x)
                b = R.multiply(a, x)
                R.output(b)
            r = b
        else:
            with R.dataflow():
                d = R.multiply(x, x)
                R.output(d)
            r = d
        return r
