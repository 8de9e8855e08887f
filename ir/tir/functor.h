// TensorIR visitors and mutators, with one virtual method per node kind generated from
// the node-kind list, and their lambda forms: post_order_visit, substitute, transform.
#pragma once

#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/node_reflection.h"
#include "ir/tir/stmt.h"

namespace relaxc {

// The source location of a node, or none if its kind carries no span.
Span span_of(const Object* node);

// Guards one level of a recursive walk over the IR; a walk holds one guard per level,
// counting its depth in `depth`. When the thread's stack is nearly exhausted it throws
// a UserError at `node`, so that a deeply nested program stops the walk with a
// diagnostic instead of overflowing the stack. How deep a walk may go depends on the
// stack size and the build: thousands of levels on an 8 MiB stack. Algorithms that must
// handle any depth (structural equality and hashing) use explicit work lists instead.
class NestingGuard {
 public:
  NestingGuard(int& depth, const Object* node);
  ~NestingGuard() { --depth_; }
  NestingGuard(const NestingGuard&) = delete;
  NestingGuard& operator=(const NestingGuard&) = delete;

 private:
  int& depth_;
};

namespace tir {

// A read-only walk over TensorIR nodes (expressions, statements, buffers, blocks,
// functions). Each node kind has a visit_node overload whose default visits the
// node's children in field order; override the kinds of interest and call the base
// (or visit_children) to keep descending. A buffer's fields are visited wherever the
// buffer is used.
class Visitor {
 public:
  virtual ~Visitor() = default;

  // Visits a TensorIR node; null is skipped.
  void visit(const Object* node);
  template <typename T>
  void visit(const Ref<T>& node) {
    visit(static_cast<const Object*>(node.get()));
  }

 protected:
#define RELAXC_TIR_VISIT_DECL(Kind, Type) virtual void visit_node(const Type* node);
  RELAXC_TIR_EXPR_NODES(RELAXC_TIR_VISIT_DECL)
  RELAXC_TIR_STMT_NODES(RELAXC_TIR_VISIT_DECL)
  RELAXC_TIR_OTHER_NODES(RELAXC_TIR_VISIT_DECL)
#undef RELAXC_TIR_VISIT_DECL

  // Visits every child node of `node`, in field order.
  template <typename T>
  void visit_children(const T* node) {
    for_each_field(node, [this](const auto& field) {
      for_each_ref(field, [this](const auto& child) { visit(child); });
    });
  }

 private:
  int depth_ = 0;
};

// A rewrite of TensorIR nodes. Each node kind has a mutate_node overload whose default
// rebuilds the node from its mutated children, and returns the node itself when no
// child changed. Variables in binding positions (loop, let and iteration variables,
// buffer data, parameters) go through mutate_var_def, which keeps them by default;
// variables used in expressions go through mutate_node(const VarNode*). Each buffer is
// rewritten once per mutator, so that all its uses keep sharing one buffer.
class Mutator {
 public:
  virtual ~Mutator() = default;

  // The rewritten node: a PrimExpr for an expression, a Stmt for a statement, a node
  // of the same kind otherwise. Null stays null.
  Ref<Object> mutate(const Object* node);
  // The rewritten node as a T (internal error if a rewrite changed its category).
  template <typename T>
  Ref<T> mutate(const Ref<T>& node) {
    Ref<Object> result = mutate(static_cast<const Object*>(node.get()));
    const T* typed = result.template as<T>();
    RELAXC_ICHECK(typed != nullptr || !result.defined())
        << "a mutator replaced a " << node_kind_name(node->Object::kind()) << " by a "
        << node_kind_name(result->Object::kind());
    return Ref<T>(typed);
  }

 protected:
#define RELAXC_TIR_MUTATE_EXPR_DECL(Kind, Type) virtual PrimExpr mutate_node(const Type* node);
#define RELAXC_TIR_MUTATE_STMT_DECL(Kind, Type) virtual Stmt mutate_node(const Type* node);
#define RELAXC_TIR_MUTATE_OTHER_DECL(Kind, Type) virtual Ref<Type> mutate_node(const Type* node);
  RELAXC_TIR_EXPR_NODES(RELAXC_TIR_MUTATE_EXPR_DECL)
  RELAXC_TIR_STMT_NODES(RELAXC_TIR_MUTATE_STMT_DECL)
  RELAXC_TIR_OTHER_NODES(RELAXC_TIR_MUTATE_OTHER_DECL)
#undef RELAXC_TIR_MUTATE_EXPR_DECL
#undef RELAXC_TIR_MUTATE_STMT_DECL
#undef RELAXC_TIR_MUTATE_OTHER_DECL

