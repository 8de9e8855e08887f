# R.nonzero and R.unique check and print as TVM's do (a result of known rank, unknown
# dims); legalize-ops makes them calls of the VM's builtins, which compute them on the
# host, and an R.match_cast binds the count for the kernel after it. Built once and run
# on lavapipe at two sizes (with many repeated values: integers in [-2, 2)), compared
# with NumPy: nonzero, unique with every output, along an axis, in order of first
# occurrence, and of floats (NaNs one value after inf, -0 equal to 0). The inverse is
# flat, as ONNX's and NumPy 1's (NumPy 2 gives it the input's shape).
#
# RUN: %relaxc opt %s --passes=normalize | FileCheck %s
# CHECK: nz: R.Tensor(dtype="int64", ndim=2) = R.nonzero(x)
# CHECK: u: R.Tuple(R.Tensor(dtype="int32", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1), R.Tensor(dtype="int64", ndim=1)) = R.unique(x, sorted=True, return_index=True, return_inverse=True, return_counts=True, axis=None)
# CHECK: ua: R.Tensor(dtype="int32", ndim=2) = R.unique(x, sorted=True, return_index=False, return_inverse=False, return_counts=False, axis=-1)
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s --check-prefix=LEGAL
# LEGAL: R.call_pure_packed("vm.builtin.nonzero", x, sinfo_args=(R.Tensor(dtype="int64", ndim=2),))
# LEGAL: R.call_pure_packed("vm.builtin.unique", x, R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), sinfo_args=
# LEGAL: R.call_pure_packed("vm.builtin.unique", x, R.prim_value(T.int64(1)), R.prim_value(T.int64(0)), R.prim_value(T.int64(0)), R.prim_value(T.int64(0)), R.prim_value(T.int64(1)), sinfo_args=
#
# RUN: %op_check %s --work %t --input x:n,4:int32:-2,2 --sizes n=3 --sizes n=300 --reference "(np.stack(np.nonzero(x)) + 1, *(lambda v, i, inv, c: (v, i, inv.reshape(-1), c))(*np.unique(x, return_index=True, return_inverse=True, return_counts=True)), np.unique(x, axis=-1), *(lambda v, i: (v[np.argsort(i)], np.sort(i)))(*np.unique(x, return_index=True)))" | FileCheck %s --check-prefix=NUM
# NUM: ok
#
# RUN: rm -rf %t.f && mkdir -p %t.f
# RUN: %relaxc build %s --target vulkan -o %t.f/m.rxe
# RUN: %python -c "import numpy as np; np.save('%t.f/y.npy', np.float32([np.nan, -0.0, 1.5, 0.0, np.inf, -2, np.nan, 1.5, -np.inf, 0]))"
# RUN: %relaxc run %t.f/m.rxe --function floats --input %t.f/y.npy --output-dir %t.f/out
# RUN: %python -c "import numpy as np; y = np.load('%t.f/y.npy'); v, c = np.unique(y, return_counts=True); a, b = np.load('%t.f/out/floats_0.npy'), np.load('%t.f/out/floats_1.npy'); assert np.array_equal(a, v, equal_nan=True) and np.array_equal(b, c), (a, b); print('ok', b.tolist())" | FileCheck %s --check-prefix=FLOAT
# FLOAT: ok [1, 1, 3, 2, 1, 2]
#
# A 0-d tensor counts as 1-D (NumPy's atleast_1d); an empty one has no nonzero element.
# RUN: %op_check %s --function edges --work %t.e --input s::float32 --input e:0,3:int32 --sizes n=1 --reference "(np.stack(np.nonzero(np.atleast_1d(s))), np.zeros((2, 0), np.int64), np.unique(e))" | FileCheck %s --check-prefix=EDGE
# EDGE: ok

# from tvm.script import ir as I
# from tvm.script import relax as R
# from tvm.script import tir as T

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="int32")):
        count = T.int64()
        with R.dataflow():
            nz = R.nonzero(x)
            bound = R.match_cast(nz, R.Tensor((2, count), dtype="int64"))
            next = R.add(bound, R.const(1, "int64"))
            u = R.unique(x, return_index=True, return_inverse=True, return_counts=True)
            ua = R.unique(x, axis=-1)
            first = R.unique(x, sorted=False, return_index=True)
            r = (next, u, ua, first)
            R.output(r)
        return r

    @R.function
    def floats(y: R.Tensor((10,), dtype="float32")):
        with R.dataflow():
            u = R.unique(y, return_counts=True)
            R.output(u)
        return u

    @R.function
    def edges(s: R.Tensor((), dtype="float32"), e: R.Tensor((0, 3), dtype="int32")):
        with R.dataflow():
            nz = R.nonzero(s)
            ne = R.nonzero(e)
            ue = R.unique(e)
            r = (nz, ne, ue)
            R.output(r)
        return r
