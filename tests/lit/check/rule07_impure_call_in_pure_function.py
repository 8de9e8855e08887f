# Rule 7 (purity): a function declared pure (the default) may not call an impure
# operator unless it sets relax.force_pure; pure=False makes the call legal.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        # CHECK: rule07_impure_call_in_pure_function.py:[[@LINE+1]]:9: error: [rule 7] function 'main' is pure, but the binding of '_' calls the impure operator R.print; declare the function impure (pure=False) or set relax.force_pure
        R.print(x, format="{}")
        return x

    @R.function(pure=False)
    def impure(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="{}")
        return x

    @R.function
    def forced(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        R.print(x, format="{}")
        return x
