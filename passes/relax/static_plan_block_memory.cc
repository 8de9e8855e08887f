// static-plan-block-memory: storage reused by liveness, and freed after its last use.
//
// Algorithm (TVM's StaticPlanBlockMemory idea, on call-tir-rewrite's output). A
// candidate is a tensor `t = R.memory.alloc_tensor(s, 0, ...)` whose storage
// `s = R.memory.alloc_storage(R.shape([bytes]), device, scope, ...)` is bound in the same
// SeqExpr and used nowhere else. Each SeqExpr (the function body, each If branch) is
// planned on its own, innermost first:
//  1. A walk over the bindings in order computes, for every variable, the candidates it
//     may refer to: an alias, a match_cast, R.reshape / R.flatten (views), a tuple and its
//     items, an If's result (both branches' results), a Relax function's result (its
//     arguments, which it may return) all refer to what their operands refer to. A
//     candidate escapes, and is left as it is, when it reaches the function's result or
//     its branch's result, or is passed to R.call_packed, a closure (made or invoked) or
//     an extern function, which may keep it. A PrimFunc call (a kernel) keeps nothing.
//  2. A candidate is live from its storage's binding to the last binding that uses a
//     variable referring to it (a use anywhere inside an If counts at the If).
//  3. Candidates in order of their start share planned storages greedily: a storage
//     whose holders are all dead before the start, of the same device and scope; a
//     constant size (the bytes, or the bound that `tir_var_upper_bound` {"n": 1024} and
//     the arith analyzer derive for a symbolic size) takes the free constant storage of
//     the best fit, else the largest (which grows); an unbounded symbolic size takes a
//     free symbolic storage that the analyzer proves of equal size (shape variables are
//     non-negative), as TVM does: taking a larger one keeps it allocated through the
//     smaller tensor's life, which on the encoder block cost more than it saved. A
//     storage is allocated at its first holder's storage binding (a constant one with
//     the largest size it holds); the later holders' alloc_storage bindings go.
//  4. After the last use of a storage's holders: R.memory.kill_tensor of every tensor
//     variable that refers only to planned holders, this storage's among those that end
//     last (an item of a tuple of known items refers to that item's alone: call_tir's
//     outputs), then R.memory.kill_storage of the storage, so that the VM's registers let
//     go and the storage returns to the pool now. A tuple variable that refers only to
//     planned holders gets R.vm.kill_object after its own last use, since it may hold
//     tensors of storages that end earlier.
// The function gets the attribute "relaxc.memory_plan", lines that `relaxc inspect`
// prints: each storage, its size and tensors, and the peak of the planned storages next
// to the liveness lower bound (live tensor bytes) and the peak without planning (every
// allocation held to the return); symbolic where sizes are.
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/tir_printer.h"
#include "ir/tir/functor.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

using Ids = std::set<int>;  // candidates, by index

struct Candidate {
  Var tensor;
  Var storage;
  const BindingNode* storage_binding = nullptr;
  int owner = 0;                 // the SeqExpr it is planned in
  size_t start = 0;              // its storage binding's position there
  size_t alloc = 0;              // its alloc_tensor binding's position
  size_t end = 0;                // the last use's position
  PrimExpr bytes;                // its exact size
  std::optional<int64_t> bound;  // the constant it is planned at, when there is one
  std::string key;               // device and scope: storages are shared only within one
  bool escapes = false;
};

struct Storage {
  Var var;  // the first holder's storage
  std::vector<int> holders;
  std::optional<int64_t> bound;
  PrimExpr size;  // bound's value, or the first holder's symbolic size
  size_t start = 0, end = 0;
  std::string key;
};

struct SeqPlan {
  std::vector<Binding> bindings;
  std::vector<int> owned;
  std::vector<Storage> storages;
  std::unordered_map<size_t, std::pair<int, int>> branches;  // If binding -> its SeqPlans
};

// The shape variables an expression uses.
class TirVarCollector : public tir::Visitor {
 public:
  std::vector<tir::Var> vars;

 private:
  void visit_node(const tir::VarNode* node) override {
    for (const tir::Var& v : vars) {
      if (v.get() == node) return;
    }
    vars.push_back(tir::Var(node));
  }
};

