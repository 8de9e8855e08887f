// narrow_to_int32: a kernel's index and loop arithmetic in int32.
//
// Algorithm: one bottom-up rewrite. Every int64 var of the kernel (scalar params, loop
// vars, and let vars whose values narrow) is replaced by an int32 var of the same name.
// Expressions are rebuilt from their rewritten operands: where an int32 operand meets an
// int64 immediate, the immediate narrows; where it meets int64 data (a load of an int64
// buffer), the int32 side widens back, so data keeps its type. A widening cast of an
// index-like expression (one that reads no buffer) is dropped; indices, loop bounds and
// buffer extents are int32; a stored value keeps its buffer's dtype. Int64 immediates that
// do not fit 32 bits are refused. The host checks at launch that the shape values fit
// and that no buffer has 2^31 elements or more (runtime/vm/kernel_launch.h).
#include <limits>
#include <unordered_map>

#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

constexpr DataType kInt32 = DataType::Int(32);
constexpr DataType kInt64 = DataType::Int(64);

bool reads_buffer(const PrimExpr& e) {
  bool found = false;
  post_order_visit(e, [&](const Ref<Object>& n) {
    if (n.is<BufferLoadNode>()) found = true;
  });
  return found;
}

// `at` locates the statement or buffer the expression belongs to, for an expression
// (a constant the flattening computed) that has no span of its own.
PrimExpr to_int32(const PrimExpr& e, Span at) {
  if (e->dtype == kInt32) return e;
  if (e->span.defined()) at = e->span;
  if (const int64_t* v = as_const_int(e); v != nullptr && e->dtype.is_int()) {
    if (*v < std::numeric_limits<int32_t>::min() || *v > std::numeric_limits<int32_t>::max()) {
      user_error(at) << "the index value " << *v
                     << " does not fit in 32 bits, which kernels compute indices in";
    }
    return int_imm(kInt32, *v, e->span);
  }
  if (const auto* c = e.as<CastNode>(); c != nullptr && c->value->dtype == kInt32) return c->value;
  // Index arithmetic over constants narrows term by term.
  PrimExpr narrowed;
  auto narrow_binary = [&](const auto* node) {
    if (node != nullptr && !reads_buffer(e)) {
      narrowed =
          binary(node->Object::kind(), to_int32(node->a, at), to_int32(node->b, at), e->span);
    }
  };
  narrow_binary(e.as<AddNode>());
  narrow_binary(e.as<SubNode>());
  narrow_binary(e.as<MulNode>());
  narrow_binary(e.as<FloorDivNode>());
  narrow_binary(e.as<FloorModNode>());
  narrow_binary(e.as<MinNode>());
  narrow_binary(e.as<MaxNode>());
  return narrowed.defined() ? narrowed : cast(kInt32, e, e->span);
}

// Brings two integer operands to one dtype: index arithmetic (reading no buffer) narrows
// to int32; int64 data keeps its type and the int32 side widens.
void unify(PrimExpr& a, PrimExpr& b) {
  if (a->dtype == b->dtype || !a->dtype.is_int() || !b->dtype.is_int()) return;
  if (a->dtype == kInt32 && b->dtype == kInt64) {
    if (reads_buffer(b)) {
      a = cast(kInt64, a, a->span);
    } else {
      b = to_int32(b, a->span);
    }
  } else if (b->dtype == kInt32 && a->dtype == kInt64) {
    unify(b, a);
  }
}

class Narrower final : public Mutator {
 public:
  Var narrowed(const Var& v) {
    if (v->dtype != kInt64) return v;
    auto it = vars_.find(v.get());
    if (it != vars_.end()) return it->second;
    Var n = v->is_size_var ? size_var(v->name, kInt32, v->span) : var(v->name, kInt32, v->span);
    vars_.emplace(v.get(), n);
    return n;
  }

 private:
  Var mutate_var_def(const Var& v) override {
    auto it = vars_.find(v.get());
    return it != vars_.end() ? it->second : v;
  }

  PrimExpr mutate_node(const VarNode* node) override {
    auto it = vars_.find(node);
    return it != vars_.end() ? PrimExpr(it->second) : PrimExpr(node);
  }

  template <typename T>
  PrimExpr rebuild_binary(const T* node) {
    PrimExpr a = mutate(node->a);
    PrimExpr b = mutate(node->b);
    if (a.same_as(node->a) && b.same_as(node->b)) return PrimExpr(node);
    unify(a, b);
    return binary(T::kKind, a, b, node->span);
  }

#define RELAXC_NARROW_BINARY(Kind, Type) \
  PrimExpr mutate_node(const Type* node) override { return rebuild_binary(node); }
  RELAXC_NARROW_BINARY(TirAdd, AddNode)
  RELAXC_NARROW_BINARY(TirSub, SubNode)
  RELAXC_NARROW_BINARY(TirMul, MulNode)
  RELAXC_NARROW_BINARY(TirDiv, DivNode)
  RELAXC_NARROW_BINARY(TirMod, ModNode)
  RELAXC_NARROW_BINARY(TirFloorDiv, FloorDivNode)
  RELAXC_NARROW_BINARY(TirFloorMod, FloorModNode)
  RELAXC_NARROW_BINARY(TirMin, MinNode)
  RELAXC_NARROW_BINARY(TirMax, MaxNode)
  RELAXC_NARROW_BINARY(TirEQ, EQNode)
  RELAXC_NARROW_BINARY(TirNE, NENode)
  RELAXC_NARROW_BINARY(TirLT, LTNode)
  RELAXC_NARROW_BINARY(TirLE, LENode)
  RELAXC_NARROW_BINARY(TirGT, GTNode)
  RELAXC_NARROW_BINARY(TirGE, GENode)
#undef RELAXC_NARROW_BINARY

