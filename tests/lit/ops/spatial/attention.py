# nn.attention legalized to one PrimFunc of stages (scores, scaled and masked logits,
# the row maximum, exponentials, their row sum, the weighted sum of values, the
# normalization), over a symbolic query and key length; run on lavapipe against NumPy:
# plain, with a broadcast bias and a BottomRight mask, grouped-query heads with a
# TopLeft mask and an explicit scale.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      a: R.Tensor((2, s, 4, 5), dtype="float32") = R.call_tir(cls.attention, (q, k, v), out_sinfo=R.Tensor((2, s, 4, 5), dtype="float32"))
# CHECK:      def attention(var_query: T.handle, var_key: T.handle, var_value: T.handle, var_T_attention: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 8, "tir.noalias": True})
# CHECK:          with T.block("attn_scores"):
# CHECK:              attn_scores[v_ax0, v_ax1, v_ax2, v_ax3] = attn_scores[v_ax0, v_ax1, v_ax2, v_ax3] + query[v_ax0, v_ax2, v_ax1, v_k0] * key[v_ax0, v_ax3, v_ax1, v_k0]
# CHECK:          attn_logits[v_ax0, v_ax1, v_ax2, v_ax3] = attn_scores[v_ax0, v_ax1, v_ax2, v_ax3] * T.float32(0.35355339059327373)
# CHECK:          with T.block("attn_max"):
# CHECK:          with T.block("attn_sum"):
# CHECK:          with T.block("attn_weighted"):
# CHECK:          with T.block("T_attention"):
# CHECK:              T_attention[v_ax0, v_ax1, v_ax2, v_ax3] = attn_weighted[v_ax0, v_ax1, v_ax2, v_ax3] / attn_sum[v_ax0, v_ax2, v_ax1]
#
# RUN: %op_check %s --work %t --input q:2,s,4,8:float32 --input k:2,t,4,8:float32 --input v:2,t,4,5:float32 --input b:1,4,s,t:float32 --input kg:2,t,2,8:float32 --input vg:2,t,2,5:float32 --sizes s=3,t=7 --sizes s=17,t=17 --reference "(P := __import__('spatial_ref')) and (P.attention(q, k, v), P.attention(q, k, v, b, causal_mask='BottomRight'), P.attention(q, kg, vg, scale=0.25, causal_mask='TopLeft'))" --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 6 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor((2, "s", 4, 8), dtype="float32"), k: R.Tensor((2, "t", 4, 8), dtype="float32"), v: R.Tensor((2, "t", 4, 5), dtype="float32"), b: R.Tensor((1, 4, "s", "t"), dtype="float32"), kg: R.Tensor((2, "t", 2, 8), dtype="float32"), vg: R.Tensor((2, "t", 2, 5), dtype="float32")):
        s = T.int64()
        t = T.int64()
        with R.dataflow():
            a = R.nn.attention(q, k, v, scale=None, causal_mask=None, window_size=None)
            c = R.nn.attention_bias(q, k, v, b, scale=None, causal_mask="BottomRight", window_size=None)
            d = R.nn.attention(q, kg, vg, scale=0.25, causal_mask="TopLeft")
            R.output(a, c, d)
        return (a, c, d)