// tir_var_upper_bound: {"n": 1024, ...}, TVM's spelling.
std::map<std::string, int64_t> upper_bounds(const Function& func, const std::string& name) {
  std::map<std::string, int64_t> out;
  const AttrValue* attr = func->attrs.find("tir_var_upper_bound");
  if (attr == nullptr) return out;
  auto fail = [&]() {
    user_error(func->span) << "function '" << name
                           << "': attribute tir_var_upper_bound must be a dict from shape "
                              "variable names to non-negative integers, e.g. {\"n\": 1024}";
  };
  if (attr->kind != AttrValue::Kind::Dict) fail();
  for (size_t i = 0; i < attr->keys.size(); ++i) {
    const AttrValue& bound = attr->list[i];
    if (bound.kind != AttrValue::Kind::Int || bound.i < 0) fail();
    out[attr->keys[i]] = bound.i;
  }
  return out;
}

// Shape variables are non-negative, and at most their tir_var_upper_bound.
void bind_shape_vars(arith::Analyzer& analyzer, const PrimExpr& e,
                     const std::map<std::string, int64_t>& bounds) {
  TirVarCollector collect;
  collect.visit(e);
  for (const tir::Var& v : collect.vars) {
    auto it = bounds.find(v->name);
    analyzer.bind_bounds(v, 0, it != bounds.end() ? it->second : arith::ConstIntBound::kPosInf);
  }
}

class Planner {
 public:
  Planner(const IRModule& module, const Function& func, const std::string& name)
      : bounds(upper_bounds(func, name)), module_(module) {
    count_uses(func->body);
  }

  // Plans the function body; the results are read through the accessors below.
  int plan(const Function& func) {
    const auto* seq = func->body.as<SeqExprNode>();
    RELAXC_ICHECK(seq != nullptr) << "a normalized function body is a SeqExpr";
    return plan_seq(*seq, /*function_body=*/true);
  }

  std::map<std::string, int64_t> bounds;  // tir_var_upper_bound
  std::vector<Candidate> candidates;
  std::vector<SeqPlan> seqs;
  std::unordered_map<const BindingNode*, Ids> points_to;  // by binding, for kills

 private:
  // How often each variable is used: a candidate's storage is used once, by its
  // alloc_tensor (call-tir-rewrite's pattern); one used elsewhere (a hand-written kill)
  // stays as it is.
  void count_uses(const Expr& e) {
    const auto* seq = e.as<SeqExprNode>();
    if (seq == nullptr) return;
    for (const BindingBlock& block : seq->blocks) {
      for (const Binding& b : block->bindings) {
        for (const Var& v : free_vars(b->value)) ++uses_[v.get()];
        if (const auto* if_node = b->value.as<IfNode>()) {
          count_uses(if_node->true_branch);
          count_uses(if_node->false_branch);
        }
      }
    }
    for (const Var& v : free_vars(seq->body)) ++uses_[v.get()];
  }

  Ids refs(const Expr& e) const {
    Ids out;
    for (const Var& v : free_vars(e)) {
      auto it = refs_.find(v.get());
      if (it != refs_.end()) out.insert(it->second.begin(), it->second.end());
    }
    return out;
  }

  void escape(const Ids& ids) {
    for (int id : ids) candidates[static_cast<size_t>(id)].escapes = true;
  }

  // The storage binding `s = alloc_storage(...)` if `call` allocates a candidate in it.
  const BindingNode* candidate_storage(const CallNode& call, int seq_index) const {
    if (!call.op.same_as(ops::alloc_tensor())) return nullptr;
    const auto* storage = call.args[0].as<VarNode>();
    const int64_t* offset = nullptr;
    if (const auto* p = call.args[1].as<PrimValueNode>()) offset = tir::as_const_int(p->value);
    if (storage == nullptr || offset == nullptr || *offset != 0) return nullptr;
    auto it = storage_bindings_.find(storage);
    auto used = uses_.find(storage);
    if (it == storage_bindings_.end() || it->second.second != seq_index || used == uses_.end() ||
        used->second != 1) {
      return nullptr;
    }
    return it->second.first;
  }

