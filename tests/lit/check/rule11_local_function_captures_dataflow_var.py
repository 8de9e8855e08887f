# Rule 11: a function defined inside a dataflow block may not use the block's
# DataflowVars (x, a Var, is fine).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            @R.function
            def inner(y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
                # CHECK: rule11_local_function_captures_dataflow_var.py:[[@LINE+1]]:21: error: [rule 11] the local function 'inner' uses DataflowVar 'lv0' of the enclosing dataflow block; a local function may not capture DataflowVars (in the binding of 'z')
                z = R.add(y, lv0)
                w = R.add(z, x)
                return w
            gv = inner(x)
            R.output(gv)
        return gv
