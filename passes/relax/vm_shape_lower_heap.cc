// The shape heap plan of vm-shape-lower and its host functions (vm_shape_lower_heap.h).
#include "passes/relax/vm_shape_lower_heap.h"

#include <algorithm>

#include "ir/relax/expr_visitor.h"
#include "ir/structural_equal.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"

namespace relaxc::relax {

namespace {

const DataType kInt64 = DataType::Int(64);

// The shape variables of `e`, each once, in order of first appearance.
std::vector<const tir::VarNode*> vars_of(const PrimExpr& e) {
  std::vector<const tir::VarNode*> vars;
  tir::post_order_visit(e, [&](const Ref<Object>& node) {
    const auto* v = node.as<tir::VarNode>();
    if (v != nullptr && std::find(vars.begin(), vars.end(), v) == vars.end()) vars.push_back(v);
  });
  return vars;
}

// The same expression over the same variables (structural_equal alone would equate
// n * 2 and m * 2, matching their free variables to each other).
bool same_expr(const PrimExpr& a, const PrimExpr& b) {
  return a.same_as(b) || (structural_equal(a, b) && vars_of(a) == vars_of(b));
}

// Collects the slots of a function in program order. StructInfo annotations
// (sinfo_args, variables' StructInfo) are static: nothing in them is needed at run time.
class HeapPlanner final : public ExprVisitor {
 public:
  explicit HeapPlanner(HeapPlan& plan) : plan_(plan) {}

  void visit_binding(const Binding& binding) override {
    if (const auto* cast = binding.as<MatchCastNode>()) {
      visit_expr(cast->value);
      plan_.need_pattern(cast->struct_info);
      return;
    }
    ExprVisitor::visit_binding(binding);
  }

 protected:
  void visit_node(const ShapeExprNode* node) override {
    bool symbolic = false;
    for (const PrimExpr& dim : node->values) symbolic = symbolic || !vars_of(dim).empty();
    if (!symbolic) return;
    for (const PrimExpr& dim : node->values) plan_.need(dim);
  }

  void visit_node(const PrimValueNode* node) override {
    if (!vars_of(node->value).empty()) plan_.need(node->value);
  }

#define RELAXC_SKIP_STRUCT_INFO(Kind, Type) \
  void visit_node(const Type*) override {}
  RELAXC_STRUCT_INFO_NODES(RELAXC_SKIP_STRUCT_INFO)
#undef RELAXC_SKIP_STRUCT_INFO

 private:
  HeapPlan& plan_;
};

// Heap indices and the heap's extent are written as plain integers (int32), as the text
// format reads `H[2]` and `T.Buffer((6,), "int64")`.
PrimExpr slot_index(int64_t slot) { return tir::int_imm(DataType::Int(32), slot); }

// `e` over the heap: variables become loads of their slots, integers int64.
class HeapExprBuilder {
 public:
  HeapExprBuilder(const tir::Buffer& heap, const HeapPlan& plan, const std::string& caller)
      : heap_(heap), plan_(plan), caller_(caller) {}

  PrimExpr build(const PrimExpr& e) {
    PrimExpr value = rewrite(e, e);
    // A condition is stored as 1 or 0.
    if (value->dtype.is_bool()) {
      value = tir::select(value, tir::int_imm(kInt64, 1), tir::int_imm(kInt64, 0));
    }
    return value;
  }

 private:
  PrimExpr rewrite(const PrimExpr& e, const PrimExpr& whole) {
    const DataType& dtype = e->dtype;
    if (const int64_t* imm = tir::as_const_int(e)) {
      return dtype.is_bool() ? tir::bool_imm(*imm != 0) : tir::int_imm(kInt64, *imm);
    }
    if (const auto* v = e.as<tir::VarNode>()) {
      PrimExpr load = tir::buffer_load(heap_, {slot_index(plan_.var_slot(v))});
      return v->dtype.is_bool() ? tir::ne(load, tir::int_imm(kInt64, 0)) : load;
    }
    if (const auto* cast = e.as<tir::CastNode>()) {
      // Every integer lives in the heap as int64: integer casts are no-ops there.
      const DataType& from = cast->value->dtype;
      if (dtype.is_integer() && !dtype.is_bool() && from.is_integer() && !from.is_bool()) {
        return rewrite(cast->value, whole);
      }
      unsupported(whole);
    }
    if (const auto* n = e.as<tir::NotNode>()) return tir::logical_not(rewrite(n->a, whole));
    if (const auto* s = e.as<tir::SelectNode>()) {
      return tir::select(rewrite(s->condition, whole), rewrite(s->true_value, whole),
                         rewrite(s->false_value, whole));
    }
    switch (e->kind()) {
#define RELAXC_HEAP_BINARY(K)                                                    \
  case NodeKind::K: {                                                            \
    const auto* b = static_cast<const tir::BinaryNode<NodeKind::K>*>(e.get());   \
    return tir::binary(NodeKind::K, rewrite(b->a, whole), rewrite(b->b, whole)); \
  }
      RELAXC_HEAP_BINARY(TirAdd)
      RELAXC_HEAP_BINARY(TirSub)
      RELAXC_HEAP_BINARY(TirMul)
      RELAXC_HEAP_BINARY(TirDiv)
      RELAXC_HEAP_BINARY(TirMod)
      RELAXC_HEAP_BINARY(TirFloorDiv)
      RELAXC_HEAP_BINARY(TirFloorMod)
      RELAXC_HEAP_BINARY(TirMin)
      RELAXC_HEAP_BINARY(TirMax)
      RELAXC_HEAP_BINARY(TirEQ)
      RELAXC_HEAP_BINARY(TirNE)
      RELAXC_HEAP_BINARY(TirLT)
      RELAXC_HEAP_BINARY(TirLE)
      RELAXC_HEAP_BINARY(TirGT)
      RELAXC_HEAP_BINARY(TirGE)
      RELAXC_HEAP_BINARY(TirAnd)
      RELAXC_HEAP_BINARY(TirOr)
#undef RELAXC_HEAP_BINARY
      default:
        unsupported(whole);
    }
  }

