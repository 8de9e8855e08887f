// Legalizations of softmax, log_softmax and the normalizations. Each is one PrimFunc of
// several stages: reductions of the statistics (the maximum and the sum of
// exponentials; the sum, then the sum of squared distances to the mean), then an
// element-wise stage that normalizes; the intermediate stages are buffers of the
// function, and each reduction runs across threads under the default GPU schedule.
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/legalize/reduction_axes.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using tir::ReduceKind;
using tir::Tensor;
using tir::Var;

PrimExpr intrinsic(const char* name, const PrimExpr& x) { return tir::call(x->dtype, name, {x}); }

ReductionAxes axes_of(const std::vector<int>& axes, int ndim) {
  ReductionAxes out;
  out.reduced.assign(ndim, false);
  for (int a : axes) out.reduced[a] = true;
  return out;
}

// softmax (log = false) and log_softmax along attribute 'axis'.
LegalizeFn softmax(bool log) {
  return [log](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    Tensor x = ctx.input(compute, 0);
    int axis = normalize_axis(ctx.call(), "axis", int_attr(ctx.call(), "axis"), x.ndim());
    ReductionAxes along = axes_of({axis}, x.ndim());
    auto fold =
        [&](const std::string& name, ReduceKind kind,
            const std::function<PrimExpr(const std::vector<PrimExpr>&, const std::vector<Var>&)>&
                body) {
          return compute.reduce(name, along.kept(x), x.dtype(), kind, along.extents(x),
                                [&](const std::vector<Var>& i, const std::vector<Var>& r) {
                                  return body(along.input_index(i, r), i);
                                });
        };
    Tensor max =
        fold("T_softmax_maxelem", ReduceKind::Max,
             [&](const std::vector<PrimExpr>& in, const std::vector<Var>&) { return x(in); });
    Tensor sum = fold("T_softmax_expsum", ReduceKind::Sum,
                      [&](const std::vector<PrimExpr>& in, const std::vector<Var>& i) {
                        return intrinsic("tir.exp", tir::sub(x(in), max(i)));
                      });
    Tensor out =
        compute.compute(log ? "T_log_softmax_norm" : "T_softmax_norm", x.shape(), x.dtype(),
                        [&](const std::vector<Var>& i) {
                          std::vector<PrimExpr> row = along.kept_index(i);
                          PrimExpr shifted = tir::sub(x(i), max(row));
                          return log ? tir::sub(shifted, intrinsic("tir.log", sum(row)))
                                     : tir::truncdiv(intrinsic("tir.exp", shifted), sum(row));
                        });
    return ctx.call_tir(log ? "log_softmax" : "softmax", compute, {out}, tir::OpPattern::Opaque);
  };
}

// The statistics of a normalization over `count` elements: the stages of their sum
// (when centered) and of the squares of their distances to the mean (to 0 for
// rms_norm), from which the mean and the reciprocal standard deviation at a
// statistics index follow.
struct Statistics {
  Tensor sum, sum_sq;
  PrimExpr count;
  PrimExpr epsilon;

  PrimExpr mean_at(const std::vector<PrimExpr>& s) const { return tir::truncdiv(sum(s), count); }
  PrimExpr rstd_at(const std::vector<PrimExpr>& s) const {
    return intrinsic("tir.rsqrt", tir::add(tir::truncdiv(sum_sq(s), count), epsilon));
  }
};

// The input index of a statistics index `s` and a reduction index `r`.
using InputIndex =
    std::function<std::vector<PrimExpr>(const std::vector<Var>& s, const std::vector<Var>& r)>;

Statistics statistics(tir::ComputeBuilder& compute, const Tensor& x,
                      const std::vector<PrimExpr>& stat_shape, const std::vector<PrimExpr>& extents,
                      const InputIndex& input, PrimExpr count, double epsilon, bool centered) {
  Statistics s;
  s.count = count;
  s.epsilon = tir::make_const(x.dtype(), epsilon);
  if (centered) {
    s.sum = compute.reduce(
        "T_sum", stat_shape, x.dtype(), ReduceKind::Sum, extents,
        [&](const std::vector<Var>& i, const std::vector<Var>& r) { return x(input(i, r)); });
  }
  s.sum_sq =
      compute.reduce(centered ? "T_square_sum" : "T_sum_sq", stat_shape, x.dtype(), ReduceKind::Sum,
                     extents, [&](const std::vector<Var>& i, const std::vector<Var>& r) {
                       PrimExpr d = x(input(i, r));
                       if (centered) {
                         d = tir::sub(d, s.mean_at({i.begin(), i.end()}));
                       }
                       return tir::mul(d, d);
                     });
  return s;
}

