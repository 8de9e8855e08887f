# A damaged executable is refused by the checksum of the section the damage is in, before
# anything in it is used (a damaged SPIR-V kernel once crashed the driver), by every
# command that loads it; `inspect --verify` gives each kernel to spirv-val (and ptxas),
# which finds what the loader's light scan cannot.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/mlp.rxe
# RUN: python3 %S/Inputs/damage_kernel.py %t/mlp.rxe %t/damaged.rxe
# RUN: sh -c '%relaxc run %t/damaged.rxe --device vulkan 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=LOAD
# RUN: sh -c '%relaxc inspect %t/damaged.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=INSPECT
# LOAD-NOT: device:
# LOAD: relaxc run: error: executable file '{{.*}}damaged.rxe': damaged: section 'BKND' (bytes {{[0-9]+}} to {{[0-9]+}}) has checksum 0x{{[0-9a-f]+}}, the file says 0x{{[0-9a-f]+}}
# LOAD-NEXT: exit status 1
# INSPECT: relaxc inspect: error: executable file '{{.*}}damaged.rxe': damaged: section 'BKND'
# INSPECT-NEXT: exit status 1
#
# The same damage with the checksum recomputed: it loads (an executable is trusted like a
# shared library once its checksums pass), and spirv-val finds the kernel invalid.
# RUN: python3 %S/Inputs/damage_kernel.py %t/mlp.rxe %t/restamped.rxe --restamp
# RUN: sh -c '%relaxc inspect --verify %t/restamped.rxe 2>%t/err; echo "exit status $?"' | FileCheck %s --check-prefix=VERIFY
# RUN: FileCheck %s --check-prefix=VERIFY-ERR < %t/err
# VERIFY: verify:
# VERIFY-NEXT: backend 0 (vulkan -profile=mobile), kernel 'fused_dense_bias_relu_kernel_0': spirv-val: invalid
# VERIFY-NEXT: {{^    }}error:
# VERIFY: exit status 1
# VERIFY-ERR: relaxc inspect: error: '{{.*}}restamped.rxe' has kernels that their tool finds invalid (see 'verify:')
