# image.resize2d's cubic method legalized to one injective compute: the 4x4 neighbours
# of the source coordinate with Keys' weights (cubic_alpha), clamped to the image, or
# with cubic_exclude the taps outside the image dropped and the weights renormalized;
# tf_crop_and_resize samples the roi and gives extrapolation_value outside the image
# (cubic, linear and nearest). Symbolic sizes, run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      a: R.Tensor((n, 3, h * 2, w * 2), dtype="float32") = R.call_tir(cls.resize2d, (x,), out_sinfo=R.Tensor((n, 3, h * 2, w * 2), dtype="float32"))
# CHECK:      def resize2d(var_data: T.handle, var_resize: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK:          with T.block("resize"):
# CHECK-NEXT:         v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
#
# RUN: %op_check %s --work %t --input x:n,3,h,w:float32 --input y:n,h,w,2:float32 --sizes n=1,h=5,w=7 --sizes n=2,h=11,w=13 --reference "(P := __import__('spatial_ref')) and (P.resize2d(x, 2 * h, 2 * w, 'cubic', 'half_pixel'), P.resize2d(x, h + 3, 5, 'cubic', 'asymmetric', alpha=-0.5, exclude=True), P.resize2d(x, 3, w + 2, 'cubic', 'align_corners'), P.resize2d(x, 2, 3, 'cubic', 'half_pixel', alpha=-0.5, exclude=True), P.resize2d(y.transpose(0, 3, 1, 2), 4, w, 'cubic', 'pytorch_half_pixel', exclude=True).transpose(0, 2, 3, 1), P.resize2d(x, 4, 6, 'linear', 'tf_crop_and_resize', roi=(0.2, -0.1, 0.9, 1.3), extrapolation=7.5), P.resize2d(x, 1, 5, 'cubic', 'tf_crop_and_resize', roi=(0.3, 0.15, 0.6, 0.85)), P.resize2d(x, 5, 3, 'nearest_neighbor', 'tf_crop_and_resize', 'floor', roi=(-0.3, 0.1, 0.85, 1.45), extrapolation=-1.0), P.resize2d(x, h + 2, 2 * w, 'nearest_neighbor', 'tf_half_pixel_for_nn', 'floor'))" --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 18 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32"), y: R.Tensor(("n", "h", "w", 2), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            a = R.image.resize2d(x, R.shape([h * 2, w * 2]), method="cubic")
            b = R.image.resize2d(x, R.shape([h + 3, 5]), method="cubic", coordinate_transformation_mode="asymmetric", cubic_alpha=-0.5, cubic_exclude=1)
            c = R.image.resize2d(x, R.shape([3, w + 2]), method="cubic", coordinate_transformation_mode="align_corners")
            d = R.image.resize2d(x, R.shape([2, 3]), method="cubic", cubic_alpha=-0.5, cubic_exclude=1)
            e = R.image.resize2d(y, R.shape([4, w]), layout="NHWC", method="cubic", coordinate_transformation_mode="pytorch_half_pixel", cubic_exclude=1)
            f = R.image.resize2d(x, R.shape([4, 6]), roi=[0.2, -0.1, 0.9, 1.3], coordinate_transformation_mode="tf_crop_and_resize", extrapolation_value=7.5)
            g = R.image.resize2d(x, R.shape([1, 5]), roi=[0.3, 0.15, 0.6, 0.85], method="cubic", coordinate_transformation_mode="tf_crop_and_resize")
            k = R.image.resize2d(x, R.shape([5, 3]), roi=[-0.3, 0.1, 0.85, 1.45], method="nearest_neighbor", coordinate_transformation_mode="tf_crop_and_resize", rounding_method="floor", extrapolation_value=-1.0)
            m = R.image.resize2d(x, R.shape([h + 2, w * 2]), method="nearest_neighbor", coordinate_transformation_mode="tf_half_pixel_for_nn", rounding_method="floor")
            R.output(a, b, c, d, e, f, g, k, m)
        return (a, b, c, d, e, f, g, k, m)