// layer_norm (centered) and rms_norm over attribute 'axes'; the scale (and the
// shift) are indexed by the normalized axes.
LegalizeFn axes_norm(bool centered) {
  return [centered](LegalizeContext& ctx) {
    const CallNode* call = ctx.call();
    tir::ComputeBuilder compute;
    Tensor x = ctx.input(compute, 0);
    Tensor gamma = ctx.input(compute, 1);
    std::optional<Tensor> beta;
    if (centered) beta = ctx.input(compute, 2);
    bool scale = !centered || bool_attr(call, "scale");
    bool center = centered && bool_attr(call, "center");
    std::vector<int> axes =
        normalize_axes(call, "axes", *optional_int_list_attr(call, "axes"), x.ndim());
    ReductionAxes along = axes_of(axes, x.ndim());
    Statistics s = statistics(
        compute, x, along.kept(x), along.extents(x),
        [&](const std::vector<Var>& i, const std::vector<Var>& r) {
          return along.input_index(i, r);
        },
        along.count(x, x.dtype()), float_attr(call, "epsilon"), centered);
    Tensor out = compute.compute(centered ? "T_layer_norm" : "T_rms_norm", x.shape(), x.dtype(),
                                 [&](const std::vector<Var>& i) {
                                   std::vector<PrimExpr> row = along.kept_index(i);
                                   std::vector<PrimExpr> param;
                                   for (int a : axes) param.push_back(i[a]);
                                   PrimExpr v =
                                       centered ? tir::sub(x(i), s.mean_at(row)) : PrimExpr(x(i));
                                   v = tir::mul(v, s.rstd_at(row));
                                   if (scale) v = tir::mul(v, gamma(param));
                                   if (center) v = tir::add(v, (*beta)(param));
                                   return v;
                                 });
    return ctx.call_tir(centered ? "layer_norm" : "rms_norm", compute, {out},
                        tir::OpPattern::Opaque);
  };
}

// group_norm and instance_norm (a group per channel): statistics per (the kept
// dimensions, group), over the group's channels and attribute 'axes'.
LegalizeFn channel_norm(bool grouped) {
  return [grouped](LegalizeContext& ctx) {
    const CallNode* call = ctx.call();
    tir::ComputeBuilder compute;
    Tensor x = ctx.input(compute, 0);
    Tensor gamma = ctx.input(compute, 1);
    Tensor beta = ctx.input(compute, 2);
    int ndim = x.ndim();
    int channel = normalize_axis(call, "channel_axis", int_attr(call, "channel_axis"), ndim);
    std::vector<int> axes =
        normalize_axes(call, "axes", *optional_int_list_attr(call, "axes"), ndim);
    ReductionAxes along = axes_of(axes, ndim);
    along.reduced[channel] = true;  // the kept dimensions: neither channel nor axes
    PrimExpr channels = x.shape()[channel];
    PrimExpr groups =
        grouped ? tir::make_const(channels->dtype, int_attr(call, "num_groups")) : channels;
    arith::Analyzer analyzer;
    PrimExpr group_size = grouped ? analyzer.simplify(tir::floordiv(channels, groups))
                                  : tir::make_const(channels->dtype, 1);
    std::vector<PrimExpr> stat_shape = along.kept(x);
    stat_shape.push_back(groups);
    std::vector<PrimExpr> extents{group_size};
    for (int a : axes) extents.push_back(x.shape()[a]);
    PrimExpr count = element_count(extents, x.dtype());
    // Statistics index (kept..., g) and reduction index (channel in group, axes...).
    InputIndex input = [&](const std::vector<Var>& s, const std::vector<Var>& r) {
      std::vector<PrimExpr> index(ndim);
      size_t kept = 0, folded = 1;
      for (int d = 0; d < ndim; ++d) {
        if (d == channel) {
          index[d] = tir::add(tir::mul(s.back(), group_size), r[0]);
        } else if (along.reduced[d]) {
          index[d] = r[folded++];
        } else {
          index[d] = s[kept++];
        }
      }
      return index;
    };
    Statistics st = statistics(compute, x, stat_shape, extents, input, count,
                               float_attr(call, "epsilon"), true);
    bool scale = bool_attr(call, "scale"), center = bool_attr(call, "center");
    Tensor out = compute.compute(grouped ? "T_group_norm" : "T_instance_norm", x.shape(), x.dtype(),
                                 [&](const std::vector<Var>& i) {
                                   std::vector<PrimExpr> stat = along.kept_index(i);
                                   stat.push_back(tir::floordiv(i[channel], group_size));
                                   PrimExpr v =
                                       tir::mul(tir::sub(x(i), st.mean_at(stat)), st.rstd_at(stat));
                                   std::vector<PrimExpr> c{i[channel]};
                                   if (scale) v = tir::mul(v, gamma(c));
                                   if (center) v = tir::add(v, beta(c));
                                   return v;
                                 });
    return ctx.call_tir(grouped ? "group_norm" : "instance_norm", compute, {out},
                        tir::OpPattern::Opaque);
  };
}

