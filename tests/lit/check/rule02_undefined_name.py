# Rule 2: a variable that nothing binds. The text can only say this with a name that
# is defined nowhere, which the parser rejects before the checker runs. (Binding one
# Var twice is not expressible: a second assignment binds a new Var of the same name.)
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        # CHECK: rule02_undefined_name.py:[[@LINE+1]]:22: error: unknown name 'nowhere'
        y = R.add(x, nowhere)
        return y