  // What the value of binding `pos` refers to; records escapes and nested plans.
  Ids visit_value(const Binding& b, size_t pos, int seq_index) {
    const Expr& value = b->value;
    if (const auto* item = value.as<TupleGetItemNode>()) {
      // An item of a tuple whose items are known refers to that item's candidates alone.
      auto fields = fields_.find(item->tuple.get());
      if (fields != fields_.end() && item->index >= 0 &&
          static_cast<size_t>(item->index) < fields->second.size()) {
        return fields->second[static_cast<size_t>(item->index)];
      }
      return refs(value);
    }
    if (const auto* tuple = value.as<TupleNode>()) {
      std::vector<Ids>& fields = fields_[b->var.get()];
      for (const Expr& field : tuple->fields) fields.push_back(refs(field));
      return refs(value);
    }
    if (value.is<VarNode>() || value.is<DataflowVarNode>()) {
      auto fields = fields_.find(value.get());
      if (fields != fields_.end()) fields_[b->var.get()] = fields->second;
      return refs(value);
    }
    if (const auto* if_node = value.as<IfNode>()) {
      int t = plan_seq(*if_node->true_branch.as<SeqExprNode>(), false);
      int f = plan_seq(*if_node->false_branch.as<SeqExprNode>(), false);
      seqs[static_cast<size_t>(seq_index)].branches[pos] = {t, f};
      Ids out = refs(if_node->true_branch.as<SeqExprNode>()->body);
      Ids other = refs(if_node->false_branch.as<SeqExprNode>()->body);
      out.insert(other.begin(), other.end());
      return out;
    }
    const auto* call = value.as<CallNode>();
    if (call == nullptr) {
      if (!value.is<FunctionNode>()) return {};
      escape(refs(value));  // a local function (not in VM form) keeps what it captures
      return {};
    }
    Ids args;
    for (const Expr& a : call->args) {
      Ids r = refs(a);
      args.insert(r.begin(), r.end());
    }
    if (call->op.is<OpNode>()) {
      if (call->op.same_as(ops::alloc_storage())) {
        storage_bindings_[b->var.get()] = {b.get(), seq_index};
        return {};
      }
      if (const BindingNode* storage = candidate_storage(*call, seq_index)) {
        return {add_candidate(b, pos, seq_index, *storage)};
      }
      if (call->op.same_as(ops::reshape()) || call->op.same_as(ops::flatten()) ||
          call->op.same_as(ops::kill_tensor()) || call->op.same_as(ops::kill_storage()) ||
          call->op.same_as(ops::shape_of()) || call->op.same_as(ops::alloc_tensor())) {
        return args;
      }
      escape(args);  // call_packed, closures, print, and operators not known to keep nothing
      return args;
    }
    if (const auto* gv = call->op.as<GlobalVarNode>()) {
      Ref<Object> callee = module_->lookup(gv->name);
      if (callee.is<tir::PrimFuncNode>()) return {};  // a kernel writes its outputs, keeps none
      return args;                                    // a Relax function may return its arguments
    }
    Ids callee = refs(call->op);
    args.insert(callee.begin(), callee.end());
    escape(args);  // an extern function or a closure
    return args;
  }

  int add_candidate(const Binding& b, size_t pos, int seq_index, const BindingNode& storage) {
    const auto& alloc = *storage.value.as<CallNode>();
    Candidate c;
    c.tensor = b->var;
    c.storage = storage.var;
    c.storage_binding = &storage;
    c.owner = seq_index;
    c.alloc = c.end = pos;
    c.start = binding_pos_.at(&storage);
    const auto* size = alloc.args[0].as<ShapeExprNode>();
    RELAXC_ICHECK(size != nullptr && size->values.size() == 1)
        << "alloc_storage's size is one dimension of bytes (its inference checks this)";
    c.bytes = size->values[0];
    bind_shape_vars(analyzer_, c.bytes, bounds);
    if (const int64_t* v = tir::as_const_int(c.bytes)) {
      c.bound = *v;
    } else {
      arith::Analyzer analyzer;
      bind_shape_vars(analyzer, c.bytes, bounds);
      int64_t max = analyzer.const_int_bound(c.bytes).max;
      if (max != arith::ConstIntBound::kPosInf) c.bound = max;
    }
    text::PrintContext ctx;
    text::TirPrinter printer(ctx);
    c.key = printer.expr(alloc.args[1].as<PrimValueNode>()->value) + "/" +
            (alloc.args[2].is<StringImmNode>() ? alloc.args[2].as<StringImmNode>()->value : "");
    candidates.push_back(c);
    int id = static_cast<int>(candidates.size()) - 1;
    seqs[static_cast<size_t>(seq_index)].owned.push_back(id);
    return id;
  }

