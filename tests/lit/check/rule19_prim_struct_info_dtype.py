# Rule 19: R.Prim's dtype is an int, uint or float type.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule19_prim_struct_info_dtype.py:[[@LINE+2]]:17: error: [rule 19] the R.Prim in the annotation of parameter 'p' has dtype 'handle'; it must be an int, uint or float type
    # CHECK: rule19_prim_struct_info_dtype.py:[[@LINE+1]]:79: error: [rule 19] the R.Prim in the return annotation of function 'main' has dtype 'handle'
    def main(p: R.Prim("handle"), b: R.Prim("bool"), f: R.Prim("float16")) -> R.Prim("handle"):
        return p
