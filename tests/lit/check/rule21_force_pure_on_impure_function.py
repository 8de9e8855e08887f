# Rule 21: relax.force_pure is set only on a function whose is_pure is true.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function(pure=False)
    # CHECK: rule21_force_pure_on_impure_function.py:[[@LINE+1]]:9: error: [rule 21] function 'main' has the attribute relax.force_pure but is not pure (is_pure is false); force_pure may only be set on a pure function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        return x
