# The build's pipeline as registered passes: --print-after-each shows the Relax lowering,
# then every TensorIR step in order for each target, the kernels printed as a module
# that parses back; --disable-pass skips a pass the build is correct without and refuses
# the others; relaxc opt runs the TensorIR steps by name, with --target.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/p.rxe --print-after-each | FileCheck %s --check-prefix=STEPS
# STEPS: # after fuse-ops
# STEPS: def fused_dense_bias_relu(
# STEPS: R.func_attr({"Primitive": True})
# STEPS: # after fuse-tir
# STEPS: # after vm-shape-lower
# STEPS: # after default-gpu-schedule [vulkan -profile=mobile]
# STEPS: def fused_dense_bias_relu(
# STEPS: T.thread_binding({{.*}}thread="blockIdx.x")
# STEPS: with T.block("y"):
# STEPS: # after unify-thread-bindings [vulkan -profile=mobile]
# STEPS: # after lower-cross-thread-reduction [vulkan -profile=mobile]
# STEPS: # after lower-blocks [vulkan -profile=mobile]
# STEPS-NOT: T.block
# STEPS: # after split-host-device [vulkan -profile=mobile]
# STEPS: def fused_dense_bias_relu_kernel_0(
# STEPS: # after insert-shared-barriers [vulkan -profile=mobile]
# STEPS: # after compact-buffer-allocations [vulkan -profile=mobile]
# STEPS: # after prefetch-tile-copies [vulkan -profile=mobile]
# STEPS: # after flatten-buffers [vulkan -profile=mobile]
# STEPS: # after narrow-to-int32 [vulkan -profile=mobile]
# STEPS: def fused_dense_bias_relu_kernel_0({{.*}}n: T.int32):
# STEPS: # after simplify-kernel [vulkan -profile=mobile]
# STEPS: # after legalize-bfloat16 [vulkan -profile=mobile]
# STEPS: # after legalize-vector-loops [vulkan -profile=mobile]
# STEPS: # after check-kernel-limits [vulkan -profile=mobile]
#
# With two targets the kernel steps run once for each.
# RUN: %relaxc build %S/../../../examples/mlp.py --target cuda --target "vulkan -profile=mobile" -o %t/two.rxe --time-passes 2>&1 >/dev/null | FileCheck %s --check-prefix=TWO
# TWO: vm-shape-lower {{[0-9.e+-]+}} ms
# TWO: default-gpu-schedule [cuda -arch=sm_80] {{[0-9.e+-]+}} ms
# TWO: check-kernel-limits [cuda -arch=sm_80] {{[0-9.e+-]+}} ms
# TWO: default-gpu-schedule [vulkan -profile=mobile] {{[0-9.e+-]+}} ms
# TWO: check-kernel-limits [vulkan -profile=mobile] {{[0-9.e+-]+}} ms
#
# The kernels printed after a step are a module that prints back the same.
# RUN: %relaxc opt %S/../../../examples/mlp.py --target "vulkan -profile=mobile" --passes=default-gpu-schedule,unify-thread-bindings,lower-cross-thread-reduction,lower-blocks,split-host-device > %t/split.py
# RUN: %relaxc print %t/split.py | diff %t/split.py -
# RUN: %relaxc opt %t/split.py --passes=insert-shared-barriers,compact-buffer-allocations,prefetch-tile-copies,flatten-buffers,narrow-to-int32,simplify-kernel,legalize-bfloat16,legalize-vector-loops,check-kernel-limits > %t/kernels.py
# RUN: %relaxc print %t/kernels.py | diff %t/kernels.py -
# RUN: FileCheck %s --check-prefix=KERNELS < %t/kernels.py
# KERNELS: def dense_kernel_0(var_x: T.handle, w: T.Buffer((2048,)), var_y: T.handle, n: T.int32):
# KERNELS: x = T.match_buffer(var_x, (n * 64,))
# KERNELS: T.evaluate(T.tvm_storage_sync("shared"))
#
# A module pass after the split is refused, naming what to do.
# RUN: sh -c '%relaxc opt %t/split.py --passes=split-host-device,lambda-lift 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=AFTER-SPLIT
# AFTER-SPLIT: error: pass 'lambda-lift' transforms a module, but split-host-device has already turned it into kernels; run 'lambda-lift' before split-host-device
# AFTER-SPLIT: exit status 1
#
# --disable-pass skips the pass: it is neither printed nor run, and the build still works.
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/d.rxe --disable-pass=simplify-kernel --disable-pass canonicalize-bindings --print-after-each | FileCheck %s --check-prefix=DISABLED
# DISABLED: # after legalize-ops
# DISABLED-NOT: # after canonicalize-bindings
# DISABLED: # after fold-constant
# DISABLED: # after narrow-to-int32
# DISABLED-NOT: # after simplify-kernel
# DISABLED: # after check-kernel-limits
#
# The GEMV's shared result of the dense layer (its schedule for batches of at most 4) is a
# buffer of the function's size until compact-buffer-allocations shrinks it to a thread
# block's: without it the build stops at the kernel's limits, naming the buffer.
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/c.rxe --disable-pass=compact-buffer-allocations 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-COMPACT
# NO-COMPACT: error: shared buffer 'y' has the non-constant size n * T.int64(32); a kernel's shared buffers need a constant size
# NO-COMPACT: exit status 1
#
# Without the default schedule, an unscheduled function is refused where it would run on
# the host.
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/u.rxe --disable-pass=default-gpu-schedule 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-SCHEDULE
# NO-SCHEDULE: error: loop 'i' of 'fused_dense_bias_relu' is not inside a thread-bound loop, so it would run on the host; bind it (or an outer loop) to blockIdx/threadIdx, or run default_gpu_schedule
# NO-SCHEDULE: exit status 1
#
# A required pass, an unknown pass and a pass outside the pipeline are usage errors.
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/x.rxe --disable-pass=lower-blocks 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=REQUIRED
# REQUIRED: relaxc build: error: --disable-pass: pass 'lower-blocks' is required by the build and cannot be disabled; passes that may be disabled: canonicalize-bindings, fold-constant, fuse-ops, fuse-tir, dead-code-elimination, static-plan-block-memory, default-gpu-schedule, compact-buffer-allocations, prefetch-tile-copies, simplify-kernel
# REQUIRED: exit status 2
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/x.rxe --disable-pass=no-such 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: relaxc build: error: --disable-pass: unknown pass 'no-such'; known passes: normalize, well-formed, legalize-ops,
# UNKNOWN: exit status 2
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/x.rxe --disable-pass normalize 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=OUTSIDE
# OUTSIDE: relaxc build: error: --disable-pass: pass 'normalize' is not part of the build's pipeline; passes that may be disabled: canonicalize-bindings, fold-constant, fuse-ops, fuse-tir, dead-code-elimination, static-plan-block-memory, default-gpu-schedule, compact-buffer-allocations, prefetch-tile-copies, simplify-kernel
# OUTSIDE: exit status 2
# RUN: sh -c '%relaxc build %S/../../../examples/mlp.py --target vulkan -o %t/x.rxe --disable-pass 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-NAME
# NO-NAME: relaxc build: error: option '--disable-pass' needs a value
# NO-NAME: exit status 2
#
# The help lists the pipeline in order, marking the passes that may be disabled.
# RUN: %relaxc build --help | FileCheck %s --check-prefix=HELP
# HELP: --disable-pass=NAME
# HELP: Pipeline, in order (* may be disabled):
# HELP-NEXT: legalize-ops
# HELP-NEXT: canonicalize-bindings *
# HELP-NEXT: fold-constant *
# HELP-NEXT: fuse-ops *
# HELP-NEXT: fuse-tir *
# HELP-NEXT: dead-code-elimination *
# HELP-NEXT: lambda-lift
# HELP: call-tir-rewrite
# HELP-NEXT: static-plan-block-memory *
# HELP-NEXT: vm-builtin-lower
# HELP-NEXT: vm-shape-lower
# HELP-NEXT: then for each target, on the TensorIR functions:
# HELP-NEXT: default-gpu-schedule *
# HELP-NEXT: unify-thread-bindings
# HELP: simplify-kernel *
# HELP-NEXT: legalize-bfloat16
# HELP-NEXT: legalize-vector-loops
# HELP-NEXT: check-kernel-limits
