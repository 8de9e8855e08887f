// What the spatial operators (convolution, pooling, image resize) share: layouts as
// permutations of named axes, the per-spatial-dimension attribute lists in TVM's
// canonical form, and the output extent of a sliding window.
#pragma once

#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/relax/expr.h"

namespace relaxc::relax {

// A layout attribute: "NHWC" is a permutation of the canonical "NCHW", "HWIO" of
// "OIHW". Split layouts ("NCHW4c") are refused.
class Layout {
 public:
  // Attribute `attr` of `call` (a string), checked to be a permutation of `canonical`.
  Layout(const CallNode* call, const std::string& attr, const std::string& canonical);

  const std::string& name() const { return name_; }
  int ndim() const { return static_cast<int>(name_.size()); }
  // The position of axis `letter` in this layout: 'C' of "NHWC" is 3.
  int axis(char letter) const;
  // Dimensions given in this layout, in the canonical order.
  std::vector<PrimExpr> to_canonical(const std::vector<PrimExpr>& dims) const;
  // Dimensions given in the canonical order, in this layout.
  std::vector<PrimExpr> from_canonical(const std::vector<PrimExpr>& dims) const;

 private:
  std::string name_, canonical_;
};

// A UserError unless argument `index` of `ndim` dimensions (-1: unknown) has as many as
// `layout` names ("R.nn.conv2d: argument 'data' must have 4 dimensions (layout NCHW),
// got 3").
void require_layout_ndim(const CallNode* call, size_t index, int ndim, const Layout& layout);

// Sets attribute `name` of a call being canonicalized, in the order its operator
// declares its attributes.
void set_attr_in_order(CallNode* call, const std::string& name, AttrValue value);

// The canonical forms TVM's constructors give the window attributes, so that a module
// written by hand prints as TVM prints it. An integer or a one-entry list stands for
// every one of the `spatial` dimensions; each entry must be at least `min_value`.
void canonicalize_spatial_list(CallNode* call, const std::string& attr, int spatial,
                               int64_t min_value);
// Padding ends as 2 * `spatial` non-negative entries, every "before" then every
// "after" ([top, left, bottom, right]); `spatial` entries pad both sides alike, one
// entry every side.
void canonicalize_padding(CallNode* call, const std::string& attr, int spatial);
// An absent `out_attr` ("out_layout") takes the value of `layout_attr`.
void default_out_layout(CallNode* call, const std::string& out_attr,
                        const std::string& layout_attr);
// A list of integers after canonicalization.
std::vector<int64_t> int_list(const CallNode* call, const std::string& attr);

// One spatial dimension of a sliding window, with the words that name its parts in
// messages ("dimension 2 of argument 'weight'").
struct WindowDim {
  PrimExpr input, kernel;
  int64_t stride = 1, dilation = 1, pad_before = 0, pad_after = 0;
  std::string input_place, kernel_place;
};
// (input + pads - dilation * (kernel - 1) - 1) // stride + 1, rounded up with `ceil_mode`
// as TVM's pooling rounds it (a last window starting in the right padding is dropped).
// A UserError if the dilated kernel is provably larger than the padded input.
PrimExpr sliding_window_extent(const CallNode* call, const WindowDim& dim, bool ceil_mode,
                               arith::Analyzer& analyzer);

}  // namespace relaxc::relax