  int plan_seq(const SeqExprNode& seq, bool function_body) {
    int index = static_cast<int>(seqs.size());
    seqs.emplace_back();
    std::vector<Binding> bindings;
    for (const BindingBlock& block : seq.blocks) {
      for (const Binding& b : block->bindings) {
        binding_pos_[b.get()] = bindings.size();
        bindings.push_back(b);
      }
    }
    for (size_t pos = 0; pos < bindings.size(); ++pos) {
      const Binding& b = bindings[pos];
      // Uses first: a binding that uses its own candidates' tensors extends their life.
      for (const Var& v : free_vars(b->value)) {
        auto it = refs_.find(v.get());
        if (it == refs_.end()) continue;
        for (int id : it->second) {
          Candidate& c = candidates[static_cast<size_t>(id)];
          if (c.owner == index) c.end = std::max(c.end, pos);
        }
      }
      Ids ids = visit_value(b, pos, index);
      if (!ids.empty()) {
        refs_[b->var.get()] = ids;
        points_to[b.get()] = ids;
      }
    }
    // What the SeqExpr returns outlives it: the function's result, or its branch's,
    // which the enclosing SeqExpr then holds through the If's variable.
    for (int id : refs(seq.body)) {
      Candidate& c = candidates[static_cast<size_t>(id)];
      if (function_body || c.owner == index) c.escapes = true;
    }
    SeqPlan& plan = seqs[static_cast<size_t>(index)];
    plan.bindings = std::move(bindings);
    assign_storages(plan);
    return index;
  }

  void assign_storages(SeqPlan& plan) {
    std::vector<int> order;
    for (int id : plan.owned) {
      if (!candidates[static_cast<size_t>(id)].escapes) order.push_back(id);
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return candidates[static_cast<size_t>(a)].start < candidates[static_cast<size_t>(b)].start;
    });
    for (int id : order) {
      const Candidate& c = candidates[static_cast<size_t>(id)];
      Storage* chosen = nullptr;
      for (Storage& s : plan.storages) {
        if (s.end >= c.start || s.key != c.key || s.bound.has_value() != c.bound.has_value()) {
          continue;
        }
        if (c.bound) {
          // Best fit: the smallest that holds it; else the largest, which grows.
          bool fits = *s.bound >= *c.bound;
          if (chosen == nullptr) {
            chosen = &s;
          } else if (fits) {
            if (*chosen->bound < *c.bound || *s.bound < *chosen->bound) chosen = &s;
          } else if (*chosen->bound<*c.bound&& * s.bound> * chosen->bound) {
            chosen = &s;
          }
        } else if (analyzer_.can_prove_equal(s.size, c.bytes)) {
          chosen = &s;
          break;
        }
      }
      if (chosen == nullptr) {
        plan.storages.push_back(Storage{c.storage, {}, c.bound, c.bytes, c.start, c.end, c.key});
        chosen = &plan.storages.back();
      }
      chosen->holders.push_back(id);
      chosen->end = std::max(chosen->end, c.end);
      if (c.bound) {
        chosen->bound = std::max(*chosen->bound, *c.bound);
        chosen->size = const_dim(*chosen->bound);
      }
    }
  }

  const IRModule& module_;
  arith::Analyzer analyzer_;
  std::unordered_map<const VarNode*, int> uses_;
  // alloc_storage bindings, with their SeqExpr
  std::unordered_map<const VarNode*, std::pair<const BindingNode*, int>> storage_bindings_;
  std::unordered_map<const BindingNode*, size_t> binding_pos_;
  std::unordered_map<const VarNode*, Ids> refs_;
  // For a variable bound to a tuple (or to a variable that is), each item's candidates.
  std::unordered_map<const Object*, std::vector<Ids>> fields_;
};

// The peaks of one SeqExpr: at each binding, the bytes live there, plus the larger of
// an If's branches' peaks. `live(pos)` gives the bytes live at pos outside branches.
template <typename Live>
PrimExpr seq_peak(const Planner& planner, int seq, const Live& live) {
  const SeqPlan& plan = planner.seqs[static_cast<size_t>(seq)];
  PrimExpr peak = const_dim(0);
  for (size_t pos = 0; pos < plan.bindings.size(); ++pos) {
    PrimExpr here = live(seq, pos);
    auto branch = plan.branches.find(pos);
    if (branch != plan.branches.end()) {
      here = tir::add(here, tir::max(seq_peak(planner, branch->second.first, live),
                                     seq_peak(planner, branch->second.second, live)));
    }
    peak = tir::max(peak, here);
  }
  return peak;
}

