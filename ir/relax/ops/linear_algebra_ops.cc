// Linear algebra: matmul (numpy.matmul semantics, batch broadcasting, out_dtype) and
// einsum (numpy.einsum subscripts, with "..." and the implicit output).
#include <cctype>
#include <map>

#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

// ---------------------------------------------------------------- matmul

// numpy.matmul: a 1-D x1 is a row (1, k) and a 1-D x2 a column (k, 1), the added
// dimension removed from the result; leading (batch) dimensions broadcast.
StructInfo infer_matmul(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& a = tensor_arg(call, 0);
  const TensorStructInfoNode& b = tensor_arg(call, 1);
  DataType out_dtype = dtype_attr(call, "out_dtype");
  DataType dtype =
      out_dtype.is_void() ? unify_dtypes(call, a.dtype, b.dtype, "x1", "x2") : out_dtype;
  for (size_t i = 0; i < 2; ++i) {
    if ((i == 0 ? a.ndim : b.ndim) == 0) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' must have at least 1 dimension, got a 0-d tensor";
    }
  }
  if (a.ndim < 0 || b.ndim < 0) return tensor_sinfo_ndim(-1, dtype);
  int out_ndim = std::max(std::max(a.ndim, 2), std::max(b.ndim, 2)) - (a.ndim == 1) - (b.ndim == 1);
  const std::vector<PrimExpr>* a_dims = known_dims(a);
  const std::vector<PrimExpr>* b_dims = known_dims(b);
  if (a_dims == nullptr || b_dims == nullptr) return tensor_sinfo_ndim(out_ndim, dtype);

  std::vector<PrimExpr> x1 = *a_dims, x2 = *b_dims;
  if (a.ndim == 1) x1.insert(x1.begin(), const_dim(1));
  if (b.ndim == 1) x2.push_back(const_dim(1));
  const PrimExpr& k1 = x1.back();
  const PrimExpr& k2 = x2[x2.size() - 2];
  if (prove_dim_equal(k1, k2, bb.analyzer()) == arith::Proof::False) {
    user_error(call->span) << op_display_name(call)
                           << ": reduction dimensions differ: " << dim_str(k1) << " (dimension "
                           << a.ndim - 1 << " of x1) vs " << dim_str(k2) << " (dimension "
                           << std::max(b.ndim - 2, 0) << " of x2)";
  }
  std::vector<PrimExpr> batch1(x1.begin(), x1.end() - 2), batch2(x2.begin(), x2.end() - 2);
  auto out = broadcast_shapes(call, batch1, batch2, "x1", "x2", "batch dimension", bb.analyzer());
  if (!out) return tensor_sinfo_ndim(out_ndim, dtype);
  if (a.ndim != 1) out->push_back(x1[x1.size() - 2]);
  if (b.ndim != 1) out->push_back(x2.back());
  return tensor_sinfo(std::move(*out), dtype);
}

// ---------------------------------------------------------------- einsum

// One term of an einsum subscript: its letters, and where "..." stands among them
// (-1 if absent).
struct EinsumTerm {
  std::string letters;
  int ellipsis = -1;
};

EinsumTerm parse_einsum_term(const CallNode* call, const std::string& text) {
  EinsumTerm term;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 3, "...") == 0 && term.ellipsis < 0) {
      term.ellipsis = static_cast<int>(term.letters.size());
      i += 2;
    } else if (std::isalpha(static_cast<unsigned char>(text[i]))) {
      term.letters += text[i];
    } else {
      user_error(call->span) << op_display_name(call) << ": attribute 'subscripts': unexpected '"
                             << text[i] << "' in term '" << text
                             << "' (expected letters and at most one '...')";
    }
  }
  return term;
}

