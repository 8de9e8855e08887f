# inspect --verify on PTX: ptxas assembles each kernel for the PTX's own .target.
#
# REQUIRES: ptxas
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %S/../../../examples/mlp.py --target cuda --target "vulkan -profile=mobile" -o %t/both.rxe
# RUN: %relaxc inspect --verify %t/both.rxe | FileCheck %s
# CHECK: verify:
# CHECK-NEXT: backend 0 (cuda -arch=sm_80), kernel 'fused_dense_bias_relu_kernel_0': ptxas: valid
# CHECK-NEXT: backend 0 (cuda -arch=sm_80), kernel 'fused_dense_bias_relu_kernel_1': ptxas: valid
# CHECK-NEXT: backend 1 (vulkan -profile=mobile), kernel 'fused_dense_bias_relu_kernel_0': {{spirv-val: valid|not verified: spirv-val is not installed}}
# CHECK-NEXT: backend 1 (vulkan -profile=mobile), kernel 'fused_dense_bias_relu_kernel_1': {{spirv-val: valid|not verified: spirv-val is not installed}}