std::string expr_text(const PrimExpr& e) {
  text::PrintContext ctx;
  TirVarCollector collect;
  collect.visit(e);
  for (const tir::Var& v : collect.vars) ctx.names.define(v.get(), v->name, "v");
  return text::TirPrinter(ctx).expr(e, text::LiteralStyle::RelaxShape);
}

// The lines of the "relaxc.memory_plan" attribute.
std::vector<AttrValue> plan_report(const Planner& planner) {
  arith::Analyzer analyzer;
  for (const Candidate& c : planner.candidates) bind_shape_vars(analyzer, c.bytes, planner.bounds);
  std::vector<AttrValue> lines;
  int number = 0;
  for (const SeqPlan& seq : planner.seqs) {
    for (const Storage& s : seq.storages) {
      std::string line = "storage " + std::to_string(number++) + ": " +
                         expr_text(analyzer.simplify(s.size)) + " bytes:";
      for (int id : s.holders)
        line += " " + planner.candidates[static_cast<size_t>(id)].tensor->name;
      lines.push_back(AttrValue::string(line));
    }
  }
  auto sum_live = [&](auto&& bytes_at) {
    return [&, bytes_at](int seq, size_t pos) {
      PrimExpr total = const_dim(0);
      for (const PrimExpr& b : bytes_at(seq, pos)) total = tir::add(total, b);
      return total;
    };
  };
  const auto& cands = planner.candidates;
  const auto& seqs = planner.seqs;
  // Escaping tensors keep their own storage from its binding to the end of their SeqExpr.
  auto escaping = [&](int seq, size_t pos, std::vector<PrimExpr>& out) {
    for (int id : seqs[static_cast<size_t>(seq)].owned) {
      const Candidate& c = cands[static_cast<size_t>(id)];
      if (c.escapes && c.start <= pos) out.push_back(c.bytes);
    }
  };
  PrimExpr planned = seq_peak(planner, 0, sum_live([&](int seq, size_t pos) {
                                std::vector<PrimExpr> out;
                                for (const Storage& s : seqs[static_cast<size_t>(seq)].storages) {
                                  if (s.start <= pos && pos <= s.end) out.push_back(s.size);
                                }
                                escaping(seq, pos, out);
                                return out;
                              }));
  PrimExpr lower = seq_peak(planner, 0, sum_live([&](int seq, size_t pos) {
                              std::vector<PrimExpr> out;
                              for (int id : seqs[static_cast<size_t>(seq)].owned) {
                                const Candidate& c = cands[static_cast<size_t>(id)];
                                if (c.alloc <= pos && (c.escapes || pos <= c.end))
                                  out.push_back(c.bytes);
                              }
                              return out;
                            }));
  PrimExpr unplanned = seq_peak(planner, 0, sum_live([&](int seq, size_t pos) {
                                  std::vector<PrimExpr> out;
                                  for (int id : seqs[static_cast<size_t>(seq)].owned) {
                                    const Candidate& c = cands[static_cast<size_t>(id)];
                                    if (c.start <= pos) out.push_back(c.bytes);
                                  }
                                  return out;
                                }));
  lines.push_back(AttrValue::string("peak: " + expr_text(analyzer.simplify(planned)) +
                                    " bytes (live tensors at most " +
                                    expr_text(analyzer.simplify(lower)) + ", without planning " +
                                    expr_text(analyzer.simplify(unplanned)) + ")"));
  return lines;
}

