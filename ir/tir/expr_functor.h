// Value-returning functors over TensorIR expressions and statements, with one virtual
// visit_<Kind> per node kind generated from the node-kind list. For algorithms that
// compute a result per node (a bound, a rewrite, text); functor.h's Visitor and Mutator
// walk and rebuild whole trees.
#pragma once

#include <utility>

#include "ir/tir/stmt.h"

namespace relaxc::tir {

template <typename Signature>
class ExprFunctor;

// ExprFunctor<R(Args...)>: visit_expr(e, args...) calls visit_<Kind of e>(node, args...)
// (visit_TirAdd(const AddNode*, ...)). Each visit_<Kind>, and a node that is not an
// expression, goes to visit_default, which is an internal error unless overridden:
// override the kinds the algorithm handles, and visit_default for the rest.
template <typename R, typename... Args>
class ExprFunctor<R(Args...)> {
 public:
  virtual ~ExprFunctor() = default;

  R visit_expr(const PrimExpr& expr, Args... args) {
    switch (expr->kind()) {
#define RELAXC_EXPR_FUNCTOR_CASE(Kind, Type) \
  case NodeKind::Kind:                       \
    return visit_##Kind(static_cast<const Type*>(expr.get()), std::forward<Args>(args)...);
      RELAXC_TIR_EXPR_NODES(RELAXC_EXPR_FUNCTOR_CASE)
#undef RELAXC_EXPR_FUNCTOR_CASE
      default:
        // A node of another category where an expression belongs (malformed IR).
        return visit_default(expr.get(), std::forward<Args>(args)...);
    }
  }

 protected:
#define RELAXC_EXPR_FUNCTOR_VISIT(Kind, Type)                \
  virtual R visit_##Kind(const Type* node, Args... args) {   \
    return visit_default(node, std::forward<Args>(args)...); \
  }
  RELAXC_TIR_EXPR_NODES(RELAXC_EXPR_FUNCTOR_VISIT)
#undef RELAXC_EXPR_FUNCTOR_VISIT

  virtual R visit_default(const PrimExprNode* node, Args...) {
    RELAXC_UNREACHABLE() << "this expression functor has no case for "
                         << node_kind_name(node->kind());
  }
};

template <typename Signature>
class StmtFunctor;

// StmtFunctor<R(Args...)>: as ExprFunctor, over statements (visit_stmt, visit_TirFor, ...).
template <typename R, typename... Args>
class StmtFunctor<R(Args...)> {
 public:
  virtual ~StmtFunctor() = default;

  R visit_stmt(const Stmt& stmt, Args... args) {
    switch (stmt->kind()) {
#define RELAXC_STMT_FUNCTOR_CASE(Kind, Type) \
  case NodeKind::Kind:                       \
    return visit_##Kind(static_cast<const Type*>(stmt.get()), std::forward<Args>(args)...);
      RELAXC_TIR_STMT_NODES(RELAXC_STMT_FUNCTOR_CASE)
#undef RELAXC_STMT_FUNCTOR_CASE
      default:
        // A node of another category where a statement belongs (malformed IR).
        return visit_default(stmt.get(), std::forward<Args>(args)...);
    }
  }

 protected:
#define RELAXC_STMT_FUNCTOR_VISIT(Kind, Type)                \
  virtual R visit_##Kind(const Type* node, Args... args) {   \
    return visit_default(node, std::forward<Args>(args)...); \
  }
  RELAXC_TIR_STMT_NODES(RELAXC_STMT_FUNCTOR_VISIT)
#undef RELAXC_STMT_FUNCTOR_VISIT

  virtual R visit_default(const StmtNode* node, Args...) {
    RELAXC_UNREACHABLE() << "this statement functor has no case for "
                         << node_kind_name(node->kind());
  }
};

}  // namespace relaxc::tir
