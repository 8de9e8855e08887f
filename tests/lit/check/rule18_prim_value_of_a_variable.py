# Rule 18: a PrimValue holds an integer or float immediate, not an expression of shape
# variables.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Prim("int64"):
        n = T.int64()
        # CHECK: rule18_prim_value_of_a_variable.py:[[@LINE+1]]:13: error: [rule 18] the PrimValue in the binding of 'p' holds the variable 'n'; a PrimValue holds only an integer or float immediate of one lane
        p = R.prim_value(n)
        q = R.prim_value(T.int64(3))
        return p
