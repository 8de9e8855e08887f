// Layouts, window attribute lists and sliding-window extents of the spatial operators.
#include "ir/relax/ops/spatial_attrs.h"

#include <algorithm>

#include "ir/relax/op_registry.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::relax {

Layout::Layout(const CallNode* call, const std::string& attr, const std::string& canonical)
    : name_(string_attr(call, attr)), canonical_(canonical) {
  std::string sorted_name = name_, sorted_canonical = canonical;
  std::sort(sorted_name.begin(), sorted_name.end());
  std::sort(sorted_canonical.begin(), sorted_canonical.end());
  if (sorted_name != sorted_canonical) {
    std::string letters;
    for (char c : canonical) letters += std::string(letters.empty() ? "" : ", ") + c;
    user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "' (\"" << name_
                           << "\") must order the axes " << letters << " (as \"" << canonical
                           << "\" does); split layouts are not supported";
  }
}

int Layout::axis(char letter) const {
  size_t pos = name_.find(letter);
  RELAXC_ICHECK(pos != std::string::npos) << "axis " << letter << " not in layout " << name_;
  return static_cast<int>(pos);
}

std::vector<PrimExpr> Layout::to_canonical(const std::vector<PrimExpr>& dims) const {
  std::vector<PrimExpr> out;
  for (char c : canonical_) out.push_back(dims[axis(c)]);
  return out;
}

std::vector<PrimExpr> Layout::from_canonical(const std::vector<PrimExpr>& dims) const {
  std::vector<PrimExpr> out;
  for (char c : name_) out.push_back(dims[canonical_.find(c)]);
  return out;
}

void require_layout_ndim(const CallNode* call, size_t index, int ndim, const Layout& layout) {
  if (ndim >= 0 && ndim != layout.ndim()) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must have " << layout.ndim() << " dimensions (layout "
                           << layout.name() << "), got " << ndim;
  }
}

void set_attr_in_order(CallNode* call, const std::string& name, AttrValue value) {
  const OpInfo* info = find_op(call->op.as<OpNode>()->name);
  std::vector<Attrs::Entry> entries;
  for (const OpAttrSpec& spec : info->attrs) {
    if (spec.name == name) {
      entries.emplace_back(name, value);
    } else if (const AttrValue* existing = call->attrs.find(spec.name)) {
      entries.emplace_back(spec.name, *existing);
    }
  }
  call->attrs = Attrs(std::move(entries));
}

namespace {

// The integers of attribute `attr`: an integer is a list of one.
std::vector<int64_t> int_or_list(const CallNode* call, const std::string& attr) {
  const AttrValue* v = call->attrs.find(attr);
  RELAXC_ICHECK(v != nullptr) << "attribute " << attr << " missing after the schema check";
  if (v->kind == AttrValue::Kind::Int) return {v->i};
  bool ints = v->kind == AttrValue::Kind::List;
  for (size_t i = 0; ints && i < v->list.size(); ++i) {
    ints = v->list[i].kind == AttrValue::Kind::Int;
  }
  if (!ints) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << attr
                           << "' must be an integer or a list of integers";
  }
  return v->as_int_list();
}

void require_at_least(const CallNode* call, const std::string& attr,
                      const std::vector<int64_t>& values, int64_t min_value) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < min_value) {
      user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "': entry " << i
                             << " is " << values[i] << "; it must be "
                             << (min_value == 0 ? "non-negative" : "positive");
    }
  }
}

}  // namespace

void canonicalize_spatial_list(CallNode* call, const std::string& attr, int spatial,
                               int64_t min_value) {
  std::vector<int64_t> values = int_or_list(call, attr);
  if (values.size() == 1) values.assign(spatial, values[0]);
  if (static_cast<int>(values.size()) != spatial) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "' has "
                           << values.size() << " entries; expected 1"
                           << (spatial == 1 ? "" : " or " + std::to_string(spatial))
                           << " (one per spatial dimension)";
  }
  require_at_least(call, attr, values, min_value);
  set_attr_in_order(call, attr, AttrValue::int_list(values));
}

void canonicalize_padding(CallNode* call, const std::string& attr, int spatial) {
  std::vector<int64_t> values = int_or_list(call, attr);
  if (values.size() == 1) values.assign(2 * spatial, values[0]);
  if (static_cast<int>(values.size()) == spatial && spatial > 1) {
    values.insert(values.end(), values.begin(), values.end());
  }
  if (static_cast<int>(values.size()) != 2 * spatial) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "' has "
                           << values.size() << " entries; expected 1, "
                           << (spatial == 1 ? "" : std::to_string(spatial) + " or ") << 2 * spatial
                           << " (before and after each spatial dimension)";
  }
  require_at_least(call, attr, values, 0);
  set_attr_in_order(call, attr, AttrValue::int_list(values));
}

void default_out_layout(CallNode* call, const std::string& out_attr,
                        const std::string& layout_attr) {
  const AttrValue* out = call->attrs.find(out_attr);
  if (out != nullptr && !out->is_none()) return;
  set_attr_in_order(call, out_attr, AttrValue::string(string_attr(call, layout_attr)));
}

std::vector<int64_t> int_list(const CallNode* call, const std::string& attr) {
  std::optional<std::vector<int64_t>> values = optional_int_list_attr(call, attr);
  RELAXC_ICHECK(values.has_value()) << "attribute " << attr << " not canonicalized";
  return *values;
}

PrimExpr sliding_window_extent(const CallNode* call, const WindowDim& dim, bool ceil_mode,
                               arith::Analyzer& analyzer) {
  PrimExpr padded = dim.input + (dim.pad_before + dim.pad_after);
  PrimExpr span = dim.dilation * (dim.kernel - 1) + 1;
  PrimExpr room = padded - span;
  if (analyzer.can_prove(tir::lt(room, const_dim(0)))) {
    user_error(call->span) << op_display_name(call) << ": the window ("
                           << dim_str(analyzer.simplify(span)) << ": " << dim.kernel_place
                           << (dim.dilation == 1 ? ""
                                                 : " dilated by " + std::to_string(dim.dilation))
                           << ") is larger than the padded input ("
                           << dim_str(analyzer.simplify(padded)) << ": " << dim.input_place
                           << " with padding " << dim.pad_before << " + " << dim.pad_after << ")";
  }
  if (!ceil_mode) return analyzer.simplify(tir::floordiv(room, const_dim(dim.stride)) + 1);
  PrimExpr count = tir::floordiv(room + (dim.stride - 1), const_dim(dim.stride)) + 1;
  PrimExpr starts_in_padding = tir::ge((count - 1) * dim.stride, dim.input + dim.pad_before);
  return analyzer.simplify(tir::select(starts_in_padding, count - 1, count));
}

}  // namespace relaxc::relax
