// ExprMutator: a rewrite of Relax expressions that rebuilds through a BlockBuilder.
#pragma once

#include <unordered_map>
#include <vector>

#include "ir/relax/block_builder.h"

namespace relaxc::relax {

// Each expression kind has a visit_node overload whose default visits the node's
// children and returns the node itself when none changed, or rebuilds it through
// builder_ (which re-infers its StructInfo and binds non-leaf children) when one did.
// Bindings are re-emitted into builder_'s current block: unchanged ones as they are;
// a changed value keeps its variable when the new StructInfo is equivalent, and is
// otherwise bound to a fresh variable of the same name and kind, which then replaces
// the old one in every later use (var_remap_).
//
// A pass rewrites a function with visit_expr(function); overriding
// visit_node(const CallNode*) is the common case.
class ExprMutator {
 public:
  // `module` is what builder_ resolves calls of GlobalVars against.
  explicit ExprMutator(IRModule module = {});
  virtual ~ExprMutator() = default;
  ExprMutator(const ExprMutator&) = delete;
  ExprMutator& operator=(const ExprMutator&) = delete;

  // The rewritten expression, in normal form; `expr` itself if nothing changed.
  Expr visit_expr(const Expr& expr);

 protected:
#define RELAXC_RELAX_MUTATE_DECL(Kind, Type) virtual Expr visit_node(const Type* node);
  RELAXC_RELAX_EXPR_NODES(RELAXC_RELAX_MUTATE_DECL)
#undef RELAXC_RELAX_MUTATE_DECL

  virtual void visit_binding(const Binding& binding);
  virtual void visit_var_binding(const VarBindingNode* binding, const Binding& self);
  virtual void visit_match_cast(const MatchCastNode* binding, const Binding& self);
  // Re-emits the bindings of `block` into a block of the same kind.
  virtual void visit_block(const BindingBlock& block);

  // A function body or If branch, rebuilt in a new builder scope in which `params`'
  // shape variables are defined; `body` itself if nothing in it changed.
  Expr visit_scope(const Expr& body, const std::vector<Var>& params = {});

  // For errors: " (binding 'x')" while the value of binding x is rewritten (else ""),
  // and that binding's place (else `fallback`).
  std::string binding_note() const;
  Span binding_span(const Span& fallback) const;

  BlockBuilder builder_;
  // Replacements of variables, applied where a variable is used.
  std::unordered_map<const VarNode*, Expr> var_remap_;

 private:
  Expr visit_var_use(const VarNode* node);

  int depth_ = 0;
  const BindingNode* current_binding_ = nullptr;  // the binding being rewritten
};

}  // namespace relaxc::relax
