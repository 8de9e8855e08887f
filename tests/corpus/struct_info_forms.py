# Every StructInfo form as a parameter annotation, returned in one tuple, plus a tensor
# whose shape is a shape variable and a call through a Callable parameter.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def forms(a: R.Object, b: R.Prim("int64"), c: R.Prim(value="n"), d: R.Tensor(("n", 4), dtype="float32"), e: R.Shape(["n", 4]), f: R.Shape(ndim=2), g: R.Shape, h: R.Tensor(dtype="float32", ndim=2), i: R.Tensor(("n", 4)), j: R.Tensor, k: R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([2])), l: R.Tuple, fn: R.Callable((R.Tensor((2,), dtype="float32"),), R.Tensor((2,), dtype="float32"), True), impure_fn: R.Callable((R.Object,), R.Object, False)) -> R.Tuple(R.Object, R.Prim("int64"), R.Prim(value="n"), R.Tensor(("n", 4), dtype="float32"), R.Shape(["n", 4]), R.Shape(ndim=2), R.Shape, R.Tensor(dtype="float32", ndim=2), R.Tensor(("n", 4)), R.Tensor, R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([2])), R.Tuple):
        n = T.int64()
        result: R.Tuple(R.Object, R.Prim("int64"), R.Prim(value=n), R.Tensor((n, 4), dtype="float32"), R.Shape([n, 4]), R.Shape(ndim=2), R.Shape, R.Tensor(dtype="float32", ndim=2), R.Tensor((n, 4)), R.Tensor, R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([2])), R.Tuple) = (a, b, c, d, e, f, g, h, i, j, k, l)
        return result

    @R.function
    def shape_var_tensor(x: R.Tensor(dtype="float32", ndim=2), fn: R.Callable((R.Tensor((2,), dtype="float32"),), R.Tensor((2,), dtype="float32"), True), v: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        s: R.Shape(ndim=2) = R.shape_of(x)
        y: R.Tensor(s, dtype="float32") = R.match_cast(x, R.Tensor(s, dtype="float32"))
        r: R.Tensor((2,), dtype="float32") = fn(v)
        return r

    @R.function
    def dtypes(a: R.Tensor((4,), dtype="float16"), b: R.Tensor((4,), dtype="int8"), c: R.Tensor((4,), dtype="uint8"), d: R.Tensor((4,), dtype="bool"), e: R.Tensor((4,), dtype="bfloat16"), f: R.Tensor((4,), dtype="float64"), g: R.Prim("float32"), h: R.Prim("bool")) -> R.Tuple(R.Tensor((4,), dtype="float16"), R.Tensor((4,), dtype="int8"), R.Tensor((4,), dtype="uint8"), R.Tensor((4,), dtype="bool"), R.Tensor((4,), dtype="bfloat16"), R.Tensor((4,), dtype="float64"), R.Prim("float32"), R.Prim("bool")):
        return (a, b, c, d, e, f, g, h)
