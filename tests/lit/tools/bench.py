# relaxc bench: a function timed on the Vulkan device present (lavapipe in CI): latency,
# host time, device time per kernel (timestamp queries), peak device bytes; the JSON in
# Google Benchmark's format; every bad option or input a located error.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %S/../../../scripts/mlp_data.py inputs %t --batch 16
#
# out = (x + y) * x with x = y = images (16, 8, 8): one fused kernel, and three tensors
# of 4096 bytes live during a call (Inputs/bench_add_mul.py).
# RUN: %relaxc bench %S/Inputs/bench_add_mul.py --device vulkan --input %t/images.npy --input %t/images.npy --warmup 1 --repeat 5 --json %t/add_mul.json | FileCheck %s --check-prefix=TEXT
# TEXT: device: {{.+}} (SPIR-V)
# TEXT-NEXT: main: 5 calls measured
# TEXT-NEXT: latency per call: min {{[0-9.]+}} us, median {{[0-9.]+}} us, p90 {{[0-9.]+}} us
# TEXT-NEXT: host time per call: {{[0-9.]+}} us (median)
# TEXT-NEXT: launches per call: 1 (1 replayed)
# TEXT-NEXT: peak device memory: 12288 bytes in use ({{[0-9]+}} bytes reserved)
# TEXT-NEXT: device time per kernel (mean per call):
# TEXT-NEXT: fused_add_mul_kernel {{ *[0-9.]+}} us (1 launch)
# RUN: python3 %S/Inputs/check_bench_json.py %t/add_mul.json 5 12288 fused_add_mul_kernel | FileCheck %s --check-prefix=JSON
# JSON: ok: 2 entries
#
# The warm-up call recorded the kernel's dispatch, and each measured call replayed it;
# with replay off, each call records it.
# RUN: env RELAXC_VULKAN_REPLAY=0 %relaxc bench %S/Inputs/bench_add_mul.py --device vulkan --input %t/images.npy --input %t/images.npy --warmup 1 --repeat 2 | FileCheck %s --check-prefix=NO-REPLAY
# NO-REPLAY: launches per call: 1 (0 replayed)
#
# The MLP example, its JSON on standard output: its batch is symbolic, so its layer has
# a GEMV kernel for batches of at most 4 and a tiled one for more; at batch 16 the tiled
# one is launched, once, and the GEMV not at all.
# RUN: %relaxc bench %S/../../../examples/mlp.py --input %t/images.npy --input %t/w.npy --input %t/b.npy --warmup 0 --repeat 3 --json - > %t/mlp.json
# RUN: python3 %S/Inputs/check_bench_json.py %t/mlp.json 3 - fused_dense_bias_relu_kernel_1 | FileCheck %s --check-prefix=JSON-MLP
# JSON-MLP: ok: 2 entries
#
# RUN: %relaxc bench --help | FileCheck %s --check-prefix=HELP
# HELP: Usage: relaxc bench PROGRAM [--function NAME] [--input FILE.npy ...] [--device DEVICE]
#
# Errors: a bad count is a usage error (status 2); a wrong input, a missing file or an
# unknown device status 1; each one line naming the command.
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --repeat 0 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=REPEAT-ZERO
# REPEAT-ZERO: relaxc bench: error: --repeat expects an integer from 1 to 1000000, got '0'
# REPEAT-ZERO-NEXT: Run 'relaxc bench --help' for usage.
# REPEAT-ZERO-NEXT: exit status 2
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --repeat=12x 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=REPEAT-TEXT
# REPEAT-TEXT: relaxc bench: error: --repeat expects an integer from 1 to 1000000, got '12x'
# REPEAT-TEXT: exit status 2
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --warmup -1 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=WARMUP
# WARMUP: relaxc bench: error: --warmup expects an integer from 0 to 1000000, got '-1'
# WARMUP: exit status 2
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --repeat 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-VALUE
# NO-VALUE: relaxc bench: error: option '--repeat' needs a value
# NO-VALUE: exit status 2
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --output-dir %t/out 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=OUTPUT-DIR
# OUTPUT-DIR: relaxc bench: error: unknown option '--output-dir'
# OUTPUT-DIR: exit status 2
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --input %t/images.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=COUNT
# COUNT: relaxc bench: error: function 'main' takes 2 arguments (x, y), got 1 --input
# COUNT-NEXT: exit status 1
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --input %t/images.npy --input %t/missing.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=MISSING-INPUT
# MISSING-INPUT: relaxc bench: error: {{.*}}missing.npy: cannot open: No such file or directory
# MISSING-INPUT-NEXT: exit status 1
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --input %t/images.npy --input %t/images.npy --device metal 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BAD-DEVICE
# BAD-DEVICE: relaxc bench: error: device 'metal': unknown device kind 'metal'; expected 'auto', 'vulkan', 'vulkan:INDEX', 'vulkan:NAME', 'cuda' or 'cuda:INDEX'
# BAD-DEVICE-NEXT: exit status 1
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --input %t/images.npy --input %t/w.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=SHAPE
# SHAPE: relaxc bench: error: {{.*}}main: argument 'y' ({{.*}}), expected R.Tensor((n, 8, 8), dtype="float32"): ndim is 2, expected 3
# SHAPE-NEXT: exit status 1
# RUN: sh -c '%relaxc bench %S/Inputs/bench_add_mul.py --input %t/images.npy --input %t/images.npy --json %t/no/such/dir/out.json 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=JSON-DIR
# JSON-DIR: relaxc bench: error: {{.*}}out.json: cannot write
# JSON-DIR: exit status 1
#
# bench/compare_torch.py without a GPU (CUDA hidden): it says why it skips.
# RUN: env CUDA_VISIBLE_DEVICES= /usr/bin/python3 %S/../../../bench/compare_torch.py --relaxc %relaxc --work %t/torch | FileCheck %s --check-prefix=TORCH
# TORCH: skip: PyTorch {{is not installed|sees no CUDA GPU}}
