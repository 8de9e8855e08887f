# Wrong argument counts and unknown keyword arguments, for operators (checked against
# the operator registry) and for T. functions.
#
# RUN: sed 's/R.add(x, x)/R.add(x)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: <stdin>:22:13: error: R.add is missing argument 'x2'
#
# RUN: sed 's/R.add(x, x)/R.add(x, x, x)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=EXTRA
# EXTRA: <stdin>:22:25: error: R.add takes 2 arguments (x1, x2), got 3
#
# RUN: sed 's/keepdims=True/keepdim=True/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=KEYWORD
# KEYWORD: <stdin>:23:32: error: R.sum got an unknown keyword argument 'keepdim'
#
# RUN: sed 's/T.axis.spatial(4, i)/T.axis.spatial(4)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=AXIS
# AXIS: <stdin>:30:22: error: T.axis.spatial is missing argument 'binding'
#
# RUN: %relaxc check %s

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")):
        y = R.add(x, x)
        s = R.sum(y, axis=[1], keepdims=True)
        return s

    @T.prim_func
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi]
