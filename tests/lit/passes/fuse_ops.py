# fuse-ops: TVM's FuseOps over each dataflow block. An elementwise epilogue (bias add,
# relu, gelu) joins a conv or matmul; elementwise ops join the reduction they feed
# (softmax's subtract and exp) but a reduction keeps its consumers out; a diamond fuses
# whole; a call_tir returning a tuple fuses with the TupleGetItems and ops after it; a
# shape variable only a tir_vars uses is passed as a shape; an opaque PrimFunc stays
# alone and splits the chain; an injective op (a transpose) joins the reduction it feeds. Each group becomes a private Relax function "fused_..."
# marked Primitive, called where the group's last binding was.
#
# RUN: %relaxc opt %s --passes=legalize-ops,fuse-ops | FileCheck %s
# CHECK-LABEL: def conv_add_relu(
# CHECK:          gv: R.Tensor((1, 8, 8, 8), dtype="float32") = cls.fused_conv2d_add_relu(x, w, b)
# CHECK-NEXT:     R.output(gv)
# CHECK-LABEL: def matmul_bias_gelu(
# CHECK:          gv: R.Tensor((n, 32), dtype="float32") = cls.fused_matmul_add1_gelu(x, w, b)
# CHECK-LABEL: def softmax_parts(
# CHECK:          mx: R.Tensor((4, 1), dtype="float32") = R.call_tir(cls.max, (x,)
# CHECK-NEXT:     ex: R.Tensor((4, 16), dtype="float32") = cls.fused_subtract_exp(x, mx)
# CHECK-NEXT:     sm: R.Tensor((4, 1), dtype="float32") = R.call_tir(cls.sum, (ex,)
# CHECK-NEXT:     gv: R.Tensor((4, 16), dtype="float32") = R.call_tir(cls.divide, (ex, sm)
# CHECK-LABEL: def diamond(
# CHECK:          gv: R.Tensor((8, 8), dtype="float32") = cls.fused_exp1_negative_sqrt_add2(x)
# CHECK-NEXT:     R.output(gv)
# CHECK-LABEL: def tuple_outputs(
# CHECK:          y: R.Tensor((8, 4), dtype="float32") = cls.fused_split_exp2_negative1_add3(x)
# CHECK-NEXT:     s: R.Tensor((8,), dtype="float32") = R.call_tir(cls.sum1, (y,)
# CHECK-NEXT:     gv: R.Tuple(R.Tensor((8, 4), dtype="float32"), R.Tensor((8,), dtype="float32")) = (y, s)
# CHECK-LABEL: def opaque(
# CHECK:          a: R.Tensor((n,), dtype="float32") = R.call_tir(cls.exp3, (x,)
# CHECK-NEXT:     c: R.Tensor((n,), dtype="float32") = R.call_tir(cls.cumulative, (a,)
# CHECK-NEXT:     gv: R.Tensor((n,), dtype="float32") = R.call_tir(cls.negative2, (c,)
# CHECK-LABEL: def symbolic(
# CHECK:          c: R.Tensor((m, 4), dtype="float32") = cls.fused_exp4_add4(a, R.shape([k]))
# CHECK-LABEL: def injective_into_reduction(
# CHECK:          gv: R.Tensor((8,), dtype="float32") = cls.fused_transpose_sum1(x)
# CHECK-LABEL: def fused_conv2d_add_relu(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32"), b: R.Tensor((1, 8, 1, 1), dtype="float32")) -> R.Tensor((1, 8, 8, 8), dtype="float32"):
# CHECK-NEXT:     R.func_attr({"Primitive": True})
# CHECK-NEXT:     cls = Module
# CHECK-NEXT:     with R.dataflow():
# CHECK-NEXT:         c: R.Tensor((1, 8, 8, 8), dtype="float32") = R.call_tir(cls.conv2d, (x, w), out_sinfo=R.Tensor((1, 8, 8, 8), dtype="float32"))
# CHECK-NEXT:         a: R.Tensor((1, 8, 8, 8), dtype="float32") = R.call_tir(cls.add, (c, b), out_sinfo=R.Tensor((1, 8, 8, 8), dtype="float32"))
# CHECK-NEXT:         gv: R.Tensor((1, 8, 8, 8), dtype="float32") = R.call_tir(cls.relu, (a,), out_sinfo=R.Tensor((1, 8, 8, 8), dtype="float32"))
# CHECK-NEXT:         R.output(gv)
# CHECK-NEXT:     return gv
# CHECK-LABEL: def fused_matmul_add1_gelu(
# CHECK-LABEL: def fused_subtract_exp(x: R.Tensor((4, 16), dtype="float32"), mx: R.Tensor((4, 1), dtype="float32")) -> R.Tensor((4, 16), dtype="float32"):
# CHECK-LABEL: def fused_exp1_negative_sqrt_add2(
# CHECK:          a: R.Tensor((8, 8), dtype="float32") = R.call_tir(cls.exp1, (x,)
# CHECK-NEXT:     l: R.Tensor((8, 8), dtype="float32") = R.call_tir(cls.negative, (a,)
# CHECK-NEXT:     r: R.Tensor((8, 8), dtype="float32") = R.call_tir(cls.sqrt, (a,)
# CHECK-NEXT:     gv: R.Tensor((8, 8), dtype="float32") = R.call_tir(cls.add2, (l, r)
# CHECK-LABEL: def fused_split_exp2_negative1_add3(x: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((8, 4), dtype="float32"):
# CHECK:          parts: R.Tuple(R.Tensor((8, 4), dtype="float32"), R.Tensor((8, 4), dtype="float32")) = R.call_tir(cls.split, (x,)
# CHECK-NEXT:     lv: R.Tensor((8, 4), dtype="float32") = parts[0]
# CHECK-LABEL: def fused_exp4_add4(a: R.Tensor(("m", 4), dtype="float32"), tir_vars: R.Shape(["k"])) -> R.Tensor(("m", 4), dtype="float32"):
# CHECK:          c: R.Tensor((m, 4), dtype="float32") = R.call_tir(cls.add4, (b,), out_sinfo=R.Tensor((m, 4), dtype="float32"), tir_vars=R.shape([k]))
# CHECK-LABEL: def fused_transpose_sum1(x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
# CHECK-NOT:  def fused_

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def cumulative(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                y[vi] = T.float32(0)
                for j in range(vi + T.int64(1)):
                    y[vi] = y[vi] + x[j]

    @R.function
    def conv_add_relu(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32"), b: R.Tensor((1, 8, 1, 1), dtype="float32")) -> R.Tensor((1, 8, 8, 8), dtype="float32"):
        with R.dataflow():
            c = R.nn.conv2d(x, w, padding=[1, 1, 1, 1])
            a = R.add(c, b)
            gv = R.nn.relu(a)
            R.output(gv)
        return gv

    @R.function
    def matmul_bias_gelu(x: R.Tensor(("n", 16), dtype="float32"), w: R.Tensor((16, 32), dtype="float32"), b: R.Tensor((32,), dtype="float32")) -> R.Tensor(("n", 32), dtype="float32"):
        with R.dataflow():
            m = R.matmul(x, w)
            a = R.add(m, b)
            gv = R.nn.gelu(a)
            R.output(gv)
        return gv

    @R.function
    def softmax_parts(x: R.Tensor((4, 16), dtype="float32")) -> R.Tensor((4, 16), dtype="float32"):
        with R.dataflow():
            mx = R.max(x, axis=[1], keepdims=True)
            sh = R.subtract(x, mx)
            ex = R.exp(sh)
            sm = R.sum(ex, axis=[1], keepdims=True)
            gv = R.divide(ex, sm)
            R.output(gv)
        return gv

    @R.function
    def diamond(x: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((8, 8), dtype="float32"):
        with R.dataflow():
            a = R.exp(x)
            l = R.negative(a)
            r = R.sqrt(a)
            gv = R.add(l, r)
            R.output(gv)
        return gv

    @R.function
    def tuple_outputs(x: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tensor((8, 4), dtype="float32"), R.Tensor((8,), dtype="float32")):
        with R.dataflow():
            parts = R.split(x, indices_or_sections=2, axis=1)
            lo = R.exp(parts[0])
            hi = R.negative(parts[1])
            y = R.add(lo, hi)
            s = R.sum(y, axis=[1])
            gv = (y, s)
            R.output(gv)
        return gv

    @R.function
    def opaque(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            a = R.exp(x)
            c = R.call_tir(cls.cumulative, (a,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = R.negative(c)
            R.output(gv)
        return gv

    @R.function
    def symbolic(a: R.Tensor(("m", 4), dtype="float32"), scale: R.Prim(value="k")) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        k = T.int64()
        with R.dataflow():
            b = R.exp(a)
            c = R.add(b, R.prim_value(T.Cast("float32", k)))
            R.output(c)
        return c

    @R.function
    def injective_into_reduction(x: R.Tensor((4, 8), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        with R.dataflow():
            t = R.permute_dims(x, axes=[1, 0])
            gv = R.sum(t, axis=[1])
            R.output(gv)
        return gv
