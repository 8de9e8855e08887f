# Rule 22: R.Prim's value has its dtype. The parser rejects an int64 shape variable as
# the value of an int32 R.Prim before the checker runs (the checker's report is tested
# in tests/unit/well_formed_test.cc, Rule19And22PrimStructInfo).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule22_prim_value_dtype.py:[[@LINE+1]]:77: error: the value has type int64, not int32
    def main(x: R.Tensor(("n",), dtype="float32"), p: R.Prim("int32", value="n")) -> R.Prim("int64"):
        n = T.int64()
        return R.prim_value(T.int64(1))
