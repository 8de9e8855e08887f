# Rule 10: an annotation's ndim matches its shape. The parser rejects the mismatch
# before the checker runs (the checker's report is tested in
# tests/unit/well_formed_test.cc, Rule10VariableAnnotationNdimMismatch).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule10_ndim_mismatch.py:[[@LINE+1]]:56: error: ndim=3 disagrees with the shape's 2 dimension(s)
    def main(x: R.Tensor((2, 3), dtype="float32", ndim=3)) -> R.Tensor((2, 3), dtype="float32"):
        return x
