# The convolution rule (passes/tir/gpu_rules/conv_gemm.cc): a convolution and its fused
# epilogue as one implicit-GEMM kernel of the matmul rule's tiles, over a symbolic batch
# and image size; run on lavapipe against NumPy at sizes that leave tails in every tile:
# - 3x3, padding 1, 16 -> 64 channels, + bias + relu (fused into the kernel);
# - 3x3, stride 2, dilation 2, 3 -> 96 channels (k = 27 and 96 rows: tails of the k and
#   row tiles), no epilogue;
# - 1x1, 16 -> 128 channels, + a residual input read at the output's pixel;
# - conv1d, kernel 5, padding 2, 8 -> 64 channels;
# - ResNet's last stage at batch 1: 7 x 7 pixels, fewer than a square tile's 64, so a
#   64 x 32 tile (32 -> 128 channels, 3x3, padding 1); its 4 thread blocks become 16
#   with split-K (4 parts of the 288 products), summed by a second kernel;
# - MobileNet's projections: 1x1, 48 -> 24 channels, fewer than a square tile's 64 rows,
#   so a 16 x 128 tile.
#
# RUN: %op_check %s --work %t --input x:n,16,h,w:float32 --input w1:64,16,3,3:float32:-0.3,0.3 --input b1:1,64,1,1:float32 --input x3:n,3,h,w:float32 --input w2:96,3,3,3:float32 --input w3:128,16,1,1:float32:-0.3,0.3 --input r:n,128,h,w:float32 --input s:n,8,h:float32 --input w4:64,8,5:float32:-0.3,0.3 --input x5:1,32,7,7:float32 --input w5:128,32,3,3:float32:-0.2,0.2 --input x6:n,48,h,w:float32 --input w6:24,48,1,1:float32:-0.2,0.2 --sizes n=1,h=7,w=9 --sizes n=2,h=16,w=21 --reference "(P := __import__('spatial_ref')) and (np.maximum(P.conv(x, w1, [1, 1], [1, 1, 1, 1], [1, 1]) + b1, 0), P.conv(x3, w2, [2, 2], [0, 0, 0, 0], [2, 2]), P.conv(x, w3, [1, 1], [0, 0, 0, 0], [1, 1]) + r, P.conv(s, w4, [1], [2, 2], [1]), P.conv(x5, w5, [1, 1], [1, 1, 1, 1], [1, 1]), P.conv(x6, w6, [1, 1], [0, 0, 0, 0], [1, 1]))" --rtol 1e-4 --atol 1e-4 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 12 output(s) match NumPy
#
# Each convolution is one kernel of shared-memory tiles: A (the weights, one row per
# output channel) and B (the input patches) are read straight from x and w into their
# tiles, never stored (nor their copies padded to whole tiles, the symbolic image too).
# RUN: %relaxc build %s --target vulkan --report -o %t.rxe | FileCheck %s --check-prefix=REPORT
# REPORT: function 'conv2d1': 1 kernel
# REPORT-NEXT: block [8, 8, 1], shared 4096 B
# REPORT: function 'conv1d': 1 kernel
# REPORT-NEXT: block [8, 8, 1], shared 4096 B
# REPORT: function 'conv2d3': 2 kernels
# REPORT-NEXT: kernel 'conv2d3_kernel_0': grid [2, 2, 4], block [4, 8, 1], shared 3072 B
# REPORT: kernel 'conv2d3_kernel_1': grid [49, 1, 1], block [128, 1, 1], shared 0 B
# REPORT: function 'conv2d4': 1 kernel
# REPORT-NEXT: block [16, 2, 1], shared 4608 B
# REPORT: function 'fused_conv2d_add_relu': 1 kernel
# REPORT-NEXT: block [8, 8, 1], shared 4096 B
# REPORT: function 'fused_conv2d2_add1': 1 kernel
# REPORT-NEXT: block [16, 16, 1], shared 8192 B
#
# RUN: %relaxc opt %s --passes=legalize-ops,fuse-ops,fuse-tir,default-gpu-schedule | FileCheck %s
# CHECK-LABEL: def conv1d(
# CHECK: T_conv1d_gemm_pad = T.alloc_buffer((n, T.int64(64), (h + T.int64(63)) // T.int64(64) * T.int64(64)), scope="local")
# CHECK-NOT: {{T_conv1d_input_matrix(_pad)? = }}
# CHECK: T_conv1d_input_matrix_pad_shared = T.alloc_buffer(
# CHECK-SAME: scope="shared"

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 16, "h", "w"), dtype="float32"), w1: R.Tensor((64, 16, 3, 3), dtype="float32"), b1: R.Tensor((1, 64, 1, 1), dtype="float32"), x3: R.Tensor(("n", 3, "h", "w"), dtype="float32"), w2: R.Tensor((96, 3, 3, 3), dtype="float32"), w3: R.Tensor((128, 16, 1, 1), dtype="float32"), r: R.Tensor(("n", 128, "h", "w"), dtype="float32"), s: R.Tensor(("n", 8, "h"), dtype="float32"), w4: R.Tensor((64, 8, 5), dtype="float32"), x5: R.Tensor((1, 32, 7, 7), dtype="float32"), w5: R.Tensor((128, 32, 3, 3), dtype="float32"), x6: R.Tensor(("n", 48, "h", "w"), dtype="float32"), w6: R.Tensor((24, 48, 1, 1), dtype="float32")):
        with R.dataflow():
            c1 = R.nn.conv2d(x, w1, padding=[1, 1, 1, 1])
            a1 = R.add(c1, b1)
            o1 = R.nn.relu(a1)
            o2 = R.nn.conv2d(x3, w2, strides=[2, 2], dilation=[2, 2])
            c3 = R.nn.conv2d(x, w3)
            o3 = R.add(c3, r)
            o4 = R.nn.conv1d(s, w4, padding=[2, 2])
            o5 = R.nn.conv2d(x5, w5, padding=[1, 1, 1, 1])
            o6 = R.nn.conv2d(x6, w6)
            R.output(o1, o2, o3, o4, o5, o6)
        return (o1, o2, o3, o4, o5, o6)
