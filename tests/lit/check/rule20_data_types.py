# Rule 20: Relax data types have one lane, and int/uint have 1, 8, 16, 32 or 64 bits,
# float 16, 32 or 64 (bfloat16 is accepted too).
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    # CHECK: rule20_data_types.py:[[@LINE+2]]:17: error: [rule 20] the annotation of parameter 'x' uses the data type 'float32x4'; Relax data types have one lane
    # CHECK: rule20_data_types.py:[[@LINE+1]]:55: error: [rule 20] the annotation of parameter 'y' uses the data type 'int4'; int and uint have 1, 8, 16, 32 or 64 bits, float 16, 32 or 64
    def main(x: R.Tensor((4,), dtype="float32x4"), y: R.Tensor((4,), dtype="int4"), z: R.Tensor((4,), dtype="bfloat16"), b: R.Tensor((4,), dtype="bool")) -> R.Tensor((4,), dtype="bfloat16"):
        return z
