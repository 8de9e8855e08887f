# Rule 1: a DataflowVar of one dataflow block used in a later dataflow block. The two
# blocks are consecutive, so they are merged into one as they are built: the parser must
# see the block boundary and report the use.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(a, x)
            R.output(b)
        with R.dataflow():
            # CHECK: rule01_dataflow_var_used_in_later_block.py:[[@LINE+1]]:23: error: [rule 1] DataflowVar 'a' is used outside the dataflow block that binds it; list it in that block's R.output to use it afterwards
            c = R.add(a, b)
            R.output(c)
        return c
