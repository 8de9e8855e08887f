# The binary arithmetic operators with numpy broadcasting over a symbolic batch, on
# float32 and int32 (integer division truncates and floor_divide floors, as TVM's), run
# on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input x:n,4:float32 --input y:4:float32:0.5,2 --input p:n,4:float32:0.1,3 --input i:n,4:int32:-9,9 --input j:4:int32:1,5 --input k:n,1:int32:0,4 --sizes n=1 --sizes n=300 --reference "(np.floor_divide(x, y), np.power(p, y), np.maximum(x, y), np.minimum(x, y), np.fmod(x, y), np.mod(x, y), np.fix(i / j).astype(np.int32), i // j, np.fmod(i, j), np.mod(i, j), np.power(i, k), np.maximum(i, j), x - y * x)" | FileCheck %s
# CHECK: ok: 2 size(s), 26 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32"), p: R.Tensor(("n", 4), dtype="float32"), i: R.Tensor(("n", 4), dtype="int32"), j: R.Tensor((4,), dtype="int32"), k: R.Tensor(("n", 1), dtype="int32")):
        n = T.int64()
        with R.dataflow():
            a = R.floor_divide(x, y)
            b = R.power(p, y)
            c = R.maximum(x, y)
            d = R.minimum(y, x)
            e = R.mod(x, y)
            f = R.floor_mod(x, y)
            g = R.divide(i, j)
            h = R.floor_divide(i, j)
            l = R.mod(i, j)
            m = R.floor_mod(i, j)
            o = R.power(i, k)
            q = R.maximum(i, j)
            r = R.subtract(x, R.multiply(y, x))
            out = (a, b, c, d, e, f, g, h, l, m, o, q, r)
            R.output(out)
        return out
