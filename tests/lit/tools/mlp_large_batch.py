# examples/mlp.py at a batch whose default schedule needs more blocks than Vulkan's 65535
# per grid axis: `dense` (fused with its bias and relu; the row reduction rule gives each
# output a thread block) binds its n * 32 outputs to blockIdx.x (131072 blocks at batch
# 4096). The launch is capped at the target's limit and each block strides over the rest
# (split_host_device's grid-stride loop); the result matches the reference.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/mlp.rxe --print-after-each 2>&1 | FileCheck %s --check-prefix=KERNEL
# KERNEL: # after split-host-device
# KERNEL: def fused_dense_bias_relu_kernel(
# KERNEL: T.thread_binding(T.min({{.*}}65535{{.*}}), thread="blockIdx.x")
# KERNEL: for i_j_0_fused_stride in range(
# RUN: python3 %S/../../../scripts/mlp_data.py inputs %t --batch 4096
# RUN: %relaxc run %t/mlp.rxe --device vulkan --function main --input %t/images.npy --input %t/w.npy --input %t/b.npy --output-dir %t/out | FileCheck %s --check-prefix=OUT
# OUT: main_0: float32 (131072,)
# RUN: python3 %S/../../../scripts/mlp_data.py check %t %t/out/main_0.npy | FileCheck %s --check-prefix=REFERENCE
# REFERENCE: ok: output matches the reference (131072 values, batch 4096)
