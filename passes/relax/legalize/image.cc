// Legalizations of padding and resizing: nn.pad (constant, reflect, edge) and
// image.resize2d (nearest_neighbor, linear and cubic under TVM's coordinate
// transformation modes), each one injective compute over the output.
#include <array>
#include <optional>

#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/ops/spatial_attrs.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/legalize/window.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;

// out[i] = data[i - before] inside, else by the mode: the constant, the mirror image
// around the edge element (reflect: -1 reads 1), or the edge element itself.
Expr legalize_pad(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  std::vector<int64_t> widths = int_list(call, "pad_width");
  std::string mode = string_attr(call, "pad_mode");
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  DataType dtype = ctx.result_dtype();
  PrimExpr value = tir::make_const(dtype, float_attr(call, "pad_value"));
  tir::Tensor out = compute.compute(
      "T_pad", ctx.result_shape(compute), dtype, [&](const std::vector<tir::Var>& i) {
        std::vector<PrimExpr> index;
        Guard guard;
        for (size_t d = 0; d < i.size(); ++d) {
          int64_t before = widths[2 * d], after = widths[2 * d + 1];
          const PrimExpr& extent = data.shape()[d];
          PrimExpr j = arith::simplify(i[d] - before);
          if (before == 0 && after == 0) {
            index.push_back(j);
          } else if (mode == "constant") {
            if (before > 0) guard.add(tir::ge(j, const_dim(0)));
            if (after > 0) guard.add(tir::lt(j, extent));
            index.push_back(j);
          } else if (mode == "edge") {
            index.push_back(tir::min(tir::max(j, const_dim(0)), extent - 1));
          } else {
            PrimExpr mirrored = tir::select(tir::lt(j, const_dim(0)), const_dim(0) - j, j);
            index.push_back(
                tir::select(tir::ge(mirrored, extent), (extent - 1) * 2 - mirrored, mirrored));
          }
        }
        return guard.load(data, index, value);
      });
  return ctx.call_tir("pad", compute, {out}, tir::OpPattern::Injective);
}

// The input coordinate (a float) of output index `x` along an axis resized from `in`
// to `out`, as TVM's topi.image.resize computes it; `start` and `end` are the axis's
// region of interest (roi), which only tf_crop_and_resize reads. With a `scale` (a f32
// expression; ONNX Resize given scales) the transformation reads it as ONNX does: x
// divided by the scale in place of x times in / out, and in * scale (not rounded) as
// the output's length.
PrimExpr source_coordinate(const std::string& mode, const PrimExpr& x, const PrimExpr& in,
                           const PrimExpr& out, const PrimExpr& scale, double start, double end) {
  DataType f32 = DataType::Float(32);
  auto f = [&](const PrimExpr& e) { return tir::cast(f32, e); };
  auto c = [&](double v) { return tir::make_const(f32, v); };
  auto resized = [&](const PrimExpr& e) {
    return scale.defined() ? tir::truncdiv(e, scale) : e * tir::truncdiv(f(in), f(out));
  };
  PrimExpr length = scale.defined() ? f(in) * scale : f(out);
  PrimExpr gaps = scale.defined() ? length - c(1) : f(out - 1);
  PrimExpr several = scale.defined() ? tir::gt(length, c(1)) : tir::gt(out, const_dim(1));
  PrimExpr half_pixel = resized(f(x) + c(0.5)) - c(0.5);
  if (mode == "half_pixel") return half_pixel;
  if (mode == "pytorch_half_pixel") return tir::select(several, half_pixel, c(0));
  if (mode == "align_corners") {
    return tir::select(several, tir::truncdiv(f(in - 1), gaps) * f(x), c(0));
  }
  if (mode == "asymmetric") return resized(f(x));
  if (mode == "tf_half_pixel_for_nn") return resized(f(x) + c(0.5));
  RELAXC_ICHECK(mode == "tf_crop_and_resize") << "resize2d mode " << mode << " passed inference";
  // The roi's corners map to the first and last pixel centres; one output pixel
  // samples the roi's middle.
  PrimExpr last = f(in - 1);
  return tir::select(several, c(start) * last + f(x) * c(end - start) * tir::truncdiv(last, gaps),
                     c(0.5 * (start + end)) * last);
}

// Keys' cubic convolution weights of the taps floor(s) - 1 .. floor(s) + 2 around
// source coordinate s, at t = s - floor(s): the two taps nearer than 1 take the
// kernel's inner piece, the two others its outer piece. They sum to 1.
std::array<PrimExpr, 4> cubic_weights(const PrimExpr& t, double alpha) {
  auto c = [](double v) { return tir::make_const(DataType::Float(32), v); };
  auto inner = [&](const PrimExpr& d) { return (c(alpha + 2) * d - c(alpha + 3)) * d * d + c(1); };
  auto outer = [&](const PrimExpr& d) {
    return ((c(alpha) * d - c(5 * alpha)) * d + c(8 * alpha)) * d - c(4 * alpha);
  };
  return {outer(t + c(1)), inner(t), inner(c(1) - t), outer(c(2) - t)};
}

