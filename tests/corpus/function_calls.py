# Several Relax functions calling each other (cls.name), a private function, a call
# whose result shape follows from the callee's symbolic signature, and a local function.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def scale(x: R.Tensor(("n",), dtype="float32"), s: R.Tensor((), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            y: R.Tensor((n,), dtype="float32") = R.multiply(x, s)
            R.output(y)
        return y

    @R.function
    def axpy(a: R.Tensor((), dtype="float32"), x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            ax: R.Tensor((n,), dtype="float32") = cls.scale(x, a)
            out: R.Tensor((n,), dtype="float32") = R.add(ax, y)
            R.output(out)
        return out

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        two: R.Tensor((), dtype="float32") = R.const(2.0, "float32")
        z: R.Tensor((8,), dtype="float32") = cls.axpy(two, x, y)

        @R.function
        def twice(t: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
            u: R.Tensor((8,), dtype="float32") = R.add(t, t)
            return u

        w: R.Tensor((8,), dtype="float32") = twice(z)
        v: R.Tensor((8,), dtype="float32") = cls.scale(w, two)
        return v
