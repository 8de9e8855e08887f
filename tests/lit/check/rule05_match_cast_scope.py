# Rule 5: a shape variable bound by a match_cast is scoped to the SeqExpr of the
# match_cast, here the If's true branch.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(c: R.Prim("bool"), x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        m = T.int64()
        if c:
            y = R.match_cast(x, R.Tensor((m,), dtype="float32"))
            v = R.add(y, y)
        else:
            v = x
        # CHECK: rule05_match_cast_scope.py:[[@LINE+1]]:13: error: [rule 5] shape variable 'm' is used in a shape in the binding of 's' outside the scope that binds it
        s = R.shape([m])
        return v
