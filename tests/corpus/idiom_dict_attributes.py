# TVM idiom: attribute values that are dicts, as TVM writes the upper bounds of shape
# variables, R.func_attr({"tir_var_upper_bound": {"n": 1024}}), and dicts holding lists
# and dicts. Printed back as dicts, with their keys sorted.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n, m = T.int64(), T.int64()
        R.func_attr({"relax.memory_hints": {"m": [16, 32], "n": {"max": 1024, "min": 1}}, "tir_var_upper_bound": {"m": 4096, "n": 1024}})
        with R.dataflow():
            y = R.add(x, x)
            R.output(y)
        return y
