# R.match_cast binding new shape variables from tensors, shapes and prim values, and
# checking against variables already bound.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), s: R.Shape(ndim=2), p: R.Prim("int64"), o: R.Object) -> R.Tensor(dtype="float32", ndim=1):
        m = T.int64()
        k = T.int64()
        a = T.int64()
        b = T.int64()
        c = T.int64()
        y: R.Tensor((m, k), dtype="float32") = R.match_cast(x, R.Tensor((m, k), dtype="float32"))
        t: R.Shape([a, b]) = R.match_cast(s, R.Shape([a, b]))
        q: R.Prim(value=c) = R.match_cast(p, R.Prim(value=c))
        with R.dataflow():
            z: R.Tensor((m * k,), dtype="float32") = R.reshape(y, R.shape([m * k]))
            w: R.Tensor((m, k), dtype="float32") = R.match_cast(o, R.Tensor((m, k), dtype="float32"))
            sum: R.Tensor((m, k), dtype="float32") = R.add(y, w)
            flat: R.Tensor((m * k,), dtype="float32") = R.reshape(sum, R.shape([m * k]))
            out: R.Tensor((m * k,), dtype="float32") = R.add(z, flat)
            R.output(out)
        return out

    @R.function
    def refine(x: R.Tensor) -> R.Tensor(dtype="float16", ndim=2):
        n = T.int64()
        y: R.Tensor((n, 4), dtype="float16") = R.match_cast(x, R.Tensor((n, 4), dtype="float16"))
        return y
