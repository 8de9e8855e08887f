// Legalizations of the convolutions (nn.conv1d, nn.conv2d, nn.conv2d_transpose): one
// reduction block over (input channel of the group, kernel positions), reading the
// data through the padding with a guard, in any layout the operator accepts.
#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/ops/spatial_attrs.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/legalize/window.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;

// out[n, oc, y] = sum over (ic, k) of data[n, g * IC + ic, y * stride + k * dilation -
// pad] * weight[oc, ic, k], with g = oc / OC the group of output channel oc (IC, OC:
// input and output channels per group). A transposed convolution scatters instead:
// data[n, c, i] reaches out[.., i * stride + k * dilation - pad], so out[.., y] sums
// the i = (y + pad - k * dilation) / stride that divide exactly, with weight[c, oc %
// OC, k].
Expr legalize_conv(LegalizeContext& ctx, int spatial, bool transpose) {
  const CallNode* call = ctx.call();
  std::string data_form = spatial == 1 ? "NCW" : "NCHW";
  std::string spatial_letters = data_form.substr(2);
  Layout data_layout(call, "data_layout", data_form);
  Layout kernel_layout(call, "kernel_layout",
                       std::string(transpose ? "IO" : "OI") + spatial_letters);
  Layout out_layout(call, "out_layout", data_form);
  int64_t groups = int_attr(call, "groups");
  std::vector<int64_t> strides = int_list(call, "strides");
  std::vector<int64_t> padding = int_list(call, "padding");
  std::vector<int64_t> dilation = int_list(call, "dilation");

  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  tir::Tensor weight = ctx.input(compute, 1);
  std::vector<PrimExpr> x = data_layout.to_canonical(data.shape());
  std::vector<PrimExpr> w = kernel_layout.to_canonical(weight.shape());
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  DataType dtype = ctx.result_dtype();
  PrimExpr in_per_group =
      transpose ? arith::simplify(tir::floordiv(x[1], const_dim(groups))) : w[1];
  PrimExpr out_per_group =
      transpose ? w[1] : arith::simplify(tir::floordiv(w[0], const_dim(groups)));
  std::vector<PrimExpr> reduce_extents = {in_per_group};
  for (int s = 0; s < spatial; ++s) reduce_extents.push_back(w[2 + s]);

  auto body = [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
    std::vector<PrimExpr> o = out_layout.to_canonical(as_exprs(i));
    PrimExpr group = groups == 1 ? const_dim(0) : tir::floordiv(o[1], out_per_group);
    PrimExpr in_channel = groups == 1 ? PrimExpr(r[0]) : group * in_per_group + r[0];
    std::vector<PrimExpr> data_index = {o[0], in_channel};
    std::vector<PrimExpr> weight_index =
        transpose ? std::vector<PrimExpr>{in_channel,
                                          groups == 1 ? o[1] : tir::floormod(o[1], out_per_group)}
                  : std::vector<PrimExpr>{o[1], r[0]};
    Guard guard;
    for (int s = 0; s < spatial; ++s) {
      const PrimExpr& k = r[1 + s];
      weight_index.push_back(k);
      if (!transpose) {
        data_index.push_back(window_position(o[2 + s], k, x[2 + s], strides[s], dilation[s],
                                             padding[s], padding[spatial + s] > 0, guard));
        continue;
      }
      PrimExpr reach = arith::simplify(o[2 + s] + padding[s] - k * dilation[s]);
      guard.add(tir::ge(reach, const_dim(0)));
      PrimExpr position = reach;
      if (strides[s] > 1) {
        guard.add(tir::eq(tir::floormod(reach, const_dim(strides[s])), const_dim(0)));
        position = tir::floordiv(reach, const_dim(strides[s]));
      }
      guard.add(tir::lt(position, x[2 + s]));
      data_index.push_back(position);
    }
    PrimExpr a =
        guard.load(data, data_layout.from_canonical(data_index), tir::make_const(data.dtype(), 0));
    PrimExpr b = weight(kernel_layout.from_canonical(weight_index));
    if (a->dtype != dtype) a = tir::cast(dtype, a);
    if (b->dtype != dtype) b = tir::cast(dtype, b);
    return a * b;
  };
  std::string name = op_script_name(call->op.as<OpNode>()->name).substr(3);  // "conv2d"
  tir::Tensor out =
      compute.reduce("T_" + name, out_shape, dtype, tir::ReduceKind::Sum, reduce_extents, body);
  return ctx.call_tir(name, compute, {out}, tir::OpPattern::OutEWiseFusable);
}

}  // namespace

void add_nn_conv_legalizations(LegalizationTable& table) {
  table["relax.nn.conv1d"] = [](LegalizeContext& ctx) { return legalize_conv(ctx, 1, false); };
  table["relax.nn.conv2d"] = [](LegalizeContext& ctx) { return legalize_conv(ctx, 2, false); };
  table["relax.nn.conv2d_transpose"] = [](LegalizeContext& ctx) {
    return legalize_conv(ctx, 2, true);
  };
}

}  // namespace relaxc::relax
