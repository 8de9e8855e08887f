# relaxc run: an executable, or a module built in memory, run on the Vulkan device present
# (lavapipe in CI) with .npy inputs; each output printed and written; every wrong input
# an error that names the function, the argument and the dimension.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %S/../../../scripts/mlp_data.py inputs %t --batch 3
# RUN: %relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/mlp.rxe
# RUN: %relaxc run %t/mlp.rxe --device vulkan --function main --input %t/images.npy --input %t/w.npy --input %t/b.npy --output-dir %t/out | FileCheck %s --check-prefix=MLP
# MLP: device: {{.+}} (SPIR-V)
# MLP-NEXT: main_0: float32 (96,) [{{.*}}, ...] -> {{.*}}out/main_0.npy
# RUN: python3 %S/../../../scripts/mlp_data.py check %t %t/out/main_0.npy | FileCheck %s --check-prefix=REFERENCE
# REFERENCE: ok: output matches the reference (96 values, batch 3)
#
# The module itself, built in memory for the device (--function main is the default).
# RUN: %relaxc run %S/../../../examples/mlp.py --input=%t/images.npy --input %t/w.npy --input %t/b.npy --output-dir=%t/out2
# RUN: python3 %S/../../../scripts/mlp_data.py check %t %t/out2/main_0.npy | FileCheck %s --check-prefix=REFERENCE
#
# Another exported function: its argument x is checked against (n, 64).
# RUN: not %relaxc run %t/mlp.rxe --function layer --input %t/w.npy --input %t/w.npy --input %t/b.npy 2>&1 | FileCheck %s --check-prefix=LAYER-DIM
# LAYER-DIM: relaxc run: error: {{.*}}layer: argument 'x' ({{.*}}mlp.py:{{[0-9]+}}:{{[0-9]+}}), expected R.Tensor((n, 64), dtype="float32"): dimension 1 is 32, expected 64
#
# A result tuple: each tensor (and the shape) in order, nested tuples flattened. x is
# b.npy: b[j] = (j % 5 - 2) / 4, so x + 1 starts 0.5, 0.75, 1 and 2 * x starts -1, -0.5.
# RUN: %relaxc run %S/Inputs/tuple_outputs.py --input %t/b.npy --output-dir %t/tuple | FileCheck %s --check-prefix=TUPLE
# TUPLE: main_0: float32 (32,) [0.5, 0.75, 1, 1.25, 1.5, 0.5, 0.75, 1, ...] -> {{.*}}tuple/main_0.npy
# TUPLE-NEXT: main_1: float32 (32,) [-1, -0.5, 0, 0.5, 1, -1, -0.5, 0, ...] -> {{.*}}tuple/main_1.npy
# TUPLE-NEXT: main_2: int64 (1,) [32] -> {{.*}}tuple/main_2.npy
# RUN: python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(); print(d[:6], struct.unpack('<q', d[-8:])[0])" %t/tuple/main_2.npy | FileCheck %s --check-prefix=SHAPE-FILE
# SHAPE-FILE: b'\x93NUMPY' 32
#
# Errors: status 1, "relaxc run: error: ...".
# RUN: sh -c '%relaxc run %t/mlp.rxe --input %t/images.npy --input %t/w.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=COUNT
# COUNT: relaxc run: error: function 'main' takes 3 arguments (images, w, b), got 2 --input
# COUNT-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --input %t/w.npy --input %t/w.npy --input %t/b.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NDIM
# NDIM: relaxc run: error: {{.*}}main: argument 'images' ({{.*}}mlp.py:{{[0-9]+}}:{{[0-9]+}}), expected R.Tensor((n, 8, 8), dtype="float32"): ndim is 2, expected 3
# NDIM-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --input %t/images.npy --input %t/w.npy --input %t/images.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=ARG-B
# ARG-B: relaxc run: error: {{.*}}main: argument 'b' ({{.*}}), expected R.Tensor((32,), dtype="float32"): ndim is 3, expected 1
# ARG-B-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --input %t/missing.npy --input %t/w.npy --input %t/b.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=MISSING-INPUT
# MISSING-INPUT: relaxc run: error: {{.*}}missing.npy: cannot open: No such file or directory
# MISSING-INPUT-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --input %t/mlp.rxe --input %t/w.npy --input %t/b.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NOT-NPY
# NOT-NPY: relaxc run: error: {{.*}}mlp.rxe: not a .npy file
# NOT-NPY-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/missing.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=MISSING-PROGRAM
# MISSING-PROGRAM: relaxc run: error: {{.*}}missing.rxe: cannot open: No such file or directory
# MISSING-PROGRAM-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --function predict 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-FUNCTION
# NO-FUNCTION: relaxc run: error: the executable exports no function 'predict' (it exports: layer, main)
# NO-FUNCTION-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --device metal 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BAD-DEVICE
# BAD-DEVICE: relaxc run: error: device 'metal': unknown device kind 'metal'; expected 'auto', 'vulkan', 'vulkan:INDEX', 'vulkan:NAME', 'cuda' or 'cuda:INDEX'
# BAD-DEVICE-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --frobnicate 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BAD-OPTION
# BAD-OPTION: relaxc run: error: unknown option '--frobnicate'
# BAD-OPTION-NEXT: Run 'relaxc run --help' for usage.
# BAD-OPTION-NEXT: exit status 2
#
# RUN: %relaxc run --help | FileCheck %s --check-prefix=HELP
# HELP: Usage: relaxc run PROGRAM [--function NAME] [--input FILE.npy ...] [--output-dir DIR]
# HELP: --device DEVICE
# RUN: %relaxc --help | FileCheck %s --check-prefix=PROGRAM
# PROGRAM: build   compile FILE to an executable
# PROGRAM: run     run a function of an executable
# PROGRAM: inspect print an executable as text
