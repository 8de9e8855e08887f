# image.resize2d legalized to one injective compute over the output: source coordinates
# by TVM's coordinate transformation modes, then the rounded neighbour (nearest) or the
# bilinear weighting of four (linear), clamped to the image; symbolic sizes, run on
# lavapipe against NumPy (the image sizes are odd, so "round" meets no ties).
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      a: R.Tensor((n, 3, h * 2, 7), dtype="float32") = R.call_tir(cls.resize2d, (x,), out_sinfo=R.Tensor((n, 3, h * 2, 7), dtype="float32"))
# CHECK:      def resize2d(var_data: T.handle, var_resize: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK:          with T.block("resize"):
# CHECK-NEXT:         v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
#
# RUN: %op_check %s --work %t --input x:n,3,h,w:float32 --input y:n,h,w,2:float32 --sizes n=1,h=5,w=7 --sizes n=2,h=11,w=13 --reference "(P := __import__('spatial_ref')) and (P.resize2d(x, 2 * h, 7, 'linear', 'half_pixel'), P.resize2d(y.transpose(0, 3, 1, 2), 5, w + 3, 'nearest_neighbor', 'asymmetric', 'floor').transpose(0, 2, 3, 1), P.resize2d(x, 3, 9, 'linear', 'align_corners'), P.resize2d(x, 2 * h, 2 * w, 'nearest_neighbor', 'half_pixel', 'round'), P.resize2d(x, 1, w + 3, 'linear', 'pytorch_half_pixel'), P.resize2d(x, h + 1, 4, 'nearest_neighbor', 'align_corners', 'round_prefer_ceil'))" --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 12 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), y: R.Tensor(("n", "h", "w", 2), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            a = R.image.resize2d(x, R.shape([h * 2, 7]), roi=[0.0, 0.0, 0.0, 0.0], layout="NCHW", method="linear", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            b = R.image.resize2d(y, R.shape([5, w + 3]), layout="NHWC", method="nearest_neighbor", coordinate_transformation_mode="asymmetric", rounding_method="floor")
            c = R.image.resize2d(x, R.shape([3, 9]), coordinate_transformation_mode="align_corners")
            d = R.image.resize2d(x, R.shape([h * 2, w * 2]), method="nearest_neighbor")
            e = R.image.resize2d(x, R.shape([1, w + 3]), coordinate_transformation_mode="pytorch_half_pixel")
            f = R.image.resize2d(x, R.shape([h + 1, 4]), method="nearest_neighbor", coordinate_transformation_mode="align_corners", rounding_method="round_prefer_ceil")
            R.output(a, b, c, d, e, f)
        return (a, b, c, d, e, f)
