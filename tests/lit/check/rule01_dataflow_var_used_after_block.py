# Rule 1: a DataflowVar is scoped to the dataflow block that binds it. The parser
# resolves lv0 after the block on purpose; the checker reports the use.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            gv = R.multiply(lv0, x)
            R.output(gv)
        # CHECK: rule01_dataflow_var_used_after_block.py:[[@LINE+1]]:15: error: [rule 1] DataflowVar 'lv0' is used outside the dataflow block that binds it (in the binding of 'lv1')
        lv1 = R.add(lv0, gv)
        return lv1
