# Rule 4: the return annotation may use only shape variables that the parameters (or
# the enclosing scope) bind; m is bound by a match_cast inside the body.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule04_return_annotation_shape_var.py:[[@LINE+1]]:55: error: [rule 4] the return annotation of function 'main' uses shape variable 'm', which is not in scope where the function is defined
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("m",), dtype="float32"):
        m = T.int64()
        y = R.match_cast(x, R.Tensor((m,), dtype="float32"))
        return y
