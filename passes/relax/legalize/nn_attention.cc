// Legalization of nn.attention / nn.attention_bias on BSNH tensors: one PrimFunc of
// stages, softmax(query keyᵀ * scale + bias, causally masked) value, with the softmax
// shifted by each row's maximum. Key and value may have fewer heads than the query
// (grouped-query attention): query head h reads key head h / (N / N_kv).
#include <cmath>

#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/legalize/window.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using Index = std::vector<PrimExpr>;

Expr legalize_attention(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  if (call->attrs.find("window_size") != nullptr) {
    user_error(ctx.span()) << ctx.describe()
                           << ": attribute 'window_size' (sliding-window attention) has no "
                              "legalization yet";
  }
  tir::ComputeBuilder compute;
  tir::Tensor q = ctx.input(compute, 0);
  tir::Tensor k = ctx.input(compute, 1);
  tir::Tensor v = ctx.input(compute, 2);
  std::optional<tir::Tensor> bias;
  if (call->args.size() == 4) bias = ctx.input(compute, 3);
  DataType dtype = ctx.result_dtype();
  const PrimExpr& batch = q.shape()[0];
  const PrimExpr& queries = q.shape()[1];
  const PrimExpr& heads = q.shape()[2];
  const PrimExpr& head_dim = q.shape()[3];
  const PrimExpr& keys = k.shape()[1];
  PrimExpr group = arith::simplify(tir::floordiv(heads, k.shape()[2]));
  auto kv_head = [&](const PrimExpr& h) {
    return tir::is_const_int(group, 1) ? h : tir::floordiv(h, group);
  };
  PrimExpr scale;
  if (call->attrs.find("scale") != nullptr) {
    scale = tir::make_const(dtype, float_attr(call, "scale"));
  } else if (const int64_t* d = tir::as_const_int(head_dim)) {
    scale = tir::make_const(dtype, 1.0 / std::sqrt(static_cast<double>(*d)));
  } else {
    scale = tir::call(dtype, "tir.rsqrt", {tir::cast(dtype, head_dim)});
  }
  std::vector<PrimExpr> score_shape = {batch, heads, queries, keys};
  std::vector<PrimExpr> row_shape = {batch, heads, queries};

  tir::Tensor scores = compute.reduce(
      "attn_scores", score_shape, dtype, tir::ReduceKind::Sum, {head_dim},
      [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
        return q(Index{i[0], i[2], i[1], r[0]}) * k(Index{i[0], i[3], kv_head(i[1]), r[0]});
      });
  // Bias broadcasts over its dimensions of 1; the causal mask keeps key t for query s
  // where t <= s (TopLeft) or t <= s + keys - queries (BottomRight).
  const AttrValue* mask = call->attrs.find("causal_mask");
  tir::Tensor logits =
      compute.compute("attn_logits", score_shape, dtype, [&](const std::vector<tir::Var>& i) {
        PrimExpr value = scores(i) * scale;
        if (bias) {
          std::vector<PrimExpr> index;
          for (int d = 0; d < 4; ++d) {
            bool stretched = tir::is_const_int(bias->shape()[d], 1);
            index.push_back(stretched ? const_dim(0) : PrimExpr(i[d]));
          }
          value = value + (*bias)(index);
        }
        if (mask == nullptr) return value;
        PrimExpr last = mask->s == "TopLeft" ? PrimExpr(i[2]) : i[2] + keys - queries;
        return tir::select(tir::le(i[3], last), value, tir::min_value(dtype));
      });
  tir::Tensor row_max =
      compute.reduce("attn_max", row_shape, dtype, tir::ReduceKind::Max, {keys},
                     [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
                       return logits(Index{i[0], i[1], i[2], r[0]});
                     });
  tir::Tensor exps =
      compute.compute("attn_exp", score_shape, dtype, [&](const std::vector<tir::Var>& i) {
        return tir::call(dtype, "tir.exp", {logits(i) - row_max(Index{i[0], i[1], i[2]})});
      });
  tir::Tensor row_sum =
      compute.reduce("attn_sum", row_shape, dtype, tir::ReduceKind::Sum, {keys},
                     [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
                       return exps(Index{i[0], i[1], i[2], r[0]});
                     });
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  tir::Tensor weighted = compute.reduce(
      "attn_weighted", out_shape, dtype, tir::ReduceKind::Sum, {keys},
      [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
        return exps(Index{i[0], i[2], i[1], r[0]}) * v(Index{i[0], r[0], kv_head(i[2]), i[3]});
      });
  tir::Tensor out =
      compute.compute("T_attention", out_shape, dtype, [&](const std::vector<tir::Var>& i) {
        return tir::truncdiv(weighted(i), row_sum(Index{i[0], i[2], i[1]}));
      });
  return ctx.call_tir("attention", compute, {out}, tir::OpPattern::Opaque);
}

}  // namespace

void add_nn_attention_legalizations(LegalizationTable& table) {
  table["relax.nn.attention"] = legalize_attention;
  table["relax.nn.attention_bias"] = legalize_attention;
}

}  // namespace relaxc::relax
