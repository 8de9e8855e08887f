# bfloat16 on Vulkan, which has none: passes/tir legalize_bfloat16 keeps it as uint16
# bits and computes in float32, rounding to nearest even. Casts from float32 (ties, NaNs,
# infinities, overflow, subnormals) and back, sums and products, run on lavapipe against a
# NumPy reference (tests/lit/ops/Inputs/bfloat16_check.py); every kernel's SPIR-V is valid.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %s --target vulkan -o %t/bf16.rxe
# RUN: %relaxc inspect --verify %t/bf16.rxe | FileCheck %s --check-prefix=VALID
# VALID-COUNT-5: spirv-val: valid
# VALID-NOT: spirv-val:
# RUN: %python %S/../Inputs/bfloat16_check.py %t/bf16.rxe --relaxc %relaxc --work %t | FileCheck %s
# CHECK: ok: 5 outputs match NumPy
# relaxc run reads and prints bfloat16: 1 + 3 * 2^-8 ties to 1 + 2^-6, 1028 to 1024.
# RUN: %relaxc run %t/bf16.rxe --input %t/x.npy --input %t/a.npy --input %t/b.npy | FileCheck %s --check-prefix=PRINTED
# PRINTED: main_0: bfloat16 (224,) [1, 1.01562, -1, 1024, nan, nan, -nan, nan, ...]

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), a: R.Tensor((64,), dtype="bfloat16"), b: R.Tensor((64,), dtype="bfloat16")):
        n = T.int64()
        with R.dataflow():
            y = R.astype(x, "bfloat16")
            z = R.astype(y, "float32")
            s = R.add(a, b)
            p = R.multiply(a, b)
            q = R.multiply(R.add(a, b), b)
            out = (y, z, s, p, q)
            R.output(out)
        return out
