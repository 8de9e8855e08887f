// TensorIR visitors and mutators: kind dispatch, default child walks, and the lambda
// forms built on them.
#include "ir/tir/functor.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>

#include "ir/node_dispatch.h"

namespace relaxc {

Span span_of(const Object* node) {
  Span span;
  if (node == nullptr) return span;
  dispatch(node, [&span](const auto* typed) {
    if constexpr (requires { typed->span; }) span = typed->span;
  });
  return span;
}

namespace {

// The lowest address of this thread's stack and its size (0 if unknown), looked up
// once per thread.
struct StackBounds {
  uintptr_t low = 0;
  size_t size = 0;
};

StackBounds current_stack_bounds() {
  StackBounds bounds;
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* addr = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
      bounds.low = reinterpret_cast<uintptr_t>(addr);
      bounds.size = size;
    }
    pthread_attr_destroy(&attr);
  }
#endif
  return bounds;
}

// Where the stack cannot be measured, walks stop at a depth that fits an 8 MiB stack in
// an unoptimized build.
constexpr int kFallbackMaxDepth = 1000;

bool stack_nearly_exhausted(int depth) {
  thread_local const StackBounds bounds = current_stack_bounds();
  if (bounds.size == 0) return depth > kFallbackMaxDepth;
  // Kept free for what runs below the last guarded level: callbacks, the analyses they
  // call, error reporting.
  size_t reserve = std::min<size_t>(size_t{1} << 20, bounds.size / 4);
  auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return here < bounds.low + reserve;
}

}  // namespace

NestingGuard::NestingGuard(int& depth, const Object* node) : depth_(depth) {
  if (stack_nearly_exhausted(++depth_)) {
    --depth_;
    user_error(span_of(node)) << "the program nests too deeply here for the compiler's stack; "
                                 "bind intermediate results to variables to flatten it";
  }
}

namespace tir {

// ---------------------------------------------------------------- Visitor

void Visitor::visit(const Object* node) {
  if (node == nullptr) return;
  NestingGuard guard(depth_, node);
  switch (node->kind()) {
#define RELAXC_TIR_VISIT_CASE(Kind, Type) \
  case NodeKind::Kind:                    \
    return visit_node(static_cast<const Type*>(node));
    RELAXC_TIR_EXPR_NODES(RELAXC_TIR_VISIT_CASE)
    RELAXC_TIR_STMT_NODES(RELAXC_TIR_VISIT_CASE)
    RELAXC_TIR_OTHER_NODES(RELAXC_TIR_VISIT_CASE)
#undef RELAXC_TIR_VISIT_CASE
    default:
      break;
  }
  RELAXC_UNREACHABLE() << "a TensorIR visitor met a " << node_kind_name(node->kind());
}

#define RELAXC_TIR_VISIT_DEFAULT(Kind, Type) \
  void Visitor::visit_node(const Type* node) { visit_children(node); }
RELAXC_TIR_EXPR_NODES(RELAXC_TIR_VISIT_DEFAULT)
RELAXC_TIR_STMT_NODES(RELAXC_TIR_VISIT_DEFAULT)
RELAXC_TIR_OTHER_NODES(RELAXC_TIR_VISIT_DEFAULT)
#undef RELAXC_TIR_VISIT_DEFAULT

// ---------------------------------------------------------------- Mutator

Ref<Object> Mutator::mutate(const Object* node) {
  if (node == nullptr) return {};
  NestingGuard guard(depth_, node);
  if (node->kind() == NodeKind::TirBuffer) {
    Buffer buffer(static_cast<const BufferNode*>(node));
    auto it = rewritten_buffers_.find(buffer);
    if (it != rewritten_buffers_.end()) return it->second;
    Buffer rewritten = mutate_node(buffer.get());
    rewritten_buffers_.emplace(std::move(buffer), rewritten);
    return rewritten;
  }
  switch (node->kind()) {
#define RELAXC_TIR_MUTATE_CASE(Kind, Type) \
  case NodeKind::Kind:                     \
    return mutate_node(static_cast<const Type*>(node));
    RELAXC_TIR_EXPR_NODES(RELAXC_TIR_MUTATE_CASE)
    RELAXC_TIR_STMT_NODES(RELAXC_TIR_MUTATE_CASE)
    RELAXC_TIR_OTHER_NODES(RELAXC_TIR_MUTATE_CASE)
#undef RELAXC_TIR_MUTATE_CASE
    default:
      break;
  }
  RELAXC_UNREACHABLE() << "a TensorIR mutator met a " << node_kind_name(node->kind());
}

Var Mutator::mutate_var_def(const Var& var) { return var; }

#define RELAXC_TIR_MUTATE_DEFAULT(Kind, Type) \
  PrimExpr Mutator::mutate_node(const Type* node) { return mutate_children(node); }
RELAXC_TIR_EXPR_NODES(RELAXC_TIR_MUTATE_DEFAULT)
#undef RELAXC_TIR_MUTATE_DEFAULT
#define RELAXC_TIR_MUTATE_DEFAULT(Kind, Type) \
  Stmt Mutator::mutate_node(const Type* node) { return mutate_children(node); }
RELAXC_TIR_STMT_NODES(RELAXC_TIR_MUTATE_DEFAULT)
#undef RELAXC_TIR_MUTATE_DEFAULT
#define RELAXC_TIR_MUTATE_DEFAULT(Kind, Type) \
  Ref<Type> Mutator::mutate_node(const Type* node) { return mutate_children(node); }
RELAXC_TIR_OTHER_NODES(RELAXC_TIR_MUTATE_DEFAULT)
#undef RELAXC_TIR_MUTATE_DEFAULT

// ---------------------------------------------------------------- Lambda forms

namespace {

class PostOrderVisitor final : public Visitor {
 public:
  explicit PostOrderVisitor(const std::function<void(const Ref<Object>&)>& fn) : fn_(fn) {}

