# fuse-ops on the model blocks of tests/lit/ops/graphs: how many fused functions each
# gets, and what each holds. mlp: 2 (matmul+bias+relu, matmul+bias; softmax alone).
# conv_block: 2 (conv2d+batch_norm+relu, matmul+bias; the pools alone, reshape a view).
# encoder_block: 4 (scores matmul+scale, out-projection+residual, FFN matmul+gelu and
# matmul+residual; layer_norm, split, transposes, softmax, the attention matmul and the
# reshape views alone). depthwise_separable: 2 (each conv2d with its clip).
#
# RUN: %relaxc opt %S/../ops/graphs/mlp.py --passes=legalize-ops,fuse-ops | FileCheck %s --check-prefix=MLP
# MLP:          lv2: R.Tensor((n, 128), dtype="float32") = cls.fused_matmul_add_relu(x, w1, b1)
# MLP-NEXT:     lv4: R.Tensor((n, 10), dtype="float32") = cls.fused_matmul1_add1(lv2, w2, b2)
# MLP-NEXT:     gv: R.Tensor((n, 10), dtype="float32") = R.call_tir(cls.softmax, (lv4,)
# MLP-COUNT-2:  {{^}}    def fused_
# MLP-NOT:      {{^}}    def fused_
#
# RUN: %relaxc opt %S/../ops/graphs/conv_block.py --passes=legalize-ops,fuse-ops | FileCheck %s --check-prefix=CONV
# CONV:         lv3: R.Tensor((n, 8, 8, 8), dtype="float32") = cls.fused_conv2d_batch_norm_relu(x, w, gamma, beta, mean, var)
# CONV:         gv: R.Tensor((n, 10), dtype="float32") = cls.fused_matmul_add(lv6, wd, bd)
# CONV-COUNT-2: {{^}}    def fused_
# CONV-NOT:     {{^}}    def fused_
#
# RUN: %relaxc opt %S/../ops/graphs/encoder_block.py --passes=legalize-ops,fuse-ops | FileCheck %s --check-prefix=ENC
# ENC:          scores: R.Tensor((1, 4, s, s), dtype="float32") = cls.fused_matmul1_multiply(q, k, R.const(0.35355338, "float32"))
# ENC:          x1: R.Tensor((1, s, 32), dtype="float32") = cls.fused_matmul3_add(merged, wo, x)
# ENC:          lv_7: R.Tensor((1, s, 64), dtype="float32") = cls.fused_matmul4_gelu(h2, w1)
# ENC-NEXT:     gv: R.Tensor((1, s, 32), dtype="float32") = cls.fused_matmul5_add(lv_7, w2, x1)
# ENC-COUNT-4:  {{^}}    def fused_
# ENC-NOT:      {{^}}    def fused_
#
# RUN: %relaxc opt %S/../ops/graphs/depthwise_separable.py --passes=legalize-ops,fuse-ops | FileCheck %s --check-prefix=DW
# DW:           lv1: R.Tensor((n, 8, 10, 10), dtype="float32") = cls.fused_conv2d_clip(x, wd)
# DW-NEXT:      gv: R.Tensor((n, 16, 10, 10), dtype="float32") = cls.fused_conv2d1_clip1(lv1, wp)
# DW-COUNT-2:   {{^}}    def fused_
# DW-NOT:       {{^}}    def fused_
