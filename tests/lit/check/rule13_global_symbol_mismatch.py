# Rule 13: a global_symbol attribute equals the function's name, for Relax functions
# and PrimFuncs alike.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func
    # CHECK: rule13_global_symbol_mismatch.py:[[@LINE+1]]:9: error: [rule 13] function 'kernel' has global_symbol 'other_kernel', which differs from its name
    def kernel(A: T.Buffer((4,), "float32")):
        T.func_attr({"global_symbol": "other_kernel"})
        for i in range(4):
            A[i] = T.float32(0)

    @R.function
    # CHECK: rule13_global_symbol_mismatch.py:[[@LINE+1]]:9: error: [rule 13] function 'main' has global_symbol 'entry', which differs from its name
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"global_symbol": "entry"})
        return x