// batch_norm: with training=False the moving statistics normalize and are returned as
// they are; with training=True the batch's statistics (over every axis but the
// channel) normalize, and the moving ones are updated with 'momentum', as TVM does.
Expr legalize_batch_norm(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  Tensor x = ctx.input(compute, 0);
  Tensor gamma = ctx.input(compute, 1);
  Tensor beta = ctx.input(compute, 2);
  Tensor moving_mean = ctx.input(compute, 3);
  Tensor moving_var = ctx.input(compute, 4);
  int ndim = x.ndim();
  int channel = normalize_axis(call, "axis", int_attr(call, "axis"), ndim);
  bool training = bool_attr(call, "training");
  bool scale = bool_attr(call, "scale"), center = bool_attr(call, "center");
  PrimExpr epsilon = tir::make_const(x.dtype(), float_attr(call, "epsilon"));
  std::vector<PrimExpr> channels{x.shape()[channel]};

  ReductionAxes along;
  along.reduced.assign(ndim, true);
  along.reduced[channel] = false;
  PrimExpr count = along.count(x, x.dtype());
  Tensor mean = moving_mean, var = moving_var;
  Tensor new_mean, new_var;
  if (training) {
    auto input = [&](const std::vector<Var>& c, const std::vector<Var>& r) {
      return along.input_index(c, r);
    };
    Statistics s = statistics(compute, x, channels, along.extents(x), input, count, 0.0, true);
    mean = compute.compute("T_mean", channels, x.dtype(), [&](const std::vector<Var>& c) {
      return s.mean_at({c.begin(), c.end()});
    });
    var = compute.compute("T_var", channels, x.dtype(), [&](const std::vector<Var>& c) {
      return tir::truncdiv(s.sum_sq(c), count);
    });
    PrimExpr momentum = tir::make_const(x.dtype(), float_attr(call, "momentum"));
    PrimExpr keep = tir::make_const(x.dtype(), 1.0 - float_attr(call, "momentum"));
    auto update = [&](const std::string& name, const Tensor& moving, const Tensor& batch) {
      return compute.compute(name, channels, x.dtype(), [&](const std::vector<Var>& c) {
        return tir::add(tir::mul(keep, moving(c)), tir::mul(momentum, batch(c)));
      });
    };
    new_mean = update("T_moving_mean", moving_mean, mean);
    new_var = update("T_moving_var", moving_var, var);
  } else {
    auto copy = [&](const std::string& name, const Tensor& t) {
      return compute.compute(name, channels, x.dtype(),
                             [&](const std::vector<Var>& c) { return t(c); });
    };
    new_mean = copy("T_moving_mean", moving_mean);
    new_var = copy("T_moving_var", moving_var);
  }
  Tensor out =
      compute.compute("T_batch_norm", x.shape(), x.dtype(), [&](const std::vector<Var>& i) {
        std::vector<PrimExpr> c{i[channel]};
        PrimExpr v =
            tir::mul(tir::sub(x(i), mean(c)), intrinsic("tir.rsqrt", tir::add(var(c), epsilon)));
        if (scale) v = tir::mul(v, gamma(c));
        if (center) v = tir::add(v, beta(c));
        return v;
      });
  return ctx.call_tir("batch_norm", compute, {out, new_mean, new_var},
                      training ? tir::OpPattern::Opaque : tir::OpPattern::Broadcast);
}

}  // namespace

void add_nn_norm_legalizations(LegalizationTable& table) {
  table["relax.nn.softmax"] = softmax(false);
  table["relax.nn.log_softmax"] = softmax(true);
  table["relax.nn.layer_norm"] = axes_norm(true);
  table["relax.nn.rms_norm"] = axes_norm(false);
  table["relax.nn.group_norm"] = channel_norm(true);
  table["relax.nn.instance_norm"] = channel_norm(false);
  table["relax.nn.batch_norm"] = legalize_batch_norm;
}

}  // namespace relaxc::relax