  // A variable in a binding position; kept by default.
  virtual Var mutate_var_def(const Var& var);

  // `node` rebuilt from its mutated children, or `node` itself if none changed.
  template <typename T>
  Ref<T> mutate_children(const T* node) {
    T* copy = nullptr;
    Ref<T> owner;  // holds the copy, so that it is freed if a later field throws
    std::apply([&](auto... member) { (update_field(node, member, copy, owner), ...); },
               T::reflect_fields());
    return copy != nullptr ? owner : Ref<T>(node);
  }

 private:
  template <typename T, typename Member>
  void update_field(const T* node, Member member, T*& copy, Ref<T>& owner) {
    auto changed = mutate_field(node->*member);
    if (!changed) return;
    if (copy == nullptr) {
      copy = copy_node(*node);
      owner = Ref<T>(copy);
    }
    copy->*member = std::move(*changed);
  }

  // The mutated value of a field, or nullopt if nothing in it changed.
  template <typename F>
  std::optional<F> mutate_field(const F& field) {
    if constexpr (kIsRefField<F>) {
      using Node = typename F::Node;
      if (!field.defined()) return std::nullopt;
      F result;
      if constexpr (std::is_same_v<Node, VarNode>) {
        result = mutate_var_def(field);
      } else {
        result = mutate(field);
      }
      if (result.same_as(field)) return std::nullopt;
      return result;
    } else if constexpr (kIsVectorField<F>) {
      std::optional<F> result;
      for (size_t i = 0; i < field.size(); ++i) {
        auto changed = mutate_field(field[i]);
        if (!changed) continue;
        if (!result) result.emplace(field);
        (*result)[i] = std::move(*changed);
      }
      return result;
    } else if constexpr (kIsOptionalField<F>) {
      if (!field.has_value()) return std::nullopt;
      auto changed = mutate_field(*field);
      if (!changed) return std::nullopt;
      return F(std::move(*changed));
    } else if constexpr (kIsPairField<F>) {
      auto first = mutate_field(field.first);
      auto second = mutate_field(field.second);
      if (!first && !second) return std::nullopt;
      return F(first ? std::move(*first) : field.first, second ? std::move(*second) : field.second);
    } else {
      return std::nullopt;
    }
  }

  int depth_ = 0;
  std::unordered_map<Buffer, Buffer, RefHash, RefEq> rewritten_buffers_;
};

// Calls fn on every TensorIR node under `root` (root included), children before their
// parent, each time the node is reached (a node reached twice is reported twice).
void post_order_visit(const Ref<Object>& root, const std::function<void(const Ref<Object>&)>& fn);

// Whether a variable for which `pred` holds occurs under `root`.
bool uses_var_if(const Ref<Object>& root, const std::function<bool(const VarNode*)>& pred);
// Whether `var` occurs under `root`.
bool uses_var(const Ref<Object>& root, const Var& var);
// Whether one of `vars` occurs under `root`.
bool uses_any_var(const Ref<Object>& root, const std::unordered_set<const VarNode*>& vars);

using VarMap = std::unordered_map<Var, PrimExpr, RefHash, RefEq>;
// The replacement of a variable, or null to keep it.
using VarSubstitution = std::function<PrimExpr(const Var&)>;

// Replaces the uses of variables by their replacements. A variable in a binding
// position (a loop variable, say) is replaced only by a variable, so that a map of
// variables to variables renames consistently; other replacements leave it bound.
PrimExpr substitute(const PrimExpr& expr, const VarMap& map);
Stmt substitute(const Stmt& stmt, const VarMap& map);
PrimExpr substitute(const PrimExpr& expr, const VarSubstitution& fn);
Stmt substitute(const Stmt& stmt, const VarSubstitution& fn);

// A post-order rewrite: each expression's children are rewritten first, then fn gets
// the rebuilt expression and returns its replacement (or null to keep it). On a
// statement, rewrites every expression in it, buffer shapes included.
using ExprRewrite = std::function<PrimExpr(const PrimExpr&)>;
PrimExpr transform(const PrimExpr& expr, const ExprRewrite& fn);
Stmt transform(const Stmt& stmt, const ExprRewrite& fn);

}  // namespace tir
}  // namespace relaxc
