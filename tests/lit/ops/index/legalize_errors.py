# What legalize-ops refuses, at the call: dynamic_strided_slice (its result's shape
# depends on data) and a scatter reduction it has no kernel for.
#
# RUN: split-file %s %t
# RUN: not %relaxc opt %t/dynamic.py --passes=legalize-ops 2>&1 | FileCheck %s --check-prefix=DYNAMIC --implicit-check-not=error:
# DYNAMIC: dynamic.py:7:9: error: R.dynamic_strided_slice (binding 'y'): cannot legalize: the result's shape depends on the values of arguments 'begin', 'end' and 'strides' (a data-dependent shape, not supported yet); use R.strided_slice with constant begin, end and strides
# RUN: not %relaxc opt %t/mean.py --passes=legalize-ops 2>&1 | FileCheck %s --check-prefix=MEAN --implicit-check-not=error:
# MEAN: mean.py:7:9: error: R.scatter_elements (binding 'y'): cannot legalize attribute 'reduction' "mean" yet ("update", "add", "mul", "max" and "min" are)

#--- dynamic.py
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), b: R.Tensor((2,), dtype="int64")):
        y = R.dynamic_strided_slice(x, b, b, b)
        return y

#--- mean.py
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32"), k: R.Tensor(("n", 6), dtype="int64")):
        y = R.scatter_elements(x, k, x, reduction="mean")
        return y
