# TVM idiom: the module decorator spelled by its full path, @tvm.script.ir_module, after
# the imports TVM's tests write; printed back as @I.ir_module.
import tvm
from tvm.script import tir as T
from tvm.script import relax as R

@tvm.script.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        with R.dataflow():
            z = R.add(x, y)
            R.output(z)
        return z
