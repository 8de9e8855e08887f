# relaxc check on a valid module prints nothing and exits 0, reading a file or standard
# input; the example modules are valid too.
#
# RUN: %relaxc check %s 2>&1 | count 0
# RUN: %relaxc check - < %s 2>&1 | count 0
# RUN: cat %s | %relaxc check - 2>&1 | count 0
# RUN: %relaxc check %S/../../../examples/mlp.py 2>&1 | count 0

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            y = R.add(x, x)
            z = R.multiply(y, x)
            R.output(z)
        return z
