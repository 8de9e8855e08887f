// The fusion pattern of a PrimFunc, from its attribute or from its blocks; see
// op_pattern.h for the rules (they follow TVM's AnalyzeOpPatternKind).
#include "ir/tir/op_pattern.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <vector>

#include "ir/tir/functor.h"

namespace relaxc::tir {

namespace {

// Indices are compared as TVM does: the same node, or the same integer constant. The
// compute builder and the parser reuse one Var node for every use of an iterator, so
// a bare iterator index compares equal to itself.
bool same_index(const PrimExpr& a, const PrimExpr& b) {
  if (a.same_as(b)) return true;
  const int64_t* x = as_const_int(a);
  const int64_t* y = as_const_int(b);
  return x != nullptr && y != nullptr && *x == *y;
}

bool same_indices(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!same_index(a[i], b[i])) return false;
  }
  return true;
}

// Each load index (but a 0 into a unit dimension) is a store index, in the same order.
bool is_broadcast(const BufferStoreNode& store, const BufferLoadNode& load) {
  size_t j = 0;
  for (size_t i = 0; i < load.indices.size(); ++i) {
    if (is_const_int(load.buffer->shape[i], 1) && is_const_int(load.indices[i], 0)) continue;
    while (j < store.indices.size() && !same_index(store.indices[j], load.indices[i])) ++j;
    if (j == store.indices.size()) return false;
  }
  return true;
}

std::optional<std::unordered_set<const VarNode*>> store_vars(const BufferStoreNode& store) {
  std::unordered_set<const VarNode*> vars;
  for (const PrimExpr& index : store.indices) {
    const auto* var = index.as<VarNode>();
    if (var == nullptr) return std::nullopt;
    vars.insert(var);
  }
  return vars;
}

// The store indexes by variables alone and each load index uses only those.
bool is_injective(const BufferStoreNode& store, const BufferLoadNode& load) {
  auto vars = store_vars(store);
  if (!vars) return false;
  for (const PrimExpr& index : load.indices) {
    if (uses_var_if(index, [&](const VarNode* v) { return vars->count(v) == 0; })) return false;
  }
  return true;
}

// Some store variable is not used by the load: the loaded element is reused across it.
bool allows_reuse(const BufferStoreNode& store, const BufferLoadNode& load) {
  auto vars = store_vars(store);
  if (!vars) return false;
  for (const PrimExpr& index : load.indices) {
    post_order_visit(index, [&](const Ref<Object>& node) {
      if (const auto* v = node.as<VarNode>()) vars->erase(v);
    });
  }
  return !vars->empty();
}

PrimExpr strip_casts(PrimExpr e) {
  while (const auto* cast = e.as<CastNode>()) e = cast->value;
  return e;
}

// C[i, j] = C[i, j] + A[..] * B[..], where A and B are each reused across an output
// variable: the multiply-accumulate of a matmul or a convolution.
bool is_multiply_accumulate(const Stmt& body) {
  const auto* store = body.as<BufferStoreNode>();
  if (store == nullptr) return false;
  const auto* add = strip_casts(store->value).as<AddNode>();
  if (add == nullptr) return false;
  const auto* acc = strip_casts(add->a).as<BufferLoadNode>();
  const auto* mul = strip_casts(add->b).as<MulNode>();
  if (acc == nullptr || mul == nullptr || !acc->buffer.same_as(store->buffer) ||
      !same_indices(acc->indices, store->indices)) {
    return false;
  }
  const auto* lhs = strip_casts(mul->a).as<BufferLoadNode>();
  const auto* rhs = strip_casts(mul->b).as<BufferLoadNode>();
  return lhs != nullptr && rhs != nullptr && allows_reuse(*store, *lhs) &&
         allows_reuse(*store, *rhs);
}

// Every index that uses a reduce variable is that variable alone.
bool is_pure_reduce(const std::vector<const VarNode*>& reduce_vars, const BufferLoadNode& load) {
  for (const PrimExpr& index : load.indices) {
    bool uses = uses_var_if(index, [&](const VarNode* v) {
      return std::find(reduce_vars.begin(), reduce_vars.end(), v) != reduce_vars.end();
    });
    if (uses && std::find(reduce_vars.begin(), reduce_vars.end(), index.as<VarNode>()) ==
                    reduce_vars.end()) {
      return false;
    }
  }
  return true;
}