  [[noreturn]] void unsupported(const PrimExpr& whole) {
    user_error(whole->span) << "vm-shape-lower: function '" << caller_
                            << "': the shape expression '" << text::print_node(whole)
                            << "' cannot be computed on the host; only integer arithmetic, "
                               "comparisons and select on shape variables can";
  }

  const tir::Buffer& heap_;
  const HeapPlan& plan_;
  const std::string& caller_;
};

}  // namespace

void HeapPlan::need(const PrimExpr& e) {
  if (tir::as_const_int(e) != nullptr) return;
  std::vector<const tir::VarNode*> vars = vars_of(e);
  for (const tir::VarNode* v : vars) {
    if (var_slots_.emplace(v, size_).second) {
      vars_.emplace_back(v);
      ++size_;
    }
  }
  if (e.is<tir::VarNode>()) return;
  for (const Compound& c : compounds_) {
    if (same_expr(c.expr, e)) return;
  }
  compounds_.push_back({e, size_++, std::move(vars)});
}

void HeapPlan::need_pattern(const StructInfo& sinfo) {
  auto need_all = [&](const std::vector<PrimExpr>& dims) {
    has_pattern_dims_ = true;
    for (const PrimExpr& d : dims) need(d);
  };
  if (const auto* p = sinfo.as<PrimStructInfoNode>()) {
    if (p->value.defined()) need_all({p->value});
  } else if (const auto* s = sinfo.as<ShapeStructInfoNode>()) {
    if (s->values) need_all(*s->values);
  } else if (const auto* t = sinfo.as<TensorStructInfoNode>()) {
    if (const std::vector<PrimExpr>* dims = t->shape_values()) need_all(*dims);
  } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    for (const StructInfo& field : tuple->fields) need_pattern(field);
  }
}

int64_t HeapPlan::var_slot(const tir::VarNode* var) const {
  auto it = var_slots_.find(var);
  RELAXC_ICHECK(it != var_slots_.end()) << "vm-shape-lower: no heap slot for " << var->name;
  return it->second;
}

int64_t HeapPlan::compound_slot(const PrimExpr& e) const {
  for (const Compound& c : compounds_) {
    if (same_expr(c.expr, e)) return c.slot;
  }
  RELAXC_UNREACHABLE() << "vm-shape-lower: no heap slot for " << text::print_node(e);
}

HeapPlan plan_shape_heap(const Function& func) {
  HeapPlan plan;
  for (const Var& param : func->params) plan.need_pattern(param->struct_info);
  HeapPlanner planner(plan);
  planner.visit_expr(func->body);
  if (func->ret_struct_info.defined()) plan.need_pattern(func->ret_struct_info);
  return plan;
}

tir::PrimFunc make_host_func(const std::vector<const HeapPlan::Compound*>& compounds,
                             const HeapPlan& plan, const std::string& caller) {
  tir::Buffer heap = tir::buffer("H", kInt64, {slot_index(plan.size())});
  HeapExprBuilder builder(heap, plan, caller);
  std::vector<tir::Stmt> stores;
  for (const HeapPlan::Compound* c : compounds) {
    stores.push_back(tir::buffer_store(heap, builder.build(c->expr), {slot_index(c->slot)}));
  }
  auto* func = make_node<tir::PrimFuncNode>();
  tir::PrimFunc owner(func);
  tir::Var param = tir::var("H", DataType::Handle());
  func->params = {param};
  func->buffer_map = {{param, heap}};
  func->body = tir::seq_stmt(std::move(stores));
  func->attrs = Attrs({{"tir.is_host_func", AttrValue::boolean(true)}});
  return owner;
}

}  // namespace relaxc::relax
