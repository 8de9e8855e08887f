# Rule 7: no recursive call of the current function inside a dataflow block, and none
# of a function mutually recursive with it (f calls g, g calls f). Outside a dataflow
# block, recursion is fine (g's call of f).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            # CHECK: rule07_recursion_in_dataflow_block.py:[[@LINE+1]]:17: error: [rule 7] the call of 'main' in the binding of 'y' is a recursive call inside a dataflow block
            y = cls.main(x)
            R.output(y)
        return y

    @R.function
    def f(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            # CHECK: rule07_recursion_in_dataflow_block.py:[[@LINE+1]]:17: error: [rule 7] the call of 'g' in the binding of 'y' is inside a dataflow block, and 'g' is mutually recursive with 'f'
            y = cls.g(x)
            R.output(y)
        return y

    @R.function
    def g(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        y = cls.f(x)
        return y
