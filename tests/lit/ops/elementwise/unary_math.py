# The unary math operators on float32 over a symbolic batch (inputs drawn inside each
# function's domain), and the integer forms of abs, negative, square, sign and the
# roundings, run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,3:float32:-3,3 --input u:n,3:float32:-0.95,0.95 --input p:n,3:float32:0.1,4 --input g:n,3:float32:1.05,4 --input i:n,3:int32:-9,9 --sizes n=2 --sizes n=300 --atol 2e-5 --rtol 2e-5 --reference "(np.abs(x), -x, np.exp(x), np.log(p), np.sqrt(p), 1 / np.sqrt(p), np.square(x), np.sin(x), np.cos(x), np.tan(u), np.tanh(x), np.arcsin(u), np.arccos(u), np.arctan(x), np.sinh(x), np.cosh(x), np.arcsinh(x), np.arccosh(g), np.arctanh(u), 1 / (1 + np.exp(-x)), np.floor(x), np.ceil(x), np.round(x * 2) , np.trunc(x), np.sign(x), np.abs(i), -i, i * i, np.sign(i), i)" | FileCheck %s
# CHECK: ok: 2 size(s), 60 output(s) match NumPy
#
# erf against its series: NumPy has no erf.
# RUN: %op_check %s --function erf --work %t.erf --input x:n,3:float32:-3,3 --sizes n=5 --sizes n=257 --atol 1e-6 --reference "np.vectorize(__import__('math').erf)(x).astype(np.float32)" | FileCheck %s --check-prefix=ERF
# ERF: ok: 2 size(s), 2 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), u: R.Tensor(("n", 3), dtype="float32"), p: R.Tensor(("n", 3), dtype="float32"), g: R.Tensor(("n", 3), dtype="float32"), i: R.Tensor(("n", 3), dtype="int32")):
        n = T.int64()
        with R.dataflow():
            out = (R.abs(x), R.negative(x), R.exp(x), R.log(p), R.sqrt(p), R.rsqrt(p), R.square(x), R.sin(x), R.cos(x), R.tan(u), R.tanh(x), R.asin(u), R.acos(u), R.atan(x), R.sinh(x), R.cosh(x), R.asinh(x), R.acosh(g), R.atanh(u), R.sigmoid(x), R.floor(x), R.ceil(x), R.round(R.multiply(x, R.const(2, "float32"))), R.trunc(x), R.sign(x), R.abs(i), R.negative(i), R.square(i), R.sign(i), R.floor(i))
            R.output(out)
        return out

    @R.function
    def erf(x: R.Tensor(("n", 3), dtype="float32")):
        n = T.int64()
        y = R.erf(x)
        return y
