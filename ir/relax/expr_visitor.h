// A read-only visitor over Relax expressions, bindings, binding blocks and StructInfo,
// and its lambda form post_order_visit.
#pragma once

#include <functional>
#include <type_traits>

#include "ir/relax/expr.h"
#include "ir/tir/functor.h"

namespace relaxc::relax {

// Each expression kind and StructInfo kind has a visit_node overload whose default
// visits the node's children in field order; override what you need and call the base
// to keep descending. The hooks below see variables where they are bound and where
// they are used, and the TensorIR expressions inside shapes, PrimValues and StructInfo
// (the visitor does not descend into them: use tir::post_order_visit there).
//
// What is visited: a binding's value, then (for a MatchCast) its StructInfo pattern,
// then its variable; a function's parameters (as definitions), body and return
// StructInfo; a call's callee, arguments and sinfo_args; a TensorStructInfo's shape.
// The StructInfo an expression carries is derived from its children and not visited,
// except on variable definitions, where it is the annotation.
class ExprVisitor {
 public:
  virtual ~ExprVisitor() = default;

  void visit_expr(const Expr& expr);
  void visit_struct_info(const StructInfo& sinfo);
  virtual void visit_binding(const Binding& binding);
  virtual void visit_block(const BindingBlock& block);
  // A variable where it is bound: a function parameter or the variable of a binding.
  // Visits its StructInfo by default.
  virtual void visit_var_def(const Var& var);
  // A variable where it is used (also as the shape of a TensorStructInfo).
  virtual void visit_var_use(const Var& var);
  // A TensorIR expression in a ShapeExpr, a PrimValue or a StructInfo.
  virtual void visit_prim_expr(const PrimExpr& expr);

 protected:
#define RELAXC_RELAX_VISIT_DECL(Kind, Type) virtual void visit_node(const Type* node);
  RELAXC_RELAX_EXPR_NODES(RELAXC_RELAX_VISIT_DECL)
  RELAXC_STRUCT_INFO_NODES(RELAXC_RELAX_VISIT_DECL)
#undef RELAXC_RELAX_VISIT_DECL

  // Visits the children of `node` in field order, each through the entry point its
  // declared type calls for (a field declared Var holds a definition).
  template <typename T>
  void visit_children(const T* node) {
    for_each_field(node, [this](const auto& field) {
      for_each_ref(field, [this](const auto& child) { visit_child(child); });
    });
  }

 private:
  // Variables are leaves: a use is reported, and their StructInfo belongs to their
  // definition.
  template <typename T>
  void visit_default(const T* node) {
    if constexpr (std::is_base_of_v<VarNode, T>) {
      visit_var_use(Var(node));
    } else {
      visit_children(node);
    }
  }

  template <typename Node>
  void visit_child(const Ref<Node>& child) {
    if (!child.defined()) return;
    if constexpr (std::is_same_v<Node, VarNode>) {
      visit_var_def(child);
    } else if constexpr (std::is_base_of_v<ExprNode, Node>) {
      visit_expr(child);
    } else if constexpr (std::is_base_of_v<StructInfoNode, Node>) {
      visit_struct_info(child);
    } else if constexpr (std::is_base_of_v<tir::PrimExprNode, Node>) {
      visit_prim_expr(child);
    } else if constexpr (std::is_base_of_v<BindingBlockNode, Node>) {
      visit_block(child);
    } else {
      static_assert(std::is_base_of_v<BindingNode, Node>, "not a Relax child");
      visit_binding(child);
    }
  }

  int depth_ = 0;
};

// Calls fn on every expression under `root` (root included) that the visitor reaches
// through visit_expr, children before their parent: variables where they are used, not
// where they are bound; the shapes inside visited StructInfo too.
void post_order_visit(const Expr& root, const std::function<void(const Expr&)>& fn);

}  // namespace relaxc::relax
