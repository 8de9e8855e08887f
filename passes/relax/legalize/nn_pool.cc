// Legalizations of pooling: nn.max_pool2d (a max reduction over the window),
// nn.avg_pool2d (a sum reduction, then a division by the window's count), and
// nn.adaptive_avg_pool2d (the same over windows [floor(i * H / OH), ceil((i + 1) * H /
// OH))), with guarded reads where a window leaves the input.
#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/ops/spatial_attrs.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/legalize/window.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;

constexpr int kSpatial = 2;

// How many of the window's `kernel` positions start + k * dilation (k in [0, kernel))
// lie in [lo, hi).
PrimExpr count_in_range(const PrimExpr& start, int64_t kernel, int64_t dilation, const PrimExpr& lo,
                        const PrimExpr& hi) {
  PrimExpr zero = const_dim(0);
  PrimExpr first = tir::max(zero, tir::floordiv(lo - start + (dilation - 1), const_dim(dilation)));
  PrimExpr last =
      tir::min(const_dim(kernel - 1), tir::floordiv(hi - 1 - start, const_dim(dilation)));
  return tir::max(last - first + 1, zero);
}

Expr legalize_pool2d(LegalizeContext& ctx, bool is_max) {
  const CallNode* call = ctx.call();
  Layout layout(call, "layout", "NCHW");
  Layout out_layout(call, "out_layout", "NCHW");
  std::vector<int64_t> pool_size = int_list(call, "pool_size");
  std::vector<int64_t> strides = int_list(call, "strides");
  std::vector<int64_t> dilation = int_list(call, "dilation");
  std::vector<int64_t> padding = int_list(call, "padding");
  bool ceil_mode = bool_attr(call, "ceil_mode");
  bool count_include_pad = bool_attr(call, "count_include_pad");

  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  std::vector<PrimExpr> x = layout.to_canonical(data.shape());
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  DataType dtype = ctx.result_dtype();
  tir::ReduceKind kind = is_max ? tir::ReduceKind::Max : tir::ReduceKind::Sum;
  auto starts = [&](const std::vector<PrimExpr>& o, int s) {
    return o[2 + s] * strides[s] - padding[s];
  };
  tir::Tensor pooled = compute.reduce(
      is_max ? "pool_max" : "pool_sum", out_shape, dtype, kind,
      {const_dim(pool_size[0]), const_dim(pool_size[1])},
      [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
        std::vector<PrimExpr> o = out_layout.to_canonical(as_exprs(i));
        std::vector<PrimExpr> index = {o[0], o[1]};
        Guard guard;
        for (int s = 0; s < kSpatial; ++s) {
          index.push_back(window_position(o[2 + s], r[s], x[2 + s], strides[s], dilation[s],
                                          padding[s], padding[kSpatial + s] > 0 || ceil_mode,
                                          guard));
        }
        return guard.load(data, layout.from_canonical(index), tir::reduce_identity(kind, dtype));
      });
  if (is_max) return ctx.call_tir("max_pool2d", compute, {pooled}, tir::OpPattern::OutEWiseFusable);

  // The divisor: the window's size where no window can leave the (padded) input, else
  // the count of its positions inside the input (or inside the padded input, with
  // count_include_pad; ceil_mode's last window may pass even that).
  bool clipped =
      ceil_mode || (!count_include_pad && (padding[0] || padding[1] || padding[2] || padding[3]));
  tir::Tensor out =
      compute.compute("pool_avg", out_shape, dtype, [&](const std::vector<tir::Var>& i) {
        std::vector<PrimExpr> o = out_layout.to_canonical(as_exprs(i));
        PrimExpr count = const_dim(pool_size[0] * pool_size[1]);
        if (clipped) {
          count = const_dim(1);
          for (int s = 0; s < kSpatial; ++s) {
            PrimExpr lo = const_dim(count_include_pad ? -padding[s] : 0);
            PrimExpr hi = count_include_pad ? x[2 + s] + padding[kSpatial + s] : x[2 + s];
            count = count * count_in_range(starts(o, s), pool_size[s], dilation[s], lo, hi);
          }
        }
        return tir::truncdiv(pooled(as_exprs(i)), tir::cast(dtype, arith::simplify(count)));
      });
  return ctx.call_tir("avg_pool2d", compute, {out}, tir::OpPattern::OutEWiseFusable);
}

