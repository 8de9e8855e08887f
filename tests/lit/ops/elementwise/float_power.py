# Float power of negative bases, as NumPy computes it: whole exponents give signed
# results (Vulkan's pow is undefined there and lavapipe gives NaN), fractional ones NaN,
# and x ** 0 is 1 even for x = 0; run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,6:float32:-3,3 --sizes n=1 --sizes n=50 --reference "(np.power(x, np.float32([2, 3, 0, -1, 0.5, 1.5])), np.power(x, np.float32(2)), np.power(np.abs(x), np.float32(0.5)))" | FileCheck %s
# CHECK: ok: 2 size(s), 6 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 6), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            a = R.power(x, R.const([2.0, 3.0, 0.0, -1.0, 0.5, 1.5], "float32"))
            b = R.power(x, R.const(2.0, "float32"))
            c = R.power(R.abs(x), R.const(0.5, "float32"))
            out = (a, b, c)
            R.output(out)
        return out
