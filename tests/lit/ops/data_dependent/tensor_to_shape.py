# R.tensor_to_shape: a 1-D integer tensor's values, read back to the host at run time,
# become a shape; R.match_cast binds shape variables to them, which then give the
# shapes of R.reshape and R.full. Built once, run on lavapipe at two shapes and
# compared with NumPy; a negative entry and a shape that breaks the element count are
# run-time errors.
#
# RUN: %relaxc opt %s --passes=normalize | FileCheck %s
# CHECK: shape: R.Shape(ndim=2) = R.tensor_to_shape(s)
# CHECK: m: R.Shape([a, b]) = R.match_cast(shape, R.Shape([a, b]))
# CHECK: y: R.Tensor((a, b), dtype="float32") = R.reshape(x, R.shape([a, b]))
#
# RUN: %relaxc opt %s --passes=legalize-ops,to-non-dataflow,remove-purity-checking,call-tir-rewrite,vm-builtin-lower | FileCheck %s --check-prefix=LOWER
# LOWER: R.call_packed("vm.builtin.tensor_to_shape", s, sinfo_args=(R.Shape(ndim=2),))
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %s --target vulkan -o %t/m.rxe
# RUN: %python -c "import numpy as np; x = np.arange(12, dtype=np.float32); np.save('%t/x.npy', x); np.save('%t/s26.npy', np.int64([2, 6])); np.save('%t/s43.npy', np.int32([4, 3])); np.save('%t/neg.npy', np.int64([-3, -4])); np.save('%t/bad.npy', np.int64([5, 2]))"
# RUN: %relaxc run %t/m.rxe --input %t/x.npy --input %t/s26.npy --output-dir %t/r26
# RUN: %python -c "import numpy as np; x = np.arange(12, dtype=np.float32); y = np.load('%t/r26/main_0.npy'); f = np.load('%t/r26/main_1.npy'); assert y.shape == (2, 6) and (y == x.reshape(2, 6) + 1).all(), y; assert f.shape == (6, 2) and (f == 7).all(), f; print('ok 2 6')" | FileCheck %s --check-prefix=RUN26
# RUN26: ok 2 6
# RUN: %relaxc run %t/m.rxe --function narrow --input %t/x.npy --input %t/s43.npy --output-dir %t/r43
# RUN: %python -c "import numpy as np; x = np.arange(12, dtype=np.float32); y = np.load('%t/r43/narrow_0.npy'); assert y.shape == (4, 3) and (y == x.reshape(4, 3)).all(), y; print('ok 4 3')" | FileCheck %s --check-prefix=RUN43
# RUN43: ok 4 3
# RUN: not %relaxc run %t/m.rxe --input %t/x.npy --input %t/neg.npy 2>&1 | FileCheck %s --check-prefix=NEG
# NEG: vm.builtin.tensor_to_shape: entry 0 of the tensor is -3; a shape's dims are not negative
# RUN: not %relaxc run %t/m.rxe --input %t/x.npy --input %t/bad.npy 2>&1 | FileCheck %s --check-prefix=COUNT
# COUNT: cannot reshape a tensor of shape (12,) (12 elements) to (5, 2) (10 elements)
#
# RUN: sed -e 's/(2,), dtype="int64"/(2, 1), dtype="int64"/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=RANK
# RANK: error: R.tensor_to_shape: argument 'x' must be a 1-D integer tensor, got R.Tensor((2, 1), dtype="int64")

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((12,), dtype="float32"), s: R.Tensor((2,), dtype="int64")):
        a = T.int64()
        b = T.int64()
        with R.dataflow():
            shape = R.tensor_to_shape(s)
            m = R.match_cast(shape, R.Shape([a, b]))
            y = R.reshape(x, R.shape([a, b]))
            z = R.add(y, R.const(1, "float32"))
            f = R.full(R.shape([a * 3, 2]), R.const(7, "float32"), dtype="float32")
            r = (z, f)
            R.output(r)
        return r

    @R.function
    def narrow(x: R.Tensor((12,), dtype="float32"), s: R.Tensor((2,), dtype="int32")):
        a = T.int64()
        b = T.int64()
        shape = R.tensor_to_shape(s)
        m = R.match_cast(shape, R.Shape([a, b]))
        y = R.reshape(x, R.shape([a, b]))
        return y
