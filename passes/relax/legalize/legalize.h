// What the legalizations of operators share: the context a legalization works in, and
// the table of legalizations, filled by one function per family of operators (one
// file each in this folder). legalize_ops.cc (the "legalize-ops" pass) runs them.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/relax/block_builder.h"
#include "ir/tir/compute.h"

namespace relaxc::relax {

class LegalizeContext;

// The replacement of one call of an operator: usually ctx.call_tir(...) of a PrimFunc
// built with a tir::ComputeBuilder; may bind other calls first (ctx.emit_op).
using LegalizeFn = std::function<Expr(LegalizeContext& ctx)>;
using LegalizationTable = std::unordered_map<std::string, LegalizeFn>;  // by operator name

// The families, each in legalize/<family>.cc: each adds its operators to `table`.
void add_elementwise_legalizations(LegalizationTable& table);
void add_nn_conv_legalizations(LegalizationTable& table);
void add_nn_pool_legalizations(LegalizationTable& table);
void add_image_legalizations(LegalizationTable& table);
void add_nn_attention_legalizations(LegalizationTable& table);
void add_data_dependent_legalizations(LegalizationTable& table);

// Whether legalize-ops replaces calls of the operator `op_name` ("relax.add").
bool has_legalization(const std::string& op_name);

// The call being legalized and the ways to replace it. Errors name the operator, the
// argument and the dimension, at the call's place.
class LegalizeContext {
 public:
  virtual ~LegalizeContext() = default;

  // The call (arguments are leaves with StructInfo; the call has its StructInfo).
  virtual const CallNode* call() const = 0;
  // The builder of the function being rewritten (to emit bindings before the result).
  virtual BlockBuilder& builder() = 0;
  // For errors: the operator and its binding ("R.add (binding 'lv0')"), and the place
  // (the binding's, else the call's): user_error(ctx.span()) << ctx.describe() << ...
  virtual std::string describe() const = 0;
  virtual Span span() const = 0;

  // Argument `index` (a tensor) as an input of `compute`, named after the argument; a
  // UserError if its dtype or shape is not known: the function needs both.
  virtual tir::Tensor input(tir::ComputeBuilder& compute, size_t index) = 0;
  // Any tensor expression of the function (a variable bound by emit_op) as an input.
  virtual tir::Tensor input(tir::ComputeBuilder& compute, const Expr& tensor,
                            const std::string& name) = 0;
  // The scalar of a PrimValue argument `index` (a constant, or an expression of shape
  // variables) in the variables of `compute`.
  virtual tir::PrimExpr prim_arg(tir::ComputeBuilder& compute, size_t index) = 0;
  // The shape of the call's result (`field` of a tuple result) in the variables of
  // `compute`, and its dtype, with the same error as input() where they are not known.
  virtual std::vector<tir::PrimExpr> result_shape(tir::ComputeBuilder& compute, int field = -1) = 0;
  virtual DataType result_dtype(int field = -1) = 0;

  // R.call_tir of the function `compute` builds for `outputs`, on the tensors whose
  // input() it took, in that order; out_sinfo is the call's StructInfo. The function
  // is named `name` (made unique in the module) unless a structurally equal one was
  // legalized before, which is shared.
  virtual Expr call_tir(const std::string& name, const tir::ComputeBuilder& compute,
                        const std::vector<tir::Tensor>& outputs, tir::OpPattern pattern) = 0;
  // Binds a call of the registered operator `op_name` (legalized in turn) and returns
  // its variable.
  virtual Expr emit_op(const std::string& op_name, std::vector<Expr> args, Attrs attrs = {},
                       const std::string& name_hint = "") = 0;
};

}  // namespace relaxc::relax