// Output i of n along an axis of size `size` averages [floor(i * size / n), ceil((i +
// 1) * size / n)). Where n divides size every window has size / n elements; otherwise
// the reduction runs over the largest window, guarded by each one's end.
Expr legalize_adaptive_avg_pool2d(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  Layout layout(call, "layout", "NCHW");
  Layout out_layout(call, "out_layout", "NCHW");
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  std::vector<PrimExpr> x = layout.to_canonical(data.shape());
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  std::vector<PrimExpr> y = out_layout.to_canonical(out_shape);
  DataType dtype = ctx.result_dtype();
  arith::Analyzer analyzer;
  std::vector<bool> uniform(kSpatial);
  std::vector<PrimExpr> extents;
  for (int s = 0; s < kSpatial; ++s) {
    const PrimExpr& size = x[2 + s];
    const PrimExpr& n = y[2 + s];
    uniform[s] = analyzer.can_prove(tir::eq(tir::floormod(size, n), const_dim(0)));
    extents.push_back(analyzer.simplify(uniform[s] ? tir::floordiv(size, n)
                                                   : tir::floordiv(size + n - 1, n) + 1));
  }
  auto window = [&](const std::vector<PrimExpr>& o, int s) {
    const PrimExpr& size = x[2 + s];
    const PrimExpr& n = y[2 + s];
    // One output (global pooling): the window is the whole axis.
    if (tir::is_const_int(n, 1)) return std::make_pair(const_dim(0), size);
    PrimExpr start = tir::floordiv(o[2 + s] * size, n);
    PrimExpr end = tir::floordiv((o[2 + s] + 1) * size + n - 1, n);
    return std::make_pair(start, end);
  };
  tir::Tensor sum = compute.reduce(
      "adaptive_pool_sum", out_shape, dtype, tir::ReduceKind::Sum, extents,
      [&](const std::vector<tir::Var>& i, const std::vector<tir::Var>& r) {
        std::vector<PrimExpr> o = out_layout.to_canonical(as_exprs(i));
        std::vector<PrimExpr> index = {o[0], o[1]};
        Guard guard;
        for (int s = 0; s < kSpatial; ++s) {
          auto [start, end] = window(o, s);
          PrimExpr position = arith::simplify(start + r[s]);
          if (!uniform[s]) guard.add(tir::lt(position, end));
          index.push_back(position);
        }
        return guard.load(data, layout.from_canonical(index), tir::make_const(dtype, 0));
      });
  tir::Tensor out =
      compute.compute("adaptive_pool_avg", out_shape, dtype, [&](const std::vector<tir::Var>& i) {
        std::vector<PrimExpr> o = out_layout.to_canonical(as_exprs(i));
        PrimExpr count = const_dim(1);
        for (int s = 0; s < kSpatial; ++s) {
          auto [start, end] = window(o, s);
          count = count * (uniform[s] ? extents[s] : end - start);
        }
        return tir::truncdiv(sum(as_exprs(i)), tir::cast(dtype, arith::simplify(count)));
      });
  return ctx.call_tir("adaptive_avg_pool2d", compute, {out}, tir::OpPattern::OutEWiseFusable);
}

}  // namespace

void add_nn_pool_legalizations(LegalizationTable& table) {
  table["relax.nn.max_pool2d"] = [](LegalizeContext& ctx) { return legalize_pool2d(ctx, true); };
  table["relax.nn.avg_pool2d"] = [](LegalizeContext& ctx) { return legalize_pool2d(ctx, false); };
  table["relax.nn.adaptive_avg_pool2d"] = legalize_adaptive_avg_pool2d;
}

}  // namespace relaxc::relax
