# fuse-tir on the groups fuse-ops makes of fuse_ops.py: each Primitive function becomes
# one PrimFunc of its name (callees' blocks in order in one root block, intermediates
# as root alloc_buffers, an input both callees read one parameter, shape variables the
# caller's, a tir_vars scalar carried), marked with its callees' largest op_pattern; the
# calls become R.call_tir of it; the Primitive functions and the PrimFuncs only they
# called are gone, those still called elsewhere (max, sum, the opaque chain) stay.
#
# RUN: %relaxc opt %S/fuse_ops.py --passes=legalize-ops,fuse-ops,fuse-tir | FileCheck %s
# CHECK-LABEL: def conv_add_relu(
# CHECK:          gv: R.Tensor((1, 8, 8, 8), dtype="float32") = R.call_tir(cls.fused_conv2d_add_relu, (x, w, b), out_sinfo=R.Tensor((1, 8, 8, 8), dtype="float32"))
# CHECK-LABEL: def matmul_bias_gelu(
# CHECK:          gv: R.Tensor((n, 32), dtype="float32") = R.call_tir(cls.fused_matmul_add1_gelu, (x, w, b), out_sinfo=R.Tensor((n, 32), dtype="float32"))
# CHECK-LABEL: def softmax_parts(
# CHECK:          ex: R.Tensor((4, 16), dtype="float32") = R.call_tir(cls.fused_subtract_exp, (x, mx), out_sinfo=R.Tensor((4, 16), dtype="float32"))
# CHECK-LABEL: def diamond(
# CHECK:          gv: R.Tensor((8, 8), dtype="float32") = R.call_tir(cls.fused_exp1_negative_sqrt_add2, (x,), out_sinfo=R.Tensor((8, 8), dtype="float32"))
# CHECK-LABEL: def tuple_outputs(
# CHECK:          y: R.Tensor((8, 4), dtype="float32") = R.call_tir(cls.fused_split_exp2_negative1_add3, (x,), out_sinfo=R.Tensor((8, 4), dtype="float32"))
# CHECK-LABEL: def symbolic(
# CHECK:          c: R.Tensor((m, 4), dtype="float32") = R.call_tir(cls.fused_exp4_add4, (a,), out_sinfo=R.Tensor((m, 4), dtype="float32"), tir_vars=R.shape([k]))
# CHECK-LABEL: def injective_into_reduction(
# CHECK:          gv: R.Tensor((8,), dtype="float32") = R.call_tir(cls.fused_transpose_sum1, (x,), out_sinfo=R.Tensor((8,), dtype="float32"))
# CHECK-NOT:  R.function
# CHECK-NOT:  def conv2d(
# CHECK-NOT:  def add(
# CHECK-NOT:  def relu(
# CHECK:      def max(
# CHECK:      def sum(
# CHECK:      def exp3(
# CHECK:      def negative2(
#
# CHECK-LABEL: def fused_conv2d_add_relu(x: T.Buffer((T.int64(1), T.int64(3), T.int64(8), T.int64(8))), w: T.Buffer((T.int64(8), T.int64(3), T.int64(3), T.int64(3))), b: T.Buffer((T.int64(1), T.int64(8), T.int64(1), T.int64(1))), T_relu: T.Buffer((T.int64(1), T.int64(8), T.int64(8), T.int64(8)))):
# CHECK-NEXT:     T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK-NEXT:     # with T.block("root"):
# CHECK-NEXT:     T_conv2d = T.alloc_buffer((T.int64(1), T.int64(8), T.int64(8), T.int64(8)))
# CHECK-NEXT:     T_add = T.alloc_buffer((T.int64(1), T.int64(8), T.int64(8), T.int64(8)))
# CHECK:          with T.block("T_conv2d"):
# CHECK:              T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] = T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] + T.if_then_else({{.*}}x[v_ax0, v_k0, v_ax2 + v_k1 - T.int64(1), v_ax3 + v_k2 - T.int64(1)], T.float32(0)) * w[v_ax1, v_k0, v_k1, v_k2]
# CHECK:          with T.block("T_add"):
# CHECK:              T_add[v_ax0, v_ax1, v_ax2, v_ax3] = T_conv2d[v_ax0, v_ax1, v_ax2, v_ax3] + b[v_ax0, v_ax1, T.int64(0), T.int64(0)]
# CHECK:          with T.block("T_relu"):
# CHECK:              T_relu[v_ax0, v_ax1, v_ax2, v_ax3] = T.max(T_add[v_ax0, v_ax1, v_ax2, v_ax3], T.float32(0))
#
# The matmul's own shape variable is the caller's n.
# CHECK-LABEL: def fused_matmul_add1_gelu(var_x: T.handle, w: T.Buffer((T.int64(16), T.int64(32))), b: T.Buffer((T.int64(32),)), var_T_gelu: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 4, "tir.noalias": True})
# CHECK-NEXT:     n = T.int64()
# CHECK-NEXT:     x = T.match_buffer(var_x, (n, T.int64(16)))
# CHECK-NEXT:     T_gelu = T.match_buffer(var_T_gelu, (n, T.int64(32)))
# CHECK-NEXT:     # with T.block("root"):
# CHECK-NEXT:     T_matmul = T.alloc_buffer((n, T.int64(32)))
# CHECK-NEXT:     T_add = T.alloc_buffer((n, T.int64(32)))
#
# CHECK-LABEL: def fused_subtract_exp(x: T.Buffer((T.int64(4), T.int64(16))), mx: T.Buffer((T.int64(4), T.int64(1))), T_exp: T.Buffer((T.int64(4), T.int64(16)))):
# CHECK-NEXT:     T.func_attr({"op_pattern": 1, "tir.noalias": True})
#
# The diamond: a is read by both branches; one input parameter.
# CHECK-LABEL: def fused_exp1_negative_sqrt_add2(x: T.Buffer((T.int64(8), T.int64(8))), T_add: T.Buffer((T.int64(8), T.int64(8)))):
# CHECK:          T_negative[v_ax0, v_ax1] = T.float32(0) - T_exp[v_ax0, v_ax1]
# CHECK:          T_sqrt[v_ax0, v_ax1] = T.sqrt(T_exp[v_ax0, v_ax1])
# CHECK:          T_add[v_ax0, v_ax1] = T_negative[v_ax0, v_ax1] + T_sqrt[v_ax0, v_ax1]
#
# The split's two outputs are intermediates, each read through its TupleGetItem.
# CHECK-LABEL: def fused_split_exp2_negative1_add3(x: T.Buffer((T.int64(8), T.int64(8))), T_add: T.Buffer((T.int64(8), T.int64(4)))):
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK-NEXT:     # with T.block("root"):
# CHECK-NEXT:     T_split_0 = T.alloc_buffer((T.int64(8), T.int64(4)))
# CHECK-NEXT:     T_split_1 = T.alloc_buffer((T.int64(8), T.int64(4)))
# CHECK:          T_exp[v_ax0, v_ax1] = T.exp(T_split_0[v_ax0, v_ax1])
# CHECK:          T_negative[v_ax0, v_ax1] = T.float32(0) - T_split_1[v_ax0, v_ax1]
#
# The scalar k (a tir_vars of the add) is a parameter of the fused function.
# CHECK-LABEL: def fused_exp4_add4(var_a: T.handle, var_T_add: T.handle, k: T.int64):
# CHECK:          T_add[v_ax0, v_ax1] = T_exp[v_ax0, v_ax1] + T.Cast("float32", k)
#
# The graphs of tests/lit/ops/graphs: call_tir kernels in main after fusion (before:
# mlp 6, conv_block 7, encoder_block 18, depthwise_separable 4).
# RUN: %relaxc opt %S/../ops/graphs/mlp.py --passes=legalize-ops,fuse-ops,fuse-tir | FileCheck %s --check-prefix=MLP
# MLP-COUNT-3:  R.call_tir(
# MLP-NOT:      R.call_tir(
# RUN: %relaxc opt %S/../ops/graphs/conv_block.py --passes=legalize-ops,fuse-ops,fuse-tir | FileCheck %s --check-prefix=CONV
# CONV-COUNT-4: R.call_tir(
# CONV-NOT:     R.call_tir(
# RUN: %relaxc opt %S/../ops/graphs/encoder_block.py --passes=legalize-ops,fuse-ops,fuse-tir | FileCheck %s --check-prefix=ENC
# ENC-COUNT-14: R.call_tir(
# ENC-NOT:      R.call_tir(
# RUN: %relaxc opt %S/../ops/graphs/depthwise_separable.py --passes=legalize-ops,fuse-ops,fuse-tir | FileCheck %s --check-prefix=DW
# DW-COUNT-2:   R.call_tir(
# DW-NOT:       R.call_tir(
