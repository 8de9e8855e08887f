# Rule 20: a bit width no data type has (int7) is rejected by the parser, which cannot
# spell it, before the checker runs (the checker's report is tested in
# tests/unit/well_formed_test.cc, Rule20DataTypesOfAnnotations).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule20_unknown_data_type.py:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}int7
    def main(x: R.Tensor((4,), dtype="int7")) -> R.Tensor((4,), dtype="int7"):
        return x
