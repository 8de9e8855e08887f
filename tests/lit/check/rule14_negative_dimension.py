# Rule 14: a tensor annotation's dimension is at least 0. A negative one in out_sinfo
# used to build an executable that the loader then refused without a location. It is
# reported once, at out_sinfo, though main's inferred return annotation and y's
# annotation repeat it.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("y"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")):
        cls = Module
        # CHECK: rule14_negative_dimension.py:[[@LINE+1]]:50: error: [rule 14] dimension 0 of the tensor in {{.*}} is -4; a dimension is at least 0
        y = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((-4,), dtype="float32"))
        return y
