# Rule 5: a shape variable used in a shape before anything binds it (m is declared but
# neither the signature nor a match_cast binds it). The annotation derived for y
# repeats m; it is reported once.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        m = T.int64()
        # CHECK: rule05_shape_var_before_binding.py:[[@LINE+1]]:26: error: [rule 5] shape variable 'm' is used in a shape in the binding of 'y' before it is bound
        y = R.reshape(x, R.shape([m]))
        return y
