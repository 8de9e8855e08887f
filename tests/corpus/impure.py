# Impure functions (pure=False) with R.print and R.call_packed, bare call statements
# (bound to _), a pure function forced pure, and call_dps_packed in a dataflow block.
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def log_and_scale(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.print(x, format="x = {}")
        y: R.Tensor((2, 3), dtype="float32") = R.call_packed("test.scale", x, R.const(2.0, "float32"), sinfo_args=(R.Tensor((2, 3), dtype="float32"),))
        R.call_packed("test.log", y, sinfo_args=(R.Object,))
        return y

    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        y: R.Tensor((2, 3), dtype="float32") = cls.log_and_scale(x)
        with R.dataflow():
            z: R.Tensor((2, 3), dtype="float32") = R.call_dps_packed("test.relu", (y,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            w: R.Tensor((2, 3), dtype="float32") = R.call_pure_packed("test.double", z, sinfo_args=(R.Tensor((2, 3), dtype="float32"),))
            R.output(w)
        R.print(w, format="w = {}")
        return w

    @R.function
    def forced(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        R.print(x, format="{}")
        return x
