# vm-shape-lower after the passes before it in the VM pipeline: the allocation of
# call_tir's output takes its byte size (n * 16) and its shape (n, 4) from the heap, the
# reshape's n * 4 too; kernel calls keep their buffers. The result is well formed.
#
# RUN: %relaxc opt %s --passes=lambda-lift,to-non-dataflow,remove-purity-checking,call-tir-rewrite,vm-builtin-lower,vm-shape-lower,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK: R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(T.int64(2)), R.prim_value(T.int64(1)), R.prim_value(T.int64(0)), R.prim_value(T.int64(2)), R.prim_value(T.int64(4)),
# CHECK-NEXT: cls.main_shape_func(shape_heap)
# CHECK-NEXT: [[BYTES:[a-z_0-9]+]]: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.prim_value(T.int64([[BYTES_SLOT:[0-9]+]])),
# CHECK-NEXT: storage: R.Object = R.call_packed("vm.builtin.alloc_storage", [[BYTES]],
# CHECK-NEXT: [[SHAPE:[a-z_0-9]+]]: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(T.int64(2)), R.prim_value(T.int64(1)), R.prim_value(T.int64(0)), R.prim_value(T.int64(0)), R.prim_value(T.int64(4)),
# CHECK-NEXT: lv0: R.Tensor((n, 4), dtype="float32") = R.call_packed("vm.builtin.alloc_tensor", storage, R.prim_value(T.int64(0)), [[SHAPE]],
# CHECK-NEXT: cls.exp(x, lv0)
# CHECK-NEXT: [[FLAT:[a-z_0-9]+]]: R.Shape(ndim=1) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(T.int64(1)), R.prim_value(T.int64(1)), R.prim_value(T.int64([[FLAT_SLOT:[0-9]+]])),
# CHECK-NEXT: R.call_packed("vm.builtin.reshape", lv0, [[FLAT]],
# CHECK-LABEL: def main_shape_func(
# CHECK-DAG: H[[[BYTES_SLOT]]] = H[0] * T.int64(16)
# CHECK-DAG: H[[[FLAT_SLOT]]] = H[0] * T.int64(4)

@I.ir_module
class Module:
    @T.prim_func
    def exp(x: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, 4), "float32")
        Y = T.match_buffer(y, (n, 4), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = T.exp(X[vi, vj])

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.call_tir(Module.exp, (x,), out_sinfo=R.Tensor((n, 4), "float32"))
            lv1 = R.reshape(lv0, R.shape([n * 4]))
            R.output(lv1)
        return lv1
