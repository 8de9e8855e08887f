# relaxc inspect: an executable as text (functions and their instructions, constants,
# host shape functions, kernels); a file that is not a whole executable is refused.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/mlp.rxe
# RUN: %relaxc inspect %t/mlp.rxe | FileCheck %s
# CHECK: relaxc executable, version 5
# CHECK-NEXT: exports: layer, main
# CHECK: function {{[0-9]+}} 'layer': bytecode, params (x, w, b)
# The first instruction of each binding shows where it comes from.
# CHECK: call vm.builtin.alloc_shape_heap(i{{[0-9]+}})  # {{.*}}mlp.py:{{[0-9]+}}:{{[0-9]+}}{{$}}
# CHECK: call fused_dense_bias_relu(
# CHECK: function {{[0-9]+}} 'main': bytecode, params (images, w, b)
# CHECK: call vm.builtin.reshape(
# CHECK: call layer(
# CHECK: constants:
# CHECK: string "main: argument 'images' ({{.*}}mlp.py:{{[0-9]+}}:{{[0-9]+}}), expected R.Tensor((n, 8, 8), dtype=\"float32\")"
# CHECK: host function {{[0-9]+}} 'main_shape_func'
# CHECK: heap[{{[0-9]+}}] = s0 * 32
# CHECK: backend 0: SPIR-V, target "vulkan -profile=mobile"
# CHECK: kernel function 0 'fused_dense_bias_relu'
# CHECK: launch kernel
#
# RUN: %relaxc inspect --help | FileCheck %s --check-prefix=HELP
# HELP: Usage: relaxc inspect [--verify] [-o OUTPUT] FILE
#
# A truncated file, a text module, a missing file: status 1 and a message naming the file.
# RUN: head -c 100 %t/mlp.rxe > %t/truncated.rxe
# RUN: sh -c '%relaxc inspect %t/truncated.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=TRUNCATED
# TRUNCATED: relaxc inspect: error: {{.*}}truncated.rxe{{.*}}truncated at byte 100
# TRUNCATED: exit status 1
# RUN: sh -c '%relaxc inspect %S/../../../examples/mlp.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NOT-EXE
# NOT-EXE: relaxc inspect: error: {{.*}}mlp.py
# NOT-EXE: exit status 1
# RUN: sh -c '%relaxc inspect %t/missing.rxe 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=MISSING
# MISSING: relaxc inspect: error: {{.*}}missing.rxe
# MISSING: exit status 1
