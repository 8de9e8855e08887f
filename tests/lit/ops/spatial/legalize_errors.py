# Attribute values the operators accept but legalize-ops cannot compute yet are errors
# at the call that name the operator, the attribute and what is supported.
#
# RUN: not %relaxc opt %s --passes=legalize-ops 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 4, 4), dtype="float32")):
        with R.dataflow():
            # CHECK: legalize_errors.py:[[@LINE+1]]:13: error: R.image.resize2d (binding 'a'): attribute 'method' "cubic" has no legalization yet (nearest_neighbor and linear do)
            a = R.image.resize2d(x, R.shape([8, 8]), method="cubic")
            R.output(a)
        return a
