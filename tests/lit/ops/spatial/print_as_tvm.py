# The spatial operators read and print as TVM 0.23 prints them: every attribute in its
# canonical form, nn.attention with a bias as nn.attention_bias; shorthand written by
# hand (strides=2, padding=[1, 1], no out_layout) prints in the same canonical form.
#
# RUN: %relaxc print %s | FileCheck %s
# RUN: %relaxc print %s | %relaxc print - | FileCheck %s

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 16, "h", "w"), dtype="float32"), weight: R.Tensor((8, 16, 3, 3), dtype="float32"), q: R.Tensor((2, "s", 4, 8), dtype="float32"), k: R.Tensor((2, 6, 2, 8), dtype="float32"), v: R.Tensor((2, 6, 2, 5), dtype="float32"), b: R.Tensor((1, 4, "s", 6), dtype="float32"), wt: R.Tensor((8, 4, 3, 3), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            # CHECK: a: R.Tensor((n, 8, (h + 1) // 2, (w + 1) // 2), dtype="float32") = R.nn.conv2d(x, weight, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            a = R.nn.conv2d(x, weight, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            # CHECK: a2: R.Tensor((n, 8, (h + 1) // 2, (w + 1) // 2), dtype="float32") = R.nn.conv2d(x, weight, strides=[2, 2], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            a2 = R.nn.conv2d(x, weight, strides=2, padding=[1, 1])
            # CHECK: c: R.Tensor((n, 8, ((h + 1) // 2 + 1) // 2, ((w + 1) // 2 + 1) // 2), dtype="float32") = R.nn.max_pool2d(a, pool_size=[3, 3], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            c = R.nn.max_pool2d(a, pool_size=[3, 3], strides=[2, 2], dilation=[1, 1], padding=[1, 1, 1, 1], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            # CHECK: d: R.Tensor((n, 8, (h + 1) // 2 - 2, (w + 1) // 2 - 2), dtype="float32") = R.nn.avg_pool2d(a, pool_size=[3, 3], strides=[1, 1], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=True, layout="NCHW", out_layout="NCHW")
            d = R.nn.avg_pool2d(a, pool_size=[3, 3], strides=[1, 1], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=True, layout="NCHW", out_layout="NCHW")
            # CHECK: e: R.Tensor((n, 8, 1, 1), dtype="float32") = R.nn.adaptive_avg_pool2d(d, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            e = R.nn.adaptive_avg_pool2d(d, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            # CHECK: e2: R.Tensor((n, 8, (h + 1) // 2 - 2, (w + 1) // 2 - 2), dtype="float32") = R.nn.adaptive_avg_pool2d(d, output_size=None, layout="NCHW", out_layout="NCHW")
            e2 = R.nn.adaptive_avg_pool2d(d)
            # CHECK: f: R.Tensor((n, 16, h + 3, w + 7), dtype="float32") = R.nn.pad(x, pad_width=[0, 0, 0, 0, 1, 2, 3, 4], pad_value=0.0, pad_mode="edge")
            f = R.nn.pad(x, pad_width=[0, 0, 0, 0, 1, 2, 3, 4], pad_value=0.0, pad_mode="edge")
            # CHECK: g: R.Tensor((n, 16, h * 2, 48), dtype="float32") = R.image.resize2d(x, R.shape([h * 2, 48]), roi=[0.0, 0.0, 0.0, 0.0], layout="NCHW", method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor", cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            g = R.image.resize2d(x, R.shape([h * 2, 48]), roi=[T.float32(0.0), T.float32(0.0), T.float32(0.0), T.float32(0.0)], layout="NCHW", method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor", cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            # CHECK: g2: R.Tensor((n, 16, 8, w), dtype="float32") = R.image.resize2d(x, R.shape([8, w]), roi=[0.0, 0.0, 0.0, 0.0], layout="NCHW", method="linear", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            g2 = R.image.resize2d(x, (8, w))
            # CHECK: t: R.Tensor((n, 4, (h + 1) // 2 * 2 - 1, (w + 1) // 2 * 2 - 1), dtype="float32") = R.nn.conv2d_transpose(a, wt, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype="void")
            t = R.nn.conv2d_transpose(a, wt, strides=[2, 2], padding=[1, 1, 1, 1], output_padding=[0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="IOHW", out_layout="NCHW", out_dtype="void")
            # CHECK: at: R.Tensor((2, s, 4, 5), dtype="float32") = R.nn.attention(q, k, v, scale=None, causal_mask=None, window_size=None)
            at = R.nn.attention(q, k, v, scale=None, causal_mask=None, window_size=None)
            # CHECK: ab: R.Tensor((2, s, 4, 5), dtype="float32") = R.nn.attention_bias(q, k, v, b, scale=0.5, causal_mask="BottomRight", window_size=None)
            ab = R.nn.attention_bias(q, k, v, b, scale=0.5, causal_mask="BottomRight", window_size=None)
            # CHECK: ab2: R.Tensor((2, s, 4, 5), dtype="float32") = R.nn.attention_bias(q, k, v, b, scale=None, causal_mask=None, window_size=None)
            ab2 = R.nn.attention(q, k, v, b)
            R.output(c)
        return c
