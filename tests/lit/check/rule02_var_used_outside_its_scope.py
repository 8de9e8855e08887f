# Rule 2: a variable bound in an If branch (a SeqExpr of its own) is not in scope after
# the If. The parser resolves the name; the checker reports the use.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(c: R.Prim("bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        if c:
            inner = R.add(x, x)
            v = R.multiply(inner, x)
        else:
            v = x
        # CHECK: rule02_var_used_outside_its_scope.py:[[@LINE+1]]:13: error: [rule 2] Var 'inner' is used outside the scope of its binding (in the binding of 'w')
        w = R.add(inner, v)
        return w