  PrimExpr mutate_node(const CastNode* node) override {
    PrimExpr value = mutate(node->value);
    if (node->dtype == kInt64 && value->dtype == kInt32 && !reads_buffer(value)) return value;
    if (node->dtype == value->dtype) return value;
    if (value.same_as(node->value)) return PrimExpr(node);
    return cast(node->dtype, value, node->span);
  }

  PrimExpr mutate_node(const SelectNode* node) override {
    PrimExpr cond = mutate(node->condition);
    PrimExpr t = mutate(node->true_value);
    PrimExpr f = mutate(node->false_value);
    unify(t, f);
    return select(cond, t, f, node->span);
  }

  PrimExpr mutate_node(const LetNode* node) override {
    PrimExpr value = mutate(node->value);
    Var v = node->var;
    if (v->dtype == kInt64 && value->dtype == kInt32) v = narrowed(v);
    if (v->dtype != value->dtype) value = cast(v->dtype, value, value->span);
    return let(v, value, mutate(node->body), node->span);
  }

  PrimExpr mutate_node(const CallNode* node) override {
    // Intrinsics keep the argument types they were built with.
    std::vector<PrimExpr> args;
    bool changed = false;
    for (const PrimExpr& arg : node->args) {
      PrimExpr a = mutate(arg);
      if (a->dtype != arg->dtype) a = cast(arg->dtype, a, a->span);
      changed = changed || !a.same_as(arg);
      args.push_back(a);
    }
    if (!changed) return PrimExpr(node);
    auto* copy = copy_node(*node);
    copy->args = std::move(args);
    return PrimExpr(copy);
  }

  PrimExpr mutate_node(const BufferLoadNode* node) override {
    Buffer buf = mutate(node->buffer);
    std::vector<PrimExpr> indices;
    for (const PrimExpr& i : node->indices) indices.push_back(to_int32(mutate(i), node->span));
    return buffer_load(buf, indices, node->span);
  }

  Stmt mutate_node(const BufferStoreNode* node) override {
    Buffer buf = mutate(node->buffer);
    std::vector<PrimExpr> indices;
    for (const PrimExpr& i : node->indices) indices.push_back(to_int32(mutate(i), node->span));
    PrimExpr value = mutate(node->value);
    if (value->dtype != buf->dtype) value = cast(buf->dtype, value, value->span);
    return buffer_store(buf, value, indices, node->span);
  }

  Ref<BufferNode> mutate_node(const BufferNode* node) override {
    Ref<BufferNode> rebuilt = mutate_children(node);
    bool wide = false;
    for (const PrimExpr& e : rebuilt->shape) wide = wide || e->dtype != kInt32;
    for (const PrimExpr& e : rebuilt->strides) wide = wide || e->dtype != kInt32;
    if (!wide) return rebuilt;
    auto* copy = copy_node(*rebuilt);
    for (PrimExpr& e : copy->shape) e = to_int32(e, node->span);
    for (PrimExpr& e : copy->strides) e = to_int32(e, node->span);
    if (copy->elem_offset.defined()) copy->elem_offset = to_int32(copy->elem_offset, node->span);
    return Ref<BufferNode>(copy);
  }

  Stmt mutate_node(const ForNode* node) override {
    Var v = narrowed(node->loop_var);
    PrimExpr min = to_int32(mutate(node->min), node->span);
    PrimExpr extent = to_int32(mutate(node->extent), node->span);
    return for_loop(v, min, extent, node->kind, mutate(node->body), node->thread_tag,
                    node->annotations, node->span);
  }

  Stmt mutate_node(const LetStmtNode* node) override {
    PrimExpr value = mutate(node->value);
    Var v = node->var;
    if (v->dtype == kInt64 && value->dtype == kInt32) v = narrowed(v);
    if (v->dtype != value->dtype) value = cast(v->dtype, value, value->span);
    return let_stmt(v, value, mutate(node->body), node->span);
  }

  std::unordered_map<const VarNode*, Var> vars_;
};

}  // namespace

PrimFunc narrow_to_int32(const PrimFunc& kernel) {
  Narrower narrower;
  auto* result = copy_node(*kernel);
  for (Var& param : result->params) {
    if (param->dtype == kInt64) param = narrower.narrowed(param);
  }
  for (auto& [handle, buf] : result->buffer_map) buf = narrower.mutate(buf);
  result->body = narrower.mutate(kernel->body);
  return PrimFunc(result);
}

}  // namespace relaxc::tir
