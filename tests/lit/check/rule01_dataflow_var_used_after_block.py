# Rule 1: a DataflowVar is scoped to the dataflow block that binds it. The parser reports
# the use of lv0 after its block (the checker reports the same for a module built
# otherwise: tests/unit/well_formed_test.cc).
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
        # CHECK: rule01_dataflow_var_used_after_block.py:[[@LINE+1]]:21: error: [rule 1] DataflowVar 'lv0' is used outside the dataflow block that binds it; list it in that block's R.output to use it afterwards
        lv1 = R.add(lv0, gv)
        return lv1
