# The element-wise and creation operators as TVM prints them: binary operators with
# broadcasting and bool comparisons, where, astype, clip with PrimValue bounds, the R.nn
# activations with their attributes, dropout's tuple, full / zeros_like / arange /
# one_hot / tril / eye over a symbolic batch.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32"), i: R.Tensor(("n", 4), dtype="int32"), b: R.Tensor(("n", 4), dtype="bool")) -> R.Tuple(R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="bool"), R.Tensor(("n", 4), dtype="float32"), R.Tensor(("n", 4), dtype="float32"), R.Tensor((4, 4), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.floor_divide(x, y)
            lv1: R.Tensor((n, 4), dtype="float32") = R.power(lv, R.const(2.0, "float32"))
            lv2: R.Tensor((n, 4), dtype="bool") = R.greater_equal(lv1, y)
            lv3: R.Tensor((n, 4), dtype="bool") = R.logical_and(lv2, b)
            lv4: R.Tensor((n, 4), dtype="float32") = R.where(lv3, x, y)
            lv_1: R.Tensor((n, 4), dtype="int32") = R.left_shift(i, R.const(1, "int32"))
            lv5: R.Tensor((n, 4), dtype="int32") = R.bitwise_xor(i, lv_1)
            lv6: R.Tensor((n, 4), dtype="float32") = R.astype(lv5, dtype="float32")
            lv7: R.Tensor((n, 4), dtype="float32") = R.clip(lv6, R.prim_value(T.float32(0)), R.prim_value(T.float32(6)))
            lv_2: R.Tensor((n, 4), dtype="float32") = R.nn.leakyrelu(lv7, alpha=0.01)
            lv8: R.Tensor((n, 4), dtype="float32") = R.nn.gelu_tanh(lv_2)
            lv_3: R.Tensor((n, 4), dtype="float32") = R.asinh(lv8)
            lv9: R.Tensor((n, 4), dtype="float32") = R.nn.softplus(lv_3, beta=1.0, threshold=20.0)
            lv10: R.Tensor((n, 4), dtype="float32") = R.nn.prelu(lv9, y, axis=1)
            lv11: R.Tuple(R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="float32")) = R.nn.dropout(lv10, rate=0.5)
            lv12: R.Tensor((n, 4), dtype="float32") = lv11[0]
            lv13: R.Tensor((n, 4), dtype="bool") = R.isfinite(lv12)
            lv14: R.Tensor((n, 4), dtype="float32") = R.full(R.shape([n, 4]), R.const(1.0, "float32"), dtype="float32")
            lv15: R.Tensor((n, 4), dtype="float32") = R.zeros_like(x, dtype="void")
            lv16: R.Tensor((4,), dtype="int64") = R.arange(R.prim_value(T.int64(0)), R.prim_value(T.int64(4)), R.prim_value(T.int64(1)), dtype="int64")
            lv17: R.Tensor((4, 4), dtype="float32") = R.one_hot(lv16, R.prim_value(T.float32(1)), R.prim_value(T.float32(0)), depth=4, axis=-1)
            lv18: R.Tensor((4, 4), dtype="float32") = R.tril(lv17, R.prim_value(T.int64(0)))
            lv19: R.Tensor((4, 4), dtype="float32") = R.eye(R.prim_value(T.int64(4)), R.prim_value(T.int64(4)), R.prim_value(T.int64(0)), dtype="float32")
            lv20: R.Tensor((4, 4), dtype="float32") = R.add(lv18, lv19)
            gv: R.Tuple(R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="bool"), R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="float32"), R.Tensor((4, 4), dtype="float32")) = (lv4, lv13, lv14, lv15, lv20)
            R.output(gv)
        return gv
