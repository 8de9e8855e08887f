# The runtime alone: examples/embed/embed_mlp.cc links relaxc_runtime only (no LLVM, no
# SPIRV-Tools, no driver library: those are opened at run time), loads an executable
# that relaxc built, runs it on the device present and writes the result, which matches
# the reference.
#
# RUN: ldd %embed_mlp | FileCheck %s --check-prefix=LINKS --implicit-check-not=LLVM --implicit-check-not=SPIRV --implicit-check-not=vulkan --implicit-check-not=libcuda
# LINKS: libc.so
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %S/../../../scripts/mlp_data.py inputs %t --batch 5
# RUN: %relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/mlp.rxe
# RUN: %embed_mlp %t/mlp.rxe %t/images.npy %t/w.npy %t/b.npy %t/out.npy | FileCheck %s --check-prefix=EMBED
# EMBED: main -> float32 (160 values)
# RUN: python3 %S/../../../scripts/mlp_data.py check %t %t/out.npy | FileCheck %s --check-prefix=REFERENCE
# REFERENCE: ok: output matches the reference (160 values, batch 5)
#
# Several VMs on threads at once, sharing the executable and the device.
# RUN: %embed_mlp %t/mlp.rxe %t/images.npy %t/w.npy %t/b.npy %t/out.npy --threads 4 | FileCheck %s --check-prefix=THREADS
# THREADS: 4 threads, one VM each on the shared device: results equal
# RUN: not %embed_mlp %t/mlp.rxe %t/images.npy %t/w.npy %t/b.npy %t/out.npy --threads 0 2>&1 | FileCheck %s --check-prefix=BAD-THREADS
# BAD-THREADS: embed_mlp: error: --threads takes 1 to 64, got '0'
#
# RUN: not %embed_mlp %t/missing.rxe %t/images.npy %t/w.npy %t/b.npy %t/out.npy 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: embed_mlp: error: {{.*}}missing.rxe: cannot open: No such file or directory
