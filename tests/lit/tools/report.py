# relaxc build --report: the kernel report of each target, checked against hand counts of
# the kernels the default schedule's rules make (an elementwise add, softmax by the row
# reduction rule, a matmul tiled by the matmul rule), as expressions and at
# --report-shape values, with the roofline on a device preset; the executable is still
# written; the errors.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc build %s --target cuda -o %t/m.rxe --report | FileCheck %s --check-prefix=SYMBOLIC
# RUN: %relaxc inspect %t/m.rxe | FileCheck %s --check-prefix=WRITTEN
# WRITTEN: exports: main
#
# add of m x n: reads 2 * 4mn bytes, writes 4mn, mn FLOPs: the compulsory traffic.
# SYMBOLIC: kernel report: target "cuda -arch=sm_80"
# SYMBOLIC-NEXT: function 'add': 1 kernel
# SYMBOLIC-NEXT: kernel 'add_kernel': grid [(m * n + 255) // 256, 1, 1], block [256, 1, 1], shared 0 B, {{registers [0-9]+, spills 0 B|registers: ptxas is not installed}}
# SYMBOLIC-NEXT: read m * n * 8 B, written m * n * 4 B, flops m * n
# SYMBOLIC-NEXT: traffic m * n * 12 B, compulsory m * n * 12 B (read m * n * 8, written m * n * 4), ratio 1.00
#
# softmax (opaque to fusion: the add stays its own kernel) under the row reduction rule:
# one thread block of 256 per row. Its rows have a symbolic length n, so the rule
# specializes it by shape. For n <= 4096 (a row of float32 in half of the 48 KiB of
# shared memory) the row is copied once into shared memory (16384 B), where the three
# stages (max, sum of exp, normalize) read it: 4mn bytes read, 4mn written, the
# compulsory traffic. Longer rows are read by each stage: 12mn bytes. FLOPs: per element
# 1 max, then sub + exp + add, then sub + exp + div; per row the CUDA tree of each of the
# two reductions (5 shuffle steps over 256 threads, 3 over the 8 warp results, a final
# op: 1377 each). Shared memory: each reduction's 8 warp results (32 B) and the row's max
# and sum (8 B); every element reads the max (in the sum) and the max and sum (in the
# normalization) from there, and, staged, itself in each stage (12 B).
# SYMBOLIC: function 'softmax': 2 kernels
# SYMBOLIC-NEXT: kernel 'softmax_kernel_0' (when n < 4097): grid [m, 1, 1], block [256, 1, 1], shared 16456 B
# SYMBOLIC-NEXT: read m * min(n, 4096) * 4 B, written m * min(n, 4096) * 4 B, flops m * 2754 + m * min(n, 4096) * 7
# SYMBOLIC-NEXT: shared read m * 64 + m * min(n, 4096) * 24 B, written m * 72 + m * min(n, 4096) * 4 B
# SYMBOLIC-NEXT: kernel 'softmax_kernel_1' (when 4096 < n): grid [m, 1, 1], block [256, 1, 1], shared 72 B
# SYMBOLIC-NEXT: read m * n * 12 B, written m * n * 4 B, flops m * 2754 + m * n * 7
# SYMBOLIC-NEXT: shared read m * 64 + m * n * 12 B, written m * 72 B
# SYMBOLIC-NEXT: traffic select(n < 4097, m * min(n, 4096) * 8, 0) + select(4096 < n, m * n * 16, 0) B, compulsory m * n * 8 B (read m * n * 4, written m * n * 4)
#
# matmul (m x n) (n x k): m is symbolic, so the GEMV rule specializes it by shape. For
# m <= 4 the GEMV: 32 output columns per thread block, 8 groups of threads splitting n.
# For more, the matmul rule: 128 x 128 output tiles on 16 x 16 threads, each k step of 8
# copies a 128 x 8 tile of A and an 8 x 128 tile of B (8192 B) into shared memory; each
# A element there is read by the 16 threads of its row group (64 B), each B element by
# the 16 of its column group. m, n and k are padded to multiples of the tiles (128, 8
# and 128), so every thread computes its whole 8 x 8 register tile: the FLOPs are those
# of the padded product. Tail guards on the shared copies' loads and on the write-back
# make the counts upper bounds. The function's traffic takes each launch where its
# condition holds.
# SYMBOLIC: function 'matmul': 2 kernels
# SYMBOLIC-NEXT: kernel 'matmul_kernel_0' (when m < 5): grid [m * ((k + 31) // 32), 1, 1], block [32, 8, 1], shared 1024 B
# SYMBOLIC: kernel 'matmul_kernel_1' (when 4 < m): grid [(k + 127) // 128, min((m + 127) // 128, 65535), ((m + 127) // 128 + 65534) // 65535], block [16, 16, 1], shared 8192 B
# SYMBOLIC-NEXT: read <= (k + 127) // 128 * ((m + 127) // 128) * ((n + 7) // 8) * 8192 B, written <= k * m * 4 B, flops <= (k + 127) // 128 * ((m + 127) // 128) * ((n + 7) // 8) * 262144
# SYMBOLIC-NEXT: shared read <= (k + 127) // 128 * ((m + 127) // 128) * ((n + 7) // 8) * 131072 B, written <= (k + 127) // 128 * ((m + 127) // 128) * ((n + 7) // 8) * 8192 B
# SYMBOLIC-NEXT: traffic select(m < 5, m * n * ((k + 31) // 32) * 256 + m * ((k + 31) // 32) * 128, 0) + select(4 < m, k * m * 4 + (k + 127) // 128 * ((m + 127) // 128) * ((n + 7) // 8) * 8192, 0) B, compulsory k * m * 4 + k * n * 4 + m * n * 4 B (read k * n * 4 + m * n * 4, written k * m * 4)
# SYMBOLIC-NOT: roofline
#
# At m=64, n=256, k=128 on the H100 preset: add moves 196608 bytes (58.7 ns at 3.35 TB/s)
# in 64 thread blocks, which occupy 64 of the 132 SMs (58.7 ns * 132 / 64 = 121 ns);
# softmax (n <= 4096) 131072 against 131072 (ratio 1.00); matmul, its tiles (m > 4): one thread
# block, 32 k steps of 8192 bytes (262144) + 32768 written, against 229376 (ratio 1.29);
# it computes the padded 128 x 128 x 256 product (8388608 FLOPs, half of its rows past
# m) on one of the 132 SMs: 8388608 / (67 TFLOP/s / 132) = 16.5 us.
# RUN: %relaxc build %s --target cuda -o %t/m.rxe --report --report-device h100 --report-shape m=64 --report-shape=n=256,k=128 | FileCheck %s --check-prefix=H100
# H100: kernel report: target "cuda -arch=sm_80", device h100, k=128, m=64, n=256
# H100-NEXT: device: NVIDIA H100 SXM: 3.35 TB/s HBM3, 67 TFLOP/s FP32, 990 TFLOP/s FP16 tensor (dense), 132 SMs; the roofline uses FP32 (no kernel uses tensor cores)
# H100: at these shapes: read 131072 B, written 65536 B, flops 16384, roofline 121 ns (memory, 64 thread blocks for 132 multiprocessors)
# H100-NEXT: traffic m * n * 12 B, compulsory m * n * 12 B (read m * n * 8, written m * n * 4), ratio 1.00
# H100-NEXT: roofline 121 ns
# H100: function 'softmax'
# H100: kernel 'softmax_kernel_1' (when 4096 < n)
# H100-NEXT: read
# H100-NEXT: shared read
# H100-NEXT: at these shapes: not launched
# H100: ratio 1.00
# H100: function 'matmul'
# H100: kernel 'matmul_kernel_0' (when m < 5)
# H100: at these shapes: not launched
# H100: at these shapes: read 262144 B, written 32768 B, flops 8388608, roofline 16.5 us (compute, 1 thread block for 132 multiprocessors)
# H100: ratio 1.29
# H100-NEXT: roofline 16.5 us
# H100-NEXT: total roofline (each function once):
#
# Vulkan: the same counts with the blocks past 65535 on blockIdx.y (under a guard), and the
# shared-memory tree (255 adds and a final one per row); no registers.
# RUN: %relaxc build %s --target "vulkan -profile=mobile" -o %t/v.rxe --report --report-device mobile --report-shape m=1000,n=7,k=3 | FileCheck %s --check-prefix=MOBILE
# MOBILE: kernel report: target "vulkan -profile=mobile", device mobile, k=3, m=1000, n=7
# MOBILE-NEXT: device: a phone GPU
# MOBILE: kernel 'add_kernel': grid [min((m * n + 127) // 128, 65535), ((m * n + 127) // 128 + 65534) // 65535, 1], block [128, 1, 1], shared 0 B, registers: not reported for SPIR-V
# MOBILE-NEXT: read m * n * 8 B, written m * n * 4 B, flops m * n
# MOBILE-NEXT: at these shapes: read 56000 B, written 28000 B, flops 7000, roofline 1.64 us (memory)
#
# Errors: an unknown preset and malformed values are usage errors (exit 2); a variable no
# kernel has fails the build before the executable is written (exit 1).
# RUN: sh -c '%relaxc build %s --target cuda -o %t/e.rxe --report --report-device a100 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=DEVICE
# DEVICE: relaxc build: error: unknown --report-device 'a100'; known devices: h100, mobile
# DEVICE: exit status 2
# RUN: sh -c '%relaxc build %s --target cuda -o %t/e.rxe --report --report-shape n 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=MALFORMED
# MALFORMED: relaxc build: error: --report-shape: expected NAME=VALUE (e.g. n=4096), got 'n'
# MALFORMED: exit status 2
# RUN: sh -c '%relaxc build %s --target cuda -o %t/e.rxe --report --report-shape n=big 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=VALUE
# VALUE: relaxc build: error: --report-shape: the value of 'n' must be a non-negative integer below 10^18, got 'big'
# VALUE: exit status 2
# RUN: sh -c '%relaxc build %s --target cuda -o %t/e.rxe --report-device h100 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-REPORT
# NO-REPORT: relaxc build: error: --report-device and --report-shape need --report
# NO-REPORT: exit status 2
# RUN: sh -c '%relaxc build %s --target cuda -o - --report 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=STDOUT
# STDOUT: relaxc build: error: --report prints to standard output, so -o - cannot write the executable there
# STDOUT: exit status 2
# RUN: sh -c '%relaxc build %s --target cuda -o %t/q.rxe --report --report-shape q=3 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNKNOWN-VAR
# UNKNOWN-VAR: relaxc build: error: --report-shape: 'q' names no shape variable of the kernels (their variables: k, m, n)
# UNKNOWN-VAR: exit status 1
# RUN: not test -e %t/q.rxe

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("m", "n"), dtype="float32"), y: R.Tensor(("m", "n"), dtype="float32"), w: R.Tensor(("n", "k"), dtype="float32")) -> R.Tensor(("m", "k"), dtype="float32"):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        with R.dataflow():
            lv: R.Tensor((m, n), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((m, n), dtype="float32") = R.nn.softmax(lv, axis=-1)
            gv: R.Tensor((m, k), dtype="float32") = R.matmul(lv1, w, out_dtype="void")
            R.output(gv)
        return gv