// numpy.einsum: each operand's dimensions are named by the letters of its term, "..."
// standing for the leading dimensions not named (broadcast across the operands); the
// output is the term after "->", or else "..." and the letters used once, sorted.
StructInfo infer_einsum(const CallNode* call, const BlockBuilder& bb) {
  const StructInfo& operands_sinfo = call->args[0]->struct_info;
  const auto* operands = operands_sinfo.as<TupleStructInfoNode>();
  if (operands == nullptr) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'operands' must be a tuple of tensors, got "
                           << text::print_node(operands_sinfo);
  }
  std::vector<const TensorStructInfoNode*> tensors;
  DataType dtype;
  for (size_t i = 0; i < operands->fields.size(); ++i) {
    const auto* t = operands->fields[i].as<TensorStructInfoNode>();
    if (t == nullptr) {
      user_error(call->span) << op_display_name(call) << ": operand " << i
                             << " of argument 'operands' must be a tensor, got "
                             << text::print_node(operands->fields[i]);
    }
    dtype = i == 0
                ? t->dtype
                : unify_dtypes(call, dtype, t->dtype, "operand 0", "operand " + std::to_string(i));
    tensors.push_back(t);
  }
  std::string subscripts;
  for (char c : string_attr(call, "subscripts")) {
    if (c != ' ') subscripts += c;
  }
  size_t arrow = subscripts.find("->");
  std::string inputs = subscripts.substr(0, arrow);
  std::vector<EinsumTerm> terms;
  for (size_t start = 0;;) {
    size_t comma = inputs.find(',', start);
    terms.push_back(parse_einsum_term(call, inputs.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (terms.size() != tensors.size()) {
    user_error(call->span) << op_display_name(call) << ": attribute 'subscripts' (\"" << subscripts
                           << "\") has " << terms.size()
                           << " input term(s) but argument 'operands' has " << tensors.size()
                           << " tensor(s)";
  }

  // The size of each letter and the broadcast "..." dimensions, from the operands of
  // known shape; the result's rank needs only the ranks.
  std::map<char, std::pair<PrimExpr, size_t>> letter_dims;  // size, operand it came from
  std::map<char, int> uses;
  std::optional<std::vector<PrimExpr>> ellipsis_dims = std::vector<PrimExpr>{};
  int ellipsis_ndim = 0;
  bool shapes_known = true;
  for (size_t i = 0; i < terms.size(); ++i) {
    const EinsumTerm& term = terms[i];
    for (char c : term.letters) ++uses[c];
    const TensorStructInfoNode& t = *tensors[i];
    if (t.ndim < 0) {
      shapes_known = false;
      continue;
    }
    int named = static_cast<int>(term.letters.size());
    if (term.ellipsis < 0 ? t.ndim != named : t.ndim < named) {
      user_error(call->span) << op_display_name(call) << ": term '" << term.letters
                             << "' of attribute 'subscripts' names " << named
                             << " dimension(s) but operand " << i << " has " << t.ndim;
    }
    int covered = t.ndim - named;
    ellipsis_ndim = std::max(ellipsis_ndim, covered);
    const std::vector<PrimExpr>* dims = known_dims(t);
    if (dims == nullptr) {
      shapes_known = false;
      continue;
    }
    for (int k = 0; k < named; ++k) {
      int dim_index = k < term.ellipsis || term.ellipsis < 0 ? k : k + covered;
      const PrimExpr& d = (*dims)[dim_index];
      auto [it, fresh] = letter_dims.try_emplace(term.letters[k], d, i);
      if (!fresh && prove_dim_equal(it->second.first, d, bb.analyzer()) == arith::Proof::False) {
        user_error(call->span) << op_display_name(call) << ": subscript '" << term.letters[k]
                               << "' is " << dim_str(it->second.first) << " in operand "
                               << it->second.second << " but " << dim_str(d) << " in operand " << i
                               << " (dimension " << dim_index << ")";
      }
    }
    if (term.ellipsis >= 0 && ellipsis_dims) {
      std::vector<PrimExpr> mine(dims->begin() + term.ellipsis,
                                 dims->begin() + term.ellipsis + covered);
      ellipsis_dims =
          broadcast_shapes(call, *ellipsis_dims, mine, "earlier operands",
                           "operand " + std::to_string(i), "'...' dimension", bb.analyzer());
    }
  }

  EinsumTerm output;
  if (arrow != std::string::npos) {
    output = parse_einsum_term(call, subscripts.substr(arrow + 2));
    for (char c : output.letters) {
      if (uses.count(c) == 0) {
        user_error(call->span) << op_display_name(call) << ": output subscript '" << c
                               << "' of attribute 'subscripts' appears in no input term";
      }
    }
  } else {
    output.ellipsis = 0;
    for (const auto& [c, count] : uses) {
      if (count == 1) output.letters += c;
    }
  }
  int out_ndim =
      static_cast<int>(output.letters.size()) + (output.ellipsis >= 0 ? ellipsis_ndim : 0);
  if (!shapes_known || !ellipsis_dims) return tensor_sinfo_ndim(out_ndim, dtype);
  std::vector<PrimExpr> out;
  for (size_t k = 0; k <= output.letters.size(); ++k) {
    if (static_cast<int>(k) == output.ellipsis) {
      out.insert(out.end(), ellipsis_dims->begin(), ellipsis_dims->end());
    }
    if (k < output.letters.size()) out.push_back(letter_dims.at(output.letters[k]).first);
  }
  return tensor_sinfo(std::move(out), dtype);
}

}  // namespace

void register_linear_algebra_ops() {
  OpInfo matmul;
  matmul.name = "relax.matmul";
  matmul.arg_names = {"x1", "x2"};
  matmul.num_required_args = 2;
  matmul.attrs = {{"out_dtype", AttrValue::data_type(DataType::Void())}};
  matmul.infer = infer_matmul;
  register_op(std::move(matmul));

  OpInfo einsum;
  einsum.name = "relax.einsum";
  einsum.arg_names = {"operands"};
  einsum.num_required_args = 1;
  einsum.attrs = {{"subscripts", AttrValue::none(), true}};
  einsum.infer = infer_einsum;
  register_op(std::move(einsum));
}

}  // namespace relaxc::relax
