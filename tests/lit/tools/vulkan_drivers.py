# Every Vulkan driver installed here, one at a time: relaxc opens the Vulkan instance
# (and a device where the driver has one), compiles, runs, and exits cleanly. In the
# sanitizer build LeakSanitizer checks each process at exit: a driver library unloaded
# with blocks still reachable from its data would show up here as a leak in an unnamed
# module (the runtime keeps the libraries the loader opens loaded until exit).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 %S/Inputs/each_vulkan_driver.py -- %relaxc codegen --target vulkan %S/../../../examples/mlp.py -o %t/mlp.spv | FileCheck %s
# RUN: python3 %S/../../../scripts/mlp_data.py inputs %t --batch 2
# A driver without a device here (intel, radeon on a machine without their GPUs) makes
# `run` stop with a clean error (exit 1); lavapipe runs the module.
# RUN: python3 %S/Inputs/each_vulkan_driver.py --allow-exit 0,1 -- %relaxc run %S/../../../examples/mlp.py --device vulkan --input %t/images.npy --input %t/w.npy --input %t/b.npy | FileCheck %s
# CHECK-NOT: FAILED
# CHECK: ok: {{[0-9]+}} drivers
