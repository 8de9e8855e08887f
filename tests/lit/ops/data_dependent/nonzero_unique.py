# R.nonzero and R.unique check and print as TVM's do (a result of known rank, unknown
# dims), and the build refuses them where they are written: their result's size depends
# on the data.
#
# RUN: %relaxc opt %s --passes=normalize | FileCheck %s
# CHECK: nz: R.Tensor(dtype="int64", ndim=2) = R.nonzero(x)
# CHECK: u: R.Tuple(R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="int64", ndim=1)) = R.unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=True, axis=None)
# CHECK: ua: R.Tensor(dtype="float32", ndim=2) = R.unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=-1)
#
# RUN: not %relaxc build %s --target vulkan -o %t.rxe 2>&1 | FileCheck %s --check-prefix=BUILD
# BUILD: nonzero_unique.py:[[@LINE+13]]:13: error: R.nonzero (binding 'nz'): the shape of its result depends on the data, which relaxc cannot compile yet; compute it on the host and pass it in, or write the kernel with R.call_tir and an upper bound on the size
#
# RUN: sed -e 's/axis=-1/axis=2/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=AXIS
# AXIS: error: R.unique: attribute 'axis': axis 2 is out of range for a tensor of 2 dimension(s)

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3, 4), dtype="float32")):
        with R.dataflow():
            nz = R.nonzero(x)
            u = R.unique(x, return_counts=True)
            ua = R.unique(x, axis=-1)
            r = (nz, u, ua)
            R.output(r)
        return r
