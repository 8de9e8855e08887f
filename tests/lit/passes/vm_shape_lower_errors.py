# vm-shape-lower runs after to-non-dataflow: a dataflow block is refused at its first
# binding.
#
# RUN: not %relaxc opt %s --passes=vm-shape-lower 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            # CHECK: vm_shape_lower_errors.py:[[@LINE+1]]:13: error: vm-shape-lower: function 'main' has a dataflow block; run to-non-dataflow first
            y = x
            R.output(y)
        return y
