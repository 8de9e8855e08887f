# relaxc codegen's errors: a dtype the target lacks, a bad target, a missing target.
# RUN: not %relaxc codegen --target "vulkan -profile=mobile" %s 2>&1 | FileCheck %s --check-prefix=FP16
# RUN: %relaxc codegen --target "vulkan -profile=desktop" %s | FileCheck %s --check-prefix=DESKTOP
# RUN: not %relaxc codegen --target "vulkan -profile=tiny" %s 2>&1 | FileCheck %s --check-prefix=PROFILE
# RUN: not %relaxc codegen --target metal %s 2>&1 | FileCheck %s --check-prefix=KIND
# RUN: not %relaxc codegen %s 2>&1 | FileCheck %s --check-prefix=MISSING
# RUN: not %relaxc codegen --target vulkan --emit=binary %s 2>&1 | FileCheck %s --check-prefix=EMIT

# FP16: float16
# FP16-SAME: vulkan -profile=mobile
# DESKTOP-DAG: OpCapability Float16
# DESKTOP-DAG: OpCapability StorageBuffer16BitAccess
# PROFILE: error: invalid target 'vulkan -profile=tiny': unknown profile 'tiny'; expected 'desktop' or 'mobile'
# KIND: error: invalid target 'metal': unknown target kind 'metal'; expected 'vulkan' or 'cuda'
# MISSING: relaxc codegen: error: missing --target (e.g. --target vulkan)
# EMIT: relaxc codegen: error: --emit=binary needs -o OUTPUT

@I.ir_module
class Module:
    @T.prim_func
    def half_scale(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float16")
        B = T.match_buffer(b, (n,), "float16")
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                B[vi] = A[vi] * T.float16(2)
