# vm-shape-lower: the heap holds n (slot 0), m (1), k (2), k * n (3) and n + m (4). The
# parameters are checked and n, m stored; the first host function computes n + m, the
# only compound ready then. In the true branch the match_cast stores k and a second
# host function computes k * n; the shapes are built from the heap; the return value is
# asserted against the stored n and m. The output is well formed and reads back.
#
# RUN: %relaxc opt %s --passes=vm-shape-lower | FileCheck %s
# RUN: %relaxc opt %s --passes=vm-shape-lower,well-formed > %t.py
# RUN: %relaxc check %t.py
#
# CHECK-LABEL: def main(
# CHECK-NEXT: R.func_attr({"relax.force_pure": True})
# CHECK: shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_packed("vm.builtin.alloc_shape_heap", R.prim_value(T.int64(5)), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
# CHECK-NEXT: R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(T.int64(2)), R.dtype("float32"), R.str("main: argument 'x' ({{.*}}vm_shape_lower.py:43:14), expected R.Tensor((n, m), dtype=\"float32\")"))
# CHECK-NEXT: R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(T.int64(2)), R.prim_value(T.int64(1)), R.prim_value(T.int64(0)), R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.str("main: argument 'x' {{.*}}"))
# CHECK-NEXT: R.call_packed("vm.builtin.check_prim_value_info", c, R.dtype("bool"), R.str("main: argument 'c' ({{.*}}vm_shape_lower.py:43:56), expected R.Prim(\"bool\")"))
# CHECK-NEXT: _: R.Object = cls.main_shape_func(shape_heap)
# CHECK-NEXT: if c:
# CHECK-NEXT: y: R.Tensor(dtype="float32", ndim=1) = R.call_packed("produce", x,
# CHECK-NEXT: R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(T.int64(1)), R.dtype("float32"), R.str("main: match_cast 'z' ({{.*}}vm_shape_lower.py:50:13), expected R.Tensor((k,), dtype=\"float32\")"))
# CHECK-NEXT: R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.prim_value(T.int64(2)), R.str("main: match_cast 'z' {{.*}}"))
# CHECK-NEXT: _: R.Object = cls.main_shape_func_1(shape_heap)
# CHECK-NEXT: z: R.Tensor(dtype="float32", ndim=1) = y
# CHECK-NEXT: [[KN:[a-z_0-9]+]]: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(T.int64(2)), R.prim_value(T.int64(1)), R.prim_value(T.int64(3)), R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), sinfo_args=(R.Shape(ndim=2),))
# CHECK-NEXT: R.call_packed("consume", z, [[KN]])
# CHECK: else:
# CHECK-NEXT: [[NM:[a-z_0-9]+]]: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.prim_value(T.int64(4)), sinfo_args=(R.Shape(ndim=1),))
# CHECK-NEXT: R.call_packed("consume", x, [[NM]])
# CHECK: R.call_packed("vm.builtin.check_tensor_info", r, R.prim_value(T.int64(2)), R.dtype("float32"), R.str("main: return value ({{.*}}vm_shape_lower.py:56:9), expected R.Tensor((n, m), dtype=\"float32\")"))
# CHECK-NEXT: R.call_packed("vm.builtin.match_shape", r, shape_heap, R.prim_value(T.int64(2)), R.prim_value(T.int64(3)), R.prim_value(T.int64(0)), R.prim_value(T.int64(3)), R.prim_value(T.int64(1)), R.str("main: return value {{.*}}"))
# CHECK-NEXT: return r
#
# CHECK-LABEL: def main_shape_func(H: T.Buffer((5,), "int64")):
# CHECK-NEXT: T.func_attr({"tir.is_host_func": True})
# CHECK-NEXT: H[4] = H[0] + H[1]
# CHECK-LABEL: def main_shape_func_1(H: T.Buffer((5,), "int64")):
# CHECK-NEXT: T.func_attr({"tir.is_host_func": True})
# CHECK-NEXT: H[3] = H[2] * H[0]

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), c: R.Prim("bool")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        if c:
            y = R.call_packed("produce", x, sinfo_args=(R.Tensor(ndim=1, dtype="float32"),))
            z = R.match_cast(y, R.Tensor((k,), dtype="float32"))
            _ = R.call_packed("consume", z, R.shape([k * n, m]))
            r = x
        else:
            _ = R.call_packed("consume", x, R.shape([n + m]))
            r = x
        return r