class PlanRewriter : public ExprMutator {
 public:
  PlanRewriter(const IRModule& module, const Planner& planner, std::vector<AttrValue> report)
      : ExprMutator(module), report_(std::move(report)) {
    for (const SeqPlan& seq : planner.seqs) {
      std::unordered_map<int, size_t> storage_of;  // holder -> its storage's index
      for (size_t k = 0; k < seq.storages.size(); ++k) {
        const Storage& s = seq.storages[k];
        const Candidate& first = planner.candidates[static_cast<size_t>(s.holders[0])];
        if (s.bound) resized_[first.storage_binding] = *s.bound;
        for (int id : s.holders) {
          storage_of[id] = k;
          const Candidate& c = planner.candidates[static_cast<size_t>(id)];
          if (id != s.holders[0]) {
            dropped_.insert(c.storage_binding);
            var_remap_[c.storage.get()] = s.var;
          }
        }
      }
      // Every tensor or tuple variable of this SeqExpr that refers only to planned holders
      // dies: a tensor with the last of their storages to end (its own last use is a use
      // of each of them, so no later), a tuple right after its own last use (it may hold
      // tensors of several storages, and would keep the earlier ones from the pool).
      std::unordered_map<const VarNode*, size_t> last_use;
      for (size_t pos = 0; pos < seq.bindings.size(); ++pos) {
        for (const Var& v : free_vars(seq.bindings[pos]->value)) last_use[v.get()] = pos;
      }
      std::vector<std::vector<Var>> kills(seq.storages.size());
      for (size_t pos = 0; pos < seq.bindings.size(); ++pos) {
        const Binding& b = seq.bindings[pos];
        auto it = planner.points_to.find(b.get());
        bool tuple = b->var->struct_info.is<TupleStructInfoNode>();
        if (it == planner.points_to.end() ||
            (!tuple && !b->var->struct_info.is<TensorStructInfoNode>())) {
          continue;
        }
        std::optional<size_t> last;
        for (int id : it->second) {
          auto k = storage_of.find(id);
          if (k == storage_of.end()) {
            last.reset();
            break;
          }
          if (!last || seq.storages[k->second].end >= seq.storages[*last].end) last = k->second;
        }
        if (!last) continue;
        if (tuple) {
          auto used = last_use.find(b->var.get());
          kills_[seq.bindings[used != last_use.end() ? used->second : pos].get()].push_back(b->var);
        } else {
          kills[*last].push_back(b->var);
        }
      }
      for (size_t k = 0; k < seq.storages.size(); ++k) {
        std::vector<Var>& at_end = kills_[seq.bindings[seq.storages[k].end].get()];
        at_end.insert(at_end.end(), kills[k].begin(), kills[k].end());
        at_end.push_back(seq.storages[k].var);
      }
    }
  }

 private:
  Expr visit_node(const FunctionNode* node) override {
    Expr body = visit_scope(node->body, node->params);
    return builder_.function(node->params, body, node->ret_struct_info, node->is_pure,
                             node->attrs.with("relaxc.memory_plan", AttrValue::list_of(report_)),
                             node->span);
  }

  void visit_binding(const Binding& binding) override {
    if (dropped_.count(binding.get()) != 0) return;
    auto resized = resized_.find(binding.get());
    if (resized != resized_.end()) {
      const auto& call = *binding->value.as<CallNode>();
      std::vector<Expr> args = call.args;
      args[0] = make_shape_expr({const_dim(resized->second)}, binding->span);
      builder_.emit_binding(make_var_binding(
          binding->var,
          builder_.call_op("relax.memory.alloc_storage", std::move(args), {}, {}, binding->span),
          binding->span));
    } else {
      ExprMutator::visit_binding(binding);
    }
    auto kills = kills_.find(binding.get());
    if (kills == kills_.end()) return;
    for (const Var& var : kills->second) {
      Expr killed = visit_expr(var);
      const char* op = killed->struct_info.is<TensorStructInfoNode>() ? "relax.memory.kill_tensor"
                       : killed->struct_info.is<TupleStructInfoNode>()
                           ? "relax.vm.kill_object"
                           : "relax.memory.kill_storage";
      builder_.emit(builder_.call_op(op, {killed}, {}, {}, binding->span), "_", VarKind::Var, {},
                    binding->span);
    }
  }

  std::vector<AttrValue> report_;
  std::unordered_map<const BindingNode*, int64_t> resized_;
  std::unordered_set<const BindingNode*> dropped_;
  std::unordered_map<const BindingNode*, std::vector<Var>> kills_;
};

}  // namespace

IRModule static_plan_block_memory(const IRModule& module) {
  return map_relax_functions(module, [&](const Function& func) -> Expr {
    std::string name;  // for errors
    for (const auto& [gv, f] : module->functions) {
      if (f.get() == func.get()) name = gv->name;
    }
    Planner planner(module, func, name);
    planner.plan(func);
    PlanRewriter rewriter(module, planner, plan_report(planner));
    return rewriter.visit_expr(func);
  });
}

}  // namespace relaxc::relax
