# Leaf expressions: tensor constants, shapes, prim values, strings, data types, null.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), dtype="int32")) -> R.Tensor((2, 2), dtype="int32"):
        c: R.Tensor((2, 2), dtype="int32") = R.const([[1, 2], [3, 4]], "int32")
        f: R.Tensor((), dtype="float32") = R.const(1.5, "float32")
        v: R.Tensor((3,), dtype="float32") = R.const([0.5, -1.0, 2.25], "float32")
        s: R.Shape([2, 2]) = R.shape([2, 2])
        p: R.Prim("int64") = R.prim_value(T.int64(3))
        q: R.Prim("float32") = R.prim_value(T.float32(0.5))
        t: R.Object = R.str("hello")
        d: R.Object = R.dtype("float16")
        z: R.Object = R.null_value()
        y: R.Tensor((2, 2), dtype="int32") = R.add(x, c)
        return y
