# TVM idiom: manipulation and indexing operators as TVM prints them (strided_slice's
# axes, begin, end and strides as tuples of prim values; split's tuple result; take's
# mode) and as written by hand (attributes given positionally, an int for a list).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 12, 10), dtype="float32"), i: R.Tensor((4,), dtype="int64")) -> R.Tensor((1, 3, 4, 2), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 3, 10, 10), dtype="float32") = R.strided_slice(x, (R.prim_value(2),), (R.prim_value(0),), (R.prim_value(10),), (R.prim_value(1),), assume_inbound=False)
            lv1: R.Tuple(R.Tensor((1, 3, 10, 5), dtype="float32"), R.Tensor((1, 3, 10, 5), dtype="float32")) = R.split(lv, indices_or_sections=2, axis=-1)
            lv2: R.Tensor((1, 3, 10, 5), dtype="float32") = lv1[1]
            lv3: R.Tensor((1, 3, 4, 5), dtype="float32") = R.take(lv2, i, axis=2, mode="fast")
            lv4: R.Tensor((1, 4, 3, 5), dtype="float32") = R.permute_dims(lv3, axes=[0, 2, 1, 3])
            lv5: R.Tensor((4, 3, 5), dtype="float32") = R.squeeze(lv4, axis=[0])
            lv6: R.Tensor((4, 3, 5, 1), dtype="float32") = R.expand_dims(lv5, -1)
            lv7: R.Tensor((4, 3, 10, 1), dtype="float32") = R.repeat(lv6, 2, 2)
            lv8: R.Tensor((4, 3, 10, 1), dtype="float32") = R.cumsum(lv7, axis=2, dtype="float32", exclusive=False)
            lv9: R.Tensor((4, 3, 10, 2), dtype="float32") = R.concat((lv8, R.flip(lv8, axis=2)), axis=3)
            lv10: R.Tensor((1, 3, 4, 2), dtype="float32") = R.reshape(R.strided_slice(lv9, axes=[2], begin=[0], end=[1]), R.shape([1, 3, 4, 2]))
            R.output(lv10)
        return lv10