// Nearest: the rounded source index; linear: the two neighbours on each axis weighted
// by the distance (bilinear); cubic: the four neighbours on each axis with Keys'
// weights (bicubic), where cubic_exclude drops the taps outside the image and
// renormalizes the rest. Indices are clamped to the image. tf_crop_and_resize gives
// extrapolation_value where the source coordinate is outside the image.
Expr legalize_resize2d(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  Layout layout(call, "layout", "NCHW");
  std::string method = string_attr(call, "method");
  std::string mode = string_attr(call, "coordinate_transformation_mode");
  std::string rounding = string_attr(call, "rounding_method");
  if (rounding.empty()) rounding = mode == "align_corners" ? "round" : "floor";
  // [start_h, start_w, end_h, end_w], numbers as the inference checked.
  std::vector<double> roi;
  for (const AttrValue& v : call->attrs.find("roi")->list) {
    roi.push_back(v.kind == AttrValue::Kind::Int ? static_cast<double>(v.i) : v.f);
  }
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  std::optional<tir::Tensor> scale;
  if (call->args.size() == 3) scale = ctx.input(compute, 2);
  std::vector<PrimExpr> x = layout.to_canonical(data.shape());
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  std::vector<PrimExpr> y = layout.to_canonical(out_shape);
  DataType dtype = ctx.result_dtype();
  DataType f32 = DataType::Float(32);
  auto c = [&](double v) { return tir::make_const(f32, v); };
  auto floor = [&](const PrimExpr& e) { return tir::call(f32, "tir.floor", {e}); };
  auto clamp_index = [&](const PrimExpr& index, int s) {
    return tir::min(tir::max(index, const_dim(0)), x[2 + s] - 1);
  };
  auto to_index = [&](const PrimExpr& e, int s) {
    return clamp_index(tir::cast(DataType::Int(64), e), s);
  };
  auto nearest = [&](const PrimExpr& e) {
    if (rounding == "round") return tir::call(f32, "tir.round", {e});
    if (rounding == "round_prefer_floor") return tir::call(f32, "tir.ceil", {e - c(0.5)});
    if (rounding == "round_prefer_ceil") return floor(e + c(0.5));
    // TVM nudges floor and ceil by 1e-5 against rounding error on GPUs.
    if (rounding == "floor") return floor(e + c(1e-5));
    return tir::call(f32, "tir.ceil", {e - c(1e-5)});
  };
  tir::Tensor out =
      compute.compute("resize", out_shape, dtype, [&](const std::vector<tir::Var>& i) {
        std::vector<PrimExpr> o = layout.to_canonical(as_exprs(i));
        std::vector<PrimExpr> source;
        for (int s = 0; s < 2; ++s) {
          PrimExpr factor = scale ? (*scale)({const_dim(s)}) : PrimExpr();
          source.push_back(
              source_coordinate(mode, o[2 + s], x[2 + s], y[2 + s], factor, roi[s], roi[2 + s]));
        }
        auto at = [&](const PrimExpr& row, const PrimExpr& column) {
          PrimExpr v = data(layout.from_canonical({o[0], o[1], row, column}));
          return v->dtype == f32 ? v : tir::cast(f32, v);
        };
        PrimExpr value;
        if (method == "nearest_neighbor") {
          value = at(to_index(nearest(source[0]), 0), to_index(nearest(source[1]), 1));
        } else if (method == "linear") {
          PrimExpr top = floor(source[0]), left = floor(source[1]);
          PrimExpr ty = source[0] - top, tx = source[1] - left;
          PrimExpr one = c(1);
          PrimExpr r0 = to_index(top, 0), r1 = to_index(top + one, 0);
          PrimExpr c0 = to_index(left, 1), c1 = to_index(left + one, 1);
          PrimExpr upper = at(r0, c0) * (one - tx) + at(r0, c1) * tx;
          PrimExpr lower = at(r1, c0) * (one - tx) + at(r1, c1) * tx;
          value = upper * (one - ty) + lower * ty;
        } else {
          bool exclude = int_attr(call, "cubic_exclude") != 0;
          std::array<PrimExpr, 4> weights[2], taps[2];
          PrimExpr weight_sum[2];
          for (int s = 0; s < 2; ++s) {
            PrimExpr base = floor(source[s]);
            weights[s] = cubic_weights(source[s] - base, float_attr(call, "cubic_alpha"));
            PrimExpr first = tir::cast(DataType::Int(64), base) - 1;
            for (int k = 0; k < 4; ++k) {
              PrimExpr tap = arith::simplify(first + k);
              taps[s][k] = clamp_index(tap, s);
              if (exclude) {
                PrimExpr inside =
                    tir::logical_and(tir::ge(tap, const_dim(0)), tir::lt(tap, x[2 + s]));
                weights[s][k] = tir::select(inside, weights[s][k], c(0));
                weight_sum[s] = k == 0 ? weights[s][k] : weight_sum[s] + weights[s][k];
              }
            }
          }
          for (int j = 0; j < 4; ++j) {
            PrimExpr row = weights[1][0] * at(taps[0][j], taps[1][0]);
            for (int k = 1; k < 4; ++k) row = row + weights[1][k] * at(taps[0][j], taps[1][k]);
            value = j == 0 ? weights[0][j] * row : value + weights[0][j] * row;
          }
          // The separable weights renormalized per axis: one division by both sums.
          if (exclude) value = tir::truncdiv(value, weight_sum[0] * weight_sum[1]);
        }
        if (mode == "tf_crop_and_resize") {
          PrimExpr outside;
          for (int s = 0; s < 2; ++s) {
            PrimExpr beyond = tir::logical_or(tir::lt(source[s], c(0)),
                                              tir::gt(source[s], tir::cast(f32, x[2 + s] - 1)));
            outside = s == 0 ? beyond : tir::logical_or(outside, beyond);
          }
          value = tir::select(outside, c(float_attr(call, "extrapolation_value")), value);
        }
        return value->dtype == dtype ? value : tir::cast(dtype, value);
      });
  return ctx.call_tir("resize2d", compute, {out}, tir::OpPattern::Injective);
}

}  // namespace

void add_image_legalizations(LegalizationTable& table) {
  table["relax.nn.pad"] = legalize_pad;
  table["relax.image.resize2d"] = legalize_resize2d;
}

}  // namespace relaxc::relax
