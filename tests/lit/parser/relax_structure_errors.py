# Errors in the structure of a Relax function: R.output of a name the block does not
# bind, an if without else, branches that bind different names, a missing return.
#
# RUN: sed 's/R.output(z)/R.output(q)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=OUTPUT
# OUTPUT: <stdin>:25:22: error: R.output names 'q', which this dataflow block does not bind
#
# RUN: sed '/^        else:/,/^            v = R.multiply(z, z)/d' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=ELSE
# ELSE: <stdin>:26:9: error: an 'if' in a Relax function needs an 'else' branch
#
# RUN: sed 's/            v = R.multiply(z, z)/            u = R.multiply(z, z)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=NAMES
# NAMES: <stdin>:29:13: error: both branches of an 'if' must end by assigning the same name: 'v' and 'u'
#
# RUN: sed '/^        return v/d' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=RETURN
# RETURN: <stdin>:21:9: error: function 'main' has no return
#
# RUN: %relaxc check %s

@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            y = R.add(x, x)
            z = R.multiply(y, x)
            R.output(z)
        if c:
            v = z
        else:
            v = R.multiply(z, z)
        return v
