# Rule 7 (purity): an impure call inside a dataflow block. The normalizer rejects it
# while the parser builds the block, before the checker runs (the checker's own report
# is tested in tests/unit/well_formed_test.cc, Rule7ImpureCalls).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            # CHECK: rule07_impure_call_in_dataflow_block.py:[[@LINE+1]]:13: error: R.print is impure and cannot be called inside a dataflow block
            R.print(x, format="{}")
            y = R.add(x, x)
            R.output(y)
        return y
