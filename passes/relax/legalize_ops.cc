// legalize-ops: every call of an operator that has a legalization becomes an R.call_tir
// of a TensorIR PrimFunc that computes it (TVM's LegalizeOps).
//
// Algorithm: an ExprMutator walks each Relax function; after a call's arguments are
// rewritten, the legalization of its operator (legalize/<family>.cc, found by name in
// the table) builds the PrimFunc with a tir::ComputeBuilder over the arguments' shapes
// and returns the replacement, R.call_tir(func, args, out_sinfo=<the call's StructInfo>,
// tir_vars) — or binds other operator calls first (emit_op), legalized in turn. The
// PrimFunc has its own shape variables: a variable that no buffer dimension binds is
// passed as a tir_var. New PrimFuncs are compared by structural equality with those
// made before: call sites with the same computation over different (or the same) shape
// variables share one. Operators without a legalization (reshape and flatten, which the
// VM runs as views; call_tir and the other calls) are left as they are, and so is
// hand-written call_tir: modules may mix both.
#include <unordered_map>
#include <utility>

#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

const LegalizationTable& legalizations() {
  static const LegalizationTable table = [] {
    LegalizationTable t;
    add_elementwise_legalizations(t);
    add_manipulate_legalizations(t);
    add_index_legalizations(t);
    add_data_dependent_legalizations(t);
    add_creation_legalizations(t);
    add_statistical_legalizations(t);
    add_linear_algebra_legalizations(t);
    add_nn_norm_legalizations(t);
    add_sort_legalizations(t);
    add_nn_conv_legalizations(t);
    add_nn_pool_legalizations(t);
    add_image_legalizations(t);
    add_nn_attention_legalizations(t);
    return t;
  }();
  return table;
}

}  // namespace

bool has_legalization(const std::string& op_name) { return legalizations().count(op_name) != 0; }

namespace {

class Legalizer;

class CallContext final : public LegalizeContext {
 public:
  CallContext(Legalizer& legalizer, const CallNode* call, std::string binding_note, Span span)
      : legalizer_(legalizer), call_(call), binding_note_(std::move(binding_note)), span_(span) {}

  const CallNode* call() const override { return call_; }
  BlockBuilder& builder() override;

  std::string describe() const override { return op_display_name(call_) + binding_note_; }
  Span span() const override { return span_; }

  tir::Tensor input(tir::ComputeBuilder& compute, size_t index) override {
    RELAXC_ICHECK(index < call_->args.size()) << describe() << ": no argument " << index;
    return input(compute, call_->args[index], op_arg_name(call_, index));
  }

  tir::Tensor input(tir::ComputeBuilder& compute, const Expr& tensor,
                    const std::string& name) override {
    const auto* sinfo = tensor->struct_info.as<TensorStructInfoNode>();
    if (sinfo == nullptr) {
      user_error(span()) << describe() << ": argument '" << name << "' must be a tensor, got "
                         << text::print_node(tensor->struct_info);
    }
    std::vector<tir::PrimExpr> shape =
        known_shape(*sinfo, tensor->struct_info, "argument '" + name + "'");
    inputs_[&compute].push_back(tensor);
    return compute.input(name, std::move(shape), sinfo->dtype);
  }

  tir::PrimExpr prim_arg(tir::ComputeBuilder& compute, size_t index) override {
    const auto* prim = call_->args[index]->struct_info.as<PrimStructInfoNode>();
    if (prim == nullptr || !prim->value.defined()) {
      user_error(span()) << describe() << ": cannot legalize: argument '"
                         << op_arg_name(call_, index) << "' must be a known scalar, got "
                         << text::print_node(call_->args[index]->struct_info);
    }
    return compute.import(prim->value);
  }

  std::vector<tir::PrimExpr> result_shape(tir::ComputeBuilder& compute, int field) override {
    const TensorStructInfoNode& t = result_tensor(field);
    return compute.import(known_shape(t, call_->struct_info, "the result"));
  }

  DataType result_dtype(int field) override { return result_tensor(field).dtype; }

  Expr call_tir(const std::string& name, const tir::ComputeBuilder& compute,
                const std::vector<tir::Tensor>& outputs, tir::OpPattern pattern) override;

  Expr emit_op(const std::string& op_name, std::vector<Expr> args, Attrs attrs,
               const std::string& name_hint) override;

 private:
  // The dims of `tensor`, or a UserError saying the function needs them.
  std::vector<tir::PrimExpr> known_shape(const TensorStructInfoNode& tensor,
                                         const StructInfo& whole, const std::string& what) {
    const std::vector<tir::PrimExpr>* dims = known_dims(tensor);
    if (dims == nullptr || tensor.dtype.is_void()) {
      user_error(span()) << describe() << ": cannot legalize: the "
                         << (dims == nullptr ? "shape" : "dtype") << " of " << what
                         << " is not known (" << text::print_node(whole)
                         << "); the TensorIR function needs it (annotate it, or R.match_cast "
                            "it to a shape)";
    }
    return *dims;
  }