 private:
#define RELAXC_TIR_POST_ORDER(Kind, Type)      \
  void visit_node(const Type* node) override { \
    visit_children(node);                      \
    fn_(Ref<Object>(node));                    \
  }
  RELAXC_TIR_EXPR_NODES(RELAXC_TIR_POST_ORDER)
  RELAXC_TIR_STMT_NODES(RELAXC_TIR_POST_ORDER)
  RELAXC_TIR_OTHER_NODES(RELAXC_TIR_POST_ORDER)
#undef RELAXC_TIR_POST_ORDER

  const std::function<void(const Ref<Object>&)>& fn_;
};

class Substituter final : public Mutator {
 public:
  explicit Substituter(const VarSubstitution& fn) : fn_(fn) {}

 private:
  PrimExpr mutate_node(const VarNode* node) override {
    PrimExpr replacement = fn_(Var(node));
    return replacement.defined() ? replacement : PrimExpr(node);
  }
  Var mutate_var_def(const Var& var) override {
    PrimExpr replacement = fn_(var);
    const auto* renamed = replacement.as<VarNode>();
    return renamed != nullptr ? Var(renamed) : var;
  }

  const VarSubstitution& fn_;
};

class Transformer final : public Mutator {
 public:
  explicit Transformer(const ExprRewrite& fn) : fn_(fn) {}

 private:
#define RELAXC_TIR_TRANSFORM(Kind, Type)                  \
  PrimExpr mutate_node(const Type* node) override {       \
    PrimExpr rebuilt = mutate_children(node);             \
    PrimExpr replacement = fn_(rebuilt);                  \
    return replacement.defined() ? replacement : rebuilt; \
  }
  RELAXC_TIR_EXPR_NODES(RELAXC_TIR_TRANSFORM)
#undef RELAXC_TIR_TRANSFORM

  const ExprRewrite& fn_;
};

VarSubstitution lookup_in(const VarMap& map) {
  return [&map](const Var& var) -> PrimExpr {
    auto it = map.find(var);
    return it != map.end() ? it->second : PrimExpr();
  };
}

}  // namespace

void post_order_visit(const Ref<Object>& root, const std::function<void(const Ref<Object>&)>& fn) {
  PostOrderVisitor(fn).visit(root);
}

PrimExpr substitute(const PrimExpr& expr, const VarMap& map) {
  if (map.empty()) return expr;
  return substitute(expr, lookup_in(map));
}

Stmt substitute(const Stmt& stmt, const VarMap& map) {
  if (map.empty()) return stmt;
  return substitute(stmt, lookup_in(map));
}

PrimExpr substitute(const PrimExpr& expr, const VarSubstitution& fn) {
  return Substituter(fn).mutate(expr);
}

Stmt substitute(const Stmt& stmt, const VarSubstitution& fn) {
  return Substituter(fn).mutate(stmt);
}

PrimExpr transform(const PrimExpr& expr, const ExprRewrite& fn) {
  return Transformer(fn).mutate(expr);
}

Stmt transform(const Stmt& stmt, const ExprRewrite& fn) { return Transformer(fn).mutate(stmt); }

bool uses_var_if(const Ref<Object>& root, const std::function<bool(const VarNode*)>& pred) {
  bool found = false;
  post_order_visit(root, [&](const Ref<Object>& node) {
    if (const auto* v = node.as<VarNode>(); !found && v != nullptr) found = pred(v);
  });
  return found;
}

bool uses_var(const Ref<Object>& root, const Var& var) {
  return uses_var_if(root, [&](const VarNode* v) { return v == var.get(); });
}

bool uses_any_var(const Ref<Object>& root, const std::unordered_set<const VarNode*>& vars) {
  return uses_var_if(root, [&](const VarNode* v) { return vars.count(v) != 0; });
}

}  // namespace tir
}  // namespace relaxc
