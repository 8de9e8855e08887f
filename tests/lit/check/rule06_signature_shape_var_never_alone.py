# Rule 6: every shape variable of a signature stands alone in some dimension of some
# parameter (in any order: n * m in x is fine because n and m stand alone in y and z).
# k appears only in k * 2.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule06_signature_shape_var_never_alone.py:[[@LINE+1]]:{{[0-9]+}}: error: [rule 6] shape variable 'k' in the annotation of parameter 'z' is never bound: it stands alone in no dimension of a parameter annotation of function 'main'
    def main(x: R.Tensor(("n * m",), dtype="float32"), y: R.Tensor(("n",), dtype="float32"), z: R.Tensor(("m", "k * 2"), dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        return x