  const TensorStructInfoNode& result_tensor(int field) {
    const StructInfo& sinfo = call_->struct_info;
    const StructInfo* target = &sinfo;
    if (field >= 0) {
      const auto* tuple = sinfo.as<TupleStructInfoNode>();
      RELAXC_ICHECK(tuple != nullptr && field < static_cast<int>(tuple->fields.size()))
          << op_display_name(call_) << ": no result field " << field;
      target = &tuple->fields[field];
    }
    const auto* tensor = target->as<TensorStructInfoNode>();
    RELAXC_ICHECK(tensor != nullptr) << op_display_name(call_) << ": the result is not a tensor";
    return *tensor;
  }

  Legalizer& legalizer_;
  const CallNode* call_;
  std::string binding_note_;  // " (binding 'x')"
  Span span_;
  std::unordered_map<const tir::ComputeBuilder*, std::vector<Expr>> inputs_;
};

class Legalizer : public ExprMutator {
 public:
  explicit Legalizer(const IRModule& module) : ExprMutator(module), added(module) {}

  AddedFunctions added;  // the new PrimFuncs

  BlockBuilder& builder() { return builder_; }

  // `call` legalized, or `call` itself if its operator has no legalization.
  Expr legalize(const Expr& expr) {
    const auto* call = expr.as<CallNode>();
    const auto* op = call != nullptr ? call->op.as<OpNode>() : nullptr;
    if (op == nullptr) return expr;
    auto it = legalizations().find(op->name);
    if (it == legalizations().end()) return expr;
    CallContext context(*this, call, binding_note(), binding_span(call->span));
    return it->second(context);
  }

 protected:
  Expr visit_node(const CallNode* node) override { return legalize(ExprMutator::visit_node(node)); }
};

BlockBuilder& CallContext::builder() { return legalizer_.builder(); }

Expr CallContext::call_tir(const std::string& name, const tir::ComputeBuilder& compute,
                           const std::vector<tir::Tensor>& outputs, tir::OpPattern pattern) {
  tir::ComputeBuilder::Result built = compute.build(outputs, pattern);
  GlobalVar gv = legalizer_.added.add(name, built.func);
  std::vector<StructInfo> out_sinfo;
  if (const auto* tuple = call_->struct_info.as<TupleStructInfoNode>()) {
    out_sinfo = tuple->fields;
  } else {
    out_sinfo = {call_->struct_info};
  }
  RELAXC_ICHECK(out_sinfo.size() == outputs.size())
      << op_display_name(call_) << ": " << outputs.size() << " output(s) for a result of "
      << out_sinfo.size();
  BlockBuilder& bb = legalizer_.builder();
  std::vector<Expr> args = {gv, bb.tuple(inputs_[&compute], call_->span)};
  if (!built.scalar_params.empty()) {
    args.push_back(
        make_shape_expr({built.scalar_params.begin(), built.scalar_params.end()}, call_->span));
  }
  bool one_field_tuple = call_->struct_info.is<TupleStructInfoNode>() && out_sinfo.size() == 1;
  Expr result = bb.call(ops::call_tir(), std::move(args), std::move(out_sinfo), {}, call_->span);
  if (!one_field_tuple) return result;
  // A call_tir of one output is that tensor; the operator's result is a tuple of it.
  Expr field = bb.emit(result, "lv", bb.in_dataflow_block() ? VarKind::DataflowVar : VarKind::Var);
  return bb.tuple({field}, call_->span);
}

Expr CallContext::emit_op(const std::string& op_name, std::vector<Expr> args, Attrs attrs,
                          const std::string& name_hint) {
  BlockBuilder& bb = legalizer_.builder();
  Expr call = bb.call_op(op_name, std::move(args), {}, std::move(attrs), call_->span);
  Expr legalized = legalizer_.legalize(call);
  return bb.emit(legalized, name_hint,
                 bb.in_dataflow_block() ? VarKind::DataflowVar : VarKind::Var);
}

}  // namespace

IRModule legalize_ops(const IRModule& module) {
  Legalizer legalizer(module);
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    if (func.as<FunctionNode>() != nullptr) {
      functions.emplace_back(gv, legalizer.visit_expr(Function(func.cast<FunctionNode>())));
    } else {
      functions.emplace_back(gv, func);
    }
  }
  for (auto& entry : legalizer.added.functions) functions.push_back(std::move(entry));
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc::relax
