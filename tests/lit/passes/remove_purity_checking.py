# remove-purity-checking: pure functions get relax.force_pure; call_pure_packed becomes
# call_packed; impure functions are left as they are.
#
# RUN: %relaxc opt %s --passes=remove-purity-checking,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK-NEXT: R.func_attr({"relax.force_pure": True})
# CHECK-NEXT: y: R.Tensor((4,), dtype="float32") = R.call_packed("my_exp", x, sinfo_args=
# CHECK-LABEL: def effect(
# CHECK-NOT: force_pure
# CHECK: R.print(x, format="{}")

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_pure_packed("my_exp", x, sinfo_args=R.Tensor((4,), "float32"))
        return y

    @R.function(pure=False)
    def effect(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.print(x, format="{}")
        return x
