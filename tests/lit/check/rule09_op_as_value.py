# Rule 9: an operator may only be called. The parser rejects an operator used as a
# value before the checker runs (the checker's report is tested in
# tests/unit/well_formed_test.cc, Rule9OpUsedAsAValue).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        # CHECK: rule09_op_as_value.py:[[@LINE+1]]:13: error: 'R.add' is not a value
        f = R.add
        return x
