# relaxc codegen --target vulkan: the default GPU schedule, kernel lowering and SPIR-V.
# RUN: %relaxc codegen --target "vulkan -profile=mobile" %s | FileCheck %s --check-prefix=MOBILE
# RUN: %relaxc codegen --target "vulkan -profile=desktop -version=1.3" %s | FileCheck %s --check-prefix=DESKTOP13
# RUN: %relaxc codegen --target "vulkan -profile=desktop" %s -o %t.spv
# RUN: spirv-val --target-env vulkan1.1 %t.spv
# RUN: %relaxc codegen --target "vulkan -profile=desktop -version=1.3" %s -o %t13.spv
# RUN: spirv-val --target-env vulkan1.3 %t13.spv
# RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=BINARY
# RUN: %relaxc codegen --target "vulkan -profile=mobile" %s | FileCheck %s --check-prefix=READONLY

# MOBILE: ; target: vulkan -profile=mobile
# MOBILE: ; kernel add_kernel
# MOBILE: Version: 1.3
# MOBILE: OpEntryPoint GLCompute %{{[A-Za-z_0-9]+}} "add_kernel"
# MOBILE: OpExecutionMode %{{[A-Za-z_0-9]+}} LocalSize 128 1 1
# MOBILE-DAG: OpDecorate %A Binding 0
# MOBILE-DAG: OpDecorate %B Binding 1
# MOBILE-DAG: OpDecorate %C Binding 2
# MOBILE-DAG: OpDecorate %{{[A-Za-z_0-9]+}} Block
# MOBILE: OpVariable %{{[A-Za-z_0-9]+}} PushConstant
# MOBILE: OpFAdd %float

# DESKTOP13: ; target: vulkan -profile=desktop -version=1.3
# DESKTOP13: Version: 1.6
# DESKTOP13: LocalSize 256 1 1

# BINARY: OpEntryPoint GLCompute %{{[A-Za-z_0-9]+}} "add_kernel"

# The buffers the kernel only reads are NonWritable, the one it stores to is not.
# READONLY: OpDecorate %A Binding 0
# READONLY-NEXT: OpDecorate %A NonWritable
# READONLY: OpDecorate %B Binding 1
# READONLY-NEXT: OpDecorate %B NonWritable
# READONLY: OpDecorate %C Binding 2
# READONLY-NOT: NonWritable

@I.ir_module
class Module:
    @T.prim_func
    def add(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        C = T.match_buffer(c, (n,), "float32")
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
