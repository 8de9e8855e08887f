# Rule 14 on a binding's annotation: the normalizer rejects an annotation that uses a
# shape variable the value's StructInfo does not have, before the checker runs.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        m = T.int64()
        # CHECK: rule14_annotation_more_specific_than_value.py:[[@LINE+1]]:9: error: variable 'y': the value's StructInfo R.Tensor((n,), dtype="float32") is less specific than the annotation R.Tensor((m,), dtype="float32"); use R.match_cast to check it at run time
        y: R.Tensor((m,), dtype="float32") = R.add(x, x)
        return y
