# A bad attribute of a spatial operator is an error at the call, naming the operator,
# the attribute, the argument and the dimension.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 16, 8, 8), dtype="float32"), w: R.Tensor((8, 4, 3, 3), dtype="float32")):
        # CHECK: conv2d_groups_error.py:[[@LINE+1]]:13: error: R.nn.conv2d: attribute 'groups' (3) does not divide the 16 input channels of argument 'data' (dimension 1)
        y = R.nn.conv2d(x, w, groups=3)
        return y
