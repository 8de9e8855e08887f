# Rule 3: a variable used before its binding. The parser resolves names in order, so it
# rejects the use as an unknown name before the checker runs.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        # CHECK: rule03_use_before_binding.py:[[@LINE+1]]:22: error: unknown name 'b'
        a = R.add(x, b)
        b = R.add(x, x)
        return a
