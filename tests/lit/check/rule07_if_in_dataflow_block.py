# Rule 7: a dataflow block is free of control flow; an If inside one is reported.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(c: R.Prim("bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            # CHECK: rule07_if_in_dataflow_block.py:[[@LINE+1]]:13: error: [rule 7] an If in the binding of 'v' is inside a dataflow block; dataflow blocks are free of control flow
            if c:
                v = R.add(x, x)
            else:
                v = x
            w = R.add(v, x)
            R.output(w)
        return w