class PatternAnalyzer : public Visitor {
 public:
  explicit PatternAnalyzer(const PrimFunc& func) {
    for (const auto& [param, buffer] : func->buffer_map) param_buffers_.insert(buffer.get());
  }

  OpPattern result = OpPattern::ElemWise;

 protected:
  void visit_node(const BlockNode* node) override {
    bool has_blocks = false;
    post_order_visit(node->body, [&](const Ref<Object>& n) { has_blocks |= n.is<BlockNode>(); });
    // A block that only holds blocks (the root block) is looked through.
    if (has_blocks) {
      visit(node->body);
      return;
    }
    result = std::max(result, block_pattern(*node));
  }

 private:
  OpPattern block_pattern(const BlockNode& block) {
    const BufferStoreNode* store = nullptr;
    bool one_indexing = true;
    std::vector<const BufferLoadNode*> loads;
    post_order_visit(block.body, [&](const Ref<Object>& n) {
      if (const auto* s = n.as<BufferStoreNode>()) {
        if (store != nullptr && !same_indices(store->indices, s->indices)) one_indexing = false;
        store = s;
      } else if (const auto* l = n.as<BufferLoadNode>()) {
        loads.push_back(l);
      }
    });
    if (store == nullptr || !one_indexing) return OpPattern::Opaque;

    std::optional<OpPattern> pairs = OpPattern::ElemWise;
    bool has_elemwise = false;
    for (const BufferLoadNode* load : loads) {
      if (same_indices(store->indices, load->indices)) {
        has_elemwise = true;
      } else if (is_broadcast(*store, *load)) {
        pairs = std::max(*pairs, OpPattern::Broadcast);
      } else if (is_injective(*store, *load)) {
        pairs = std::max(*pairs, OpPattern::Injective);
      } else {
        pairs.reset();
        break;
      }
    }
    if (pairs) {
      // Broadcast reads next to a same-shape read are still elementwise for fusion.
      if (*pairs == OpPattern::Broadcast && has_elemwise) pairs = OpPattern::ElemWise;
      // The output block mapping a reduction's result: the reduction takes it as its
      // epilogue.
      if (writes_param(block) && result == OpPattern::CommReduce) return OpPattern::OutEWiseFusable;
      return *pairs;
    }

    std::vector<const VarNode*> reduce_vars;
    for (const IterVar& iv : block.iter_vars) {
      if (iv->kind == IterKind::Reduce) reduce_vars.push_back(iv->var.get());
    }
    if (reduce_vars.empty()) return OpPattern::Opaque;
    if (is_multiply_accumulate(block.body)) return OpPattern::OutEWiseFusable;
    for (const BufferLoadNode* load : loads) {
      if (!is_pure_reduce(reduce_vars, *load)) return OpPattern::OutEWiseFusable;
    }
    return OpPattern::CommReduce;
  }

  bool writes_param(const BlockNode& block) const {
    return std::any_of(block.writes.begin(), block.writes.end(), [&](const BufferRegion& w) {
      return param_buffers_.count(w->buffer.get()) != 0;
    });
  }

  std::unordered_set<const BufferNode*> param_buffers_;
};

}  // namespace

OpPattern op_pattern_of(const PrimFunc& func) {
  const AttrValue* attr = func->attrs.find("op_pattern");
  if (attr == nullptr) return analyze_op_pattern(func);
  // A PrimFunc computes tensors: "tuple" (and a number that names no pattern) leaves
  // it alone, as opaque.
  if (attr->kind == AttrValue::Kind::Int && attr->i >= 0 &&
      attr->i <= static_cast<int64_t>(OpPattern::OutEWiseFusable)) {
    return static_cast<OpPattern>(attr->i);
  }
  return OpPattern::Opaque;
}

OpPattern analyze_op_pattern(const PrimFunc& func) {
  PatternAnalyzer analyzer(func);
  analyzer.visit(func->body);
  return analyzer.result;
}

}  // namespace relaxc::tir
