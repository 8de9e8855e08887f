// Legalizations of matmul and einsum: one sum-reduction block each, reading its
// operands with numpy's broadcasting of the batch (or "...") dimensions.
#include <map>

#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using tir::Tensor;
using tir::Var;

// The indices of an operand's leading `dims` dimensions for the output's broadcast
// dimensions `out` (aligned at the right; a dimension of 1 reads index 0).
std::vector<PrimExpr> broadcast_index(const std::vector<PrimExpr>& dims,
                                      const std::vector<PrimExpr>& out) {
  std::vector<PrimExpr> index;
  size_t offset = out.size() - dims.size();
  for (size_t d = 0; d < dims.size(); ++d) {
    index.push_back(tir::is_const_int(dims[d], 1) ? tir::make_const(out[offset + d]->dtype, 0)
                                                  : out[offset + d]);
  }
  return index;
}

PrimExpr as_dtype(const PrimExpr& v, DataType dtype) {
  return v->dtype == dtype ? v : tir::cast(dtype, v);
}

Expr legalize_matmul(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  Tensor a = ctx.input(compute, 0);
  Tensor b = ctx.input(compute, 1);
  DataType dtype = ctx.result_dtype();
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  bool a_vector = a.ndim() == 1, b_vector = b.ndim() == 1;
  size_t batch = out_shape.size() - (a_vector ? 0 : 1) - (b_vector ? 0 : 1);
  PrimExpr k = a.shape().back();
  Tensor out = compute.reduce(
      "T_matmul", out_shape, dtype, tir::ReduceKind::Sum, {k},
      [&](const std::vector<Var>& i, const std::vector<Var>& r) {
        std::vector<PrimExpr> out_batch(i.begin(), i.begin() + static_cast<long>(batch));
        std::vector<PrimExpr> ai, bi;
        if (!a_vector) {
          ai = broadcast_index({a.shape().begin(), a.shape().end() - 2}, out_batch);
          ai.push_back(i[batch]);
        }
        ai.push_back(r[0]);
        if (!b_vector) bi = broadcast_index({b.shape().begin(), b.shape().end() - 2}, out_batch);
        bi.push_back(r[0]);
        if (!b_vector) bi.push_back(i.back());
        return tir::mul(as_dtype(a(ai), dtype), as_dtype(b(bi), dtype));
      });
  return ctx.call_tir("matmul", compute, {out}, tir::OpPattern::OutEWiseFusable);
}

