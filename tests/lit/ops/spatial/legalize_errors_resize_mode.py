# A coordinate transformation mode of image.resize2d without a legalization is an
# error at the call that lists the modes that have one.
#
# RUN: not %relaxc opt %s --passes=legalize-ops 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 4, 4), dtype="float32")):
        with R.dataflow():
            # CHECK: legalize_errors_resize_mode.py:[[@LINE+1]]:13: error: R.image.resize2d (binding 'a'): attribute 'coordinate_transformation_mode' "tf_crop_and_resize" has no legalization yet (half_pixel, pytorch_half_pixel, align_corners and asymmetric do)
            a = R.image.resize2d(x, R.shape([8, 8]), coordinate_transformation_mode="tf_crop_and_resize")
            R.output(a)
        return a
