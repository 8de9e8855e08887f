# vm-builtin-lower: allocation, reshape and shape_of become vm.builtin packed calls; a
# computing operator left in the module is an error at its binding.
#
# RUN: %relaxc opt %s --passes=vm-builtin-lower,well-formed | FileCheck %s
# RUN: sed -e 's/# EXTRA_LINE/z = R.nn.relu(x)/' %s | not %relaxc opt - --passes=vm-builtin-lower 2>&1 | FileCheck %s --check-prefix=ERR
#
# CHECK-LABEL: def main(
# CHECK: s: R.Object = R.call_packed("vm.builtin.alloc_storage", R.shape([24]), R.prim_value(T.int64(0)), R.str("global"), R.dtype("uint8"), sinfo_args=
# CHECK-NEXT: t: R.Tensor((2, 3), dtype="float32") = R.call_packed("vm.builtin.alloc_tensor", s, R.prim_value(T.int64(0)), R.shape([2, 3]), R.dtype("float32"), sinfo_args=
# CHECK-NEXT: a: R.Tensor((6,), dtype="float32") = R.call_packed("vm.builtin.reshape", x, R.shape([6]), sinfo_args=
# CHECK-NEXT: sh: R.Shape([2, 3]) = R.call_packed("vm.builtin.shape_of", t, sinfo_args=
# ERR: error: R.nn.relu (binding 'z'): run legalize-ops before vm-builtin-lower

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32")) -> R.Tensor((6,), "float32"):
        s = R.memory.alloc_storage(R.shape([24]), R.prim_value(T.int64(0)), R.str("global"), R.dtype("uint8"))
        t = R.memory.alloc_tensor(s, R.prim_value(T.int64(0)), R.shape([2, 3]), R.dtype("float32"))
        a = R.reshape(x, R.shape([6]))
        sh = R.shape_of(t)
        # EXTRA_LINE
        return a