// einsum: the output's letters are spatial iterators, the other letters reduction
// iterators; "..." dimensions broadcast as in matmul.
Expr legalize_einsum(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  const auto* operands = call->args[0]->struct_info.as<TupleStructInfoNode>();
  std::string subscripts;
  for (char c : string_attr(call, "subscripts")) {
    if (c != ' ') subscripts += c;
  }
  size_t arrow = subscripts.find("->");
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    size_t comma = subscripts.find(',', start);
    size_t end = std::min(comma, arrow);
    terms.push_back(subscripts.substr(start, end - start));
    if (comma == std::string::npos || comma > arrow) break;
    start = comma + 1;
  }
  tir::ComputeBuilder compute;
  std::vector<Tensor> inputs;
  // The operands: the fields of a tuple written in the call, else bound one by one.
  BlockBuilder& bb = ctx.builder();
  const auto* literal = call->args[0].as<TupleNode>();
  for (size_t t = 0; t < operands->fields.size(); ++t) {
    Expr field = literal != nullptr
                     ? literal->fields[t]
                     : bb.emit(bb.tuple_get_item(call->args[0], static_cast<int>(t), call->span),
                               "", bb.in_dataflow_block() ? VarKind::DataflowVar : VarKind::Var);
    inputs.push_back(ctx.input(compute, field, "operand" + std::to_string(t)));
  }
  // Each letter's extent, and the rank of "..." (the most dimensions it covers).
  std::map<char, PrimExpr> extent;
  std::map<char, int> uses;
  size_t ellipsis_rank = 0;
  auto letters_of = [](const std::string& term) {
    std::string out;
    for (char c : term) {
      if (c != '.') out += c;
    }
    return out;
  };
  for (size_t t = 0; t < terms.size(); ++t) {
    std::string letters = letters_of(terms[t]);
    size_t covered = inputs[t].shape().size() - letters.size();
    ellipsis_rank = std::max(ellipsis_rank, covered);
    size_t dot = terms[t].find("...");
    for (size_t k = 0; k < letters.size(); ++k) {
      size_t d = dot == std::string::npos || k < dot ? k : k + covered;
      extent.try_emplace(letters[k], inputs[t].shape()[d]);
      ++uses[letters[k]];
    }
  }
  std::string out_term;
  if (arrow != std::string::npos) {
    out_term = subscripts.substr(arrow + 2);
  } else {
    out_term = ellipsis_rank > 0 ? "..." : "";
    for (const auto& [c, n] : uses) {
      if (n == 1) out_term += c;
    }
  }
  std::string out_letters = letters_of(out_term);
  std::string reduced;
  for (const auto& [c, n] : uses) {
    if (out_letters.find(c) == std::string::npos) reduced += c;
  }
  std::vector<PrimExpr> out_shape = ctx.result_shape(compute);
  std::vector<PrimExpr> reduce_extents;
  for (char c : reduced) reduce_extents.push_back(extent.at(c));
  size_t out_dot = out_term.find("...");

  auto body = [&](const std::vector<Var>& i, const std::vector<Var>& r) {
    std::map<char, PrimExpr> value;
    std::vector<PrimExpr> ellipsis;
    for (size_t d = 0, k = 0; d < i.size(); ++d) {
      bool in_ellipsis =
          out_dot != std::string::npos && d >= out_dot && d < out_dot + ellipsis_rank;
      if (in_ellipsis) {
        ellipsis.push_back(i[d]);
      } else {
        value[out_letters[k++]] = i[d];
      }
    }
    for (size_t k = 0; k < reduced.size(); ++k) value[reduced[k]] = r[k];
    PrimExpr product;
    for (size_t t = 0; t < terms.size(); ++t) {
      std::string letters = letters_of(terms[t]);
      size_t covered = inputs[t].shape().size() - letters.size();
      size_t dot = terms[t].find("...");
      std::vector<PrimExpr> index;
      for (size_t k = 0; k < letters.size(); ++k) {
        if (k == dot) {
          std::vector<PrimExpr> dims(inputs[t].shape().begin() + static_cast<long>(dot),
                                     inputs[t].shape().begin() + static_cast<long>(dot + covered));
          for (const PrimExpr& e : broadcast_index(dims, ellipsis)) index.push_back(e);
        }
        index.push_back(value.at(letters[k]));
      }
      if (dot != std::string::npos && dot == letters.size()) {
        std::vector<PrimExpr> dims(inputs[t].shape().end() - static_cast<long>(covered),
                                   inputs[t].shape().end());
        for (const PrimExpr& e : broadcast_index(dims, ellipsis)) index.push_back(e);
      }
      PrimExpr v = inputs[t](index);
      product = product.defined() ? tir::mul(product, v) : v;
    }
    return product;
  };
  DataType dtype = ctx.result_dtype();
  Tensor out = reduced.empty()
                   ? compute.compute("T_einsum", out_shape, dtype,
                                     [&](const std::vector<Var>& i) { return body(i, {}); })
                   : compute.reduce("T_einsum", out_shape, dtype, tir::ReduceKind::Sum,
                                    reduce_extents, body);
  return ctx.call_tir("einsum", compute, {out}, tir::OpPattern::OutEWiseFusable);
}

}  // namespace

void add_linear_algebra_legalizations(LegalizationTable& table) {
  table["relax.matmul"] = legalize_matmul;
  table["relax.einsum"] = legalize_einsum;
}

}  // namespace relaxc::relax
