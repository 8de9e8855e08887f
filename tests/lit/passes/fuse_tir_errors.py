# fuse-tir turns only call_tir and TupleGetItem bindings into TensorIR: a hand-written
# Primitive function that calls an operator is refused, naming the function and the
# binding.
#
# RUN: not %relaxc opt %s --passes=fuse-tir 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function(private=True)
    # CHECK: fuse_tir_errors.py:[[@LINE+1]]:9: error: fuse-tir: Primitive function 'f' cannot become one TensorIR function: 'y' is not a call_tir of a PrimFunc (fuse-ops makes call_tir and TupleGetItem bindings of tensors)
    def f(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"Primitive": True})
        with R.dataflow():
            y = R.exp(x)
            R.output(y)
        return y

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = cls.f(x)
            R.output(gv)
        return gv
