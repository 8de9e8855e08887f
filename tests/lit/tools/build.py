# relaxc build: a module compiled to an executable for one or more targets, the pipeline's
# options, and the errors a module or the command line can have.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/mobile.rxe
# RUN: %relaxc inspect %t/mobile.rxe | FileCheck %s --check-prefix=MOBILE
# MOBILE: exports: layer, main
# MOBILE: backend 0: SPIR-V, target "vulkan -profile=mobile"
# MOBILE-NOT: backend 1
#
# Two targets: one backend each, in order; the kernels are the same functions.
# RUN: %relaxc build %S/../../../examples/mlp.py --target=cuda --target "vulkan -profile=desktop" -o %t/both.rxe
# RUN: %relaxc inspect %t/both.rxe | FileCheck %s --check-prefix=BOTH
# BOTH: backend 0: PTX, target "cuda -arch=sm_80"
# BOTH: kernel function 0 'fused_dense_bias_relu'
# BOTH: backend 1: SPIR-V, target "vulkan -profile=desktop"
# BOTH: kernel function 0 'fused_dense_bias_relu'
#
# Without -o: FILE's stem + .rxe in the current directory.
# RUN: cd %t && %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile"
# RUN: %relaxc inspect %t/mlp.rxe | FileCheck %s --check-prefix=MOBILE
#
# --print-after-each prints the module after every lowering pass, in the pipeline's order;
# --time-passes one line per pass on standard error.
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/p.rxe --print-after-each | FileCheck %s --check-prefix=PRINT
# PRINT: # after lambda-lift
# PRINT: # after to-non-dataflow
# PRINT: # after remove-purity-checking
# PRINT: # after call-tir-rewrite
# PRINT: R.memory.alloc_storage
# PRINT: # after static-plan-block-memory
# PRINT: "relaxc.memory_plan"
# PRINT: # after vm-builtin-lower
# PRINT: vm.builtin.alloc_tensor
# PRINT: # after vm-shape-lower
# PRINT: vm.builtin.match_shape
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/t.rxe --time-passes 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
# TIME: lambda-lift {{[0-9.e+-]+}} ms
# TIME: vm-shape-lower {{[0-9.e+-]+}} ms
#
# An operator on a tensor of unknown shape cannot become a TensorIR function: the error
# names it, the binding, the argument and the place.
# RUN: sh -c '%relaxc build %s --target vulkan -o %t/bad.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-LOWERING
# NO-LOWERING: build.py:[[@LINE+24]]:{{[0-9]+}}: error: R.add (binding 'lv0'): cannot legalize: the shape of argument 'x1' is not known (R.Tensor(dtype="float32", ndim=2)); the TensorIR function needs it (annotate it, or R.match_cast it to a shape)
# NO-LOWERING: exit status 1
#
# A module that is not well formed is refused before any pass runs.
# RUN: sh -c '%relaxc build %S/Inputs/undefined_name.py --target vulkan -o %t/bad.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNDEFINED
# UNDEFINED: undefined_name.py:9:27: error: unknown name 'undefined_name'
# UNDEFINED: exit status 1
#
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py -o %t/x.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-TARGET
# NO-TARGET: relaxc build: error: missing --target (e.g. --target vulkan)
# NO-TARGET-NEXT: Run 'relaxc build --help' for usage.
# NO-TARGET-NEXT: exit status 2
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target metal -o %t/x.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BAD-TARGET
# BAD-TARGET: error: invalid target 'metal': unknown target kind 'metal'; expected 'vulkan' or 'cuda'
# BAD-TARGET: exit status 1
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/no/such/dir/x.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BAD-OUTPUT
# BAD-OUTPUT: relaxc build: error: {{.*}}no/such/dir/x.rxe
# BAD-OUTPUT: exit status 1

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor(ndim=2, dtype="float32"):
        with R.dataflow():
            lv0 = R.add(x, x)
            R.output(lv0)
        return lv0
