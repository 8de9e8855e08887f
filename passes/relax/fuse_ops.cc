// fuse-ops: groups of bindings of a dataflow block become private Relax functions marked
// "Primitive", called where the group's last value was (TVM's FuseOps). fuse-tir then
// turns each into one PrimFunc.
//
// Algorithm, per dataflow block of each Relax function (not of Primitive ones):
// 1. A graph of the bindings: a node per binding and per value from outside the block
//    (parameters, earlier blocks, constants), edges from each value to the bindings that
//    use it, in binding order (which is a topological order). A call_tir of a PrimFunc
//    has the PrimFunc's pattern (tir::op_pattern_of: its "op_pattern" or its blocks) and
//    edges from its tensor arguments (a broadcast's edge from an input of its output's
//    shape is elementwise); a TupleGetItem is elementwise; everything else
//    (operators, tuples, match_cast, other calls) is opaque and never fused. A binding
//    to a Var (not a DataflowVar) is used after the block: nothing fuses through it.
// 2. Its post-dominator tree: a node's parent is the nearest node that every path from
//    it to the block's end passes, found as the least common ancestor of its users in
//    the tree (built users first); with it the strongest pattern on the way there.
// 3. Union-find groups, grown in two phases over the nodes in order, each node trying
//    to join the group of its post-dominator when every node on the paths between is
//    of the right kind:
//    phase 0: an out-elementwise-fusable node (matmul, conv) takes an epilogue whose
//      paths are elementwise or broadcast; an elementwise or broadcast node joins an
//      injective, reduction or out-elementwise-fusable consumer through injective paths;
//    phase 1: the same for elementwise/broadcast nodes, and injective nodes (after the
//      anchors have their epilogues) join consumers through injective paths. Unlike
//      TVM, an injective chain may also end in a reduction (the reduction takes its
//      injective inputs).
//    A group holds at most kMaxFusedOps nodes and binds at most kMaxFusedBuffers
//    buffers (inputs and outputs), so that a fused kernel never needs more storage
//    buffers than small Vulkan devices give a shader.
// 4. Each group of two or more bindings becomes a function "fused_<PrimFunc names>"
//    (structurally equal ones shared): its parameters are the values it uses from
//    outside (constants too), plus a shape parameter with the shape variables its body
//    uses that no parameter defines. A group has one exit (its last binding, where
//    the call goes): every path from a member leads through the post-dominator the
//    group grew into, and the nodes on those paths joined it.
#include <algorithm>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_mutator.h"
#include "ir/relax/expr_visitor.h"
#include "ir/relax/op_handles.h"
#include "ir/tir/op_pattern.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

using tir::OpPattern;

constexpr size_t kMaxFusedOps = 256;  // TVM's default max_depth
constexpr size_t kMaxFusedBuffers = 16;

// ---------------------------------------------------------------- The graph

struct Edge {
  int node;
  OpPattern pattern;
};

struct GraphNode {
  int binding = -1;  // its binding's index in the block; -1: a value from outside
  OpPattern pattern = OpPattern::Opaque;
  bool used_after_block = false;
  std::vector<Edge> outputs;
};

// The PrimFunc a call_tir calls, or null.
tir::PrimFunc called_prim_func(const IRModule& module, const CallNode& call) {
  if (!call.op.same_as(ops::call_tir()) || call.args.empty()) return {};
  const auto* gv = call.args[0].as<GlobalVarNode>();
  return gv != nullptr ? module->prim_func(gv->name) : tir::PrimFunc();
}

class BlockGraph {
 public:
  BlockGraph(const IRModule& module, const BindingBlockNode& block) {
    for (size_t i = 0; i < block.bindings.size(); ++i) add_binding(module, block.bindings[i], i);
  }

  std::vector<GraphNode> nodes;
  std::vector<int> node_of_binding;

 private:
  void add_binding(const IRModule& module, const Binding& binding, size_t index) {
    OpPattern pattern = OpPattern::Opaque;
    std::vector<Expr> inputs;
    const auto* call = binding->value.as<CallNode>();
    tir::PrimFunc callee = call != nullptr && binding.is<VarBindingNode>()
                               ? called_prim_func(module, *call)
                               : tir::PrimFunc();
    const auto* item = binding->value.as<TupleGetItemNode>();
    if (callee.defined()) {
      pattern = tir::op_pattern_of(callee);
      if (call->args.size() > 1) tensor_inputs(call->args[1], inputs);
    } else if (item != nullptr && binding.is<VarBindingNode>()) {
      // A field of a tuple of tensors, each element read at its own index (TVM says
      // injective: then a batch_norm, which returns a tuple, could not take its relu).
      pattern = OpPattern::ElemWise;
      tensor_inputs(item->tuple, inputs);
    } else {
      post_order_visit(binding->value, [&](const Expr& e) {
        if (e.is<VarNode>() || e.is<ConstantNode>()) inputs.push_back(e);
      });
    }
    std::vector<int> input_nodes;
    for (const Expr& input : inputs) input_nodes.push_back(value_node(input));
    int node = static_cast<int>(nodes.size());
    nodes.push_back({static_cast<int>(index), pattern, !binding->var.is<DataflowVarNode>(), {}});
    node_of_binding.push_back(node);
    node_of_[binding->var.get()] = node;
    for (size_t i = 0; i < inputs.size(); ++i) {
      // A broadcast reads an input of the output's own shape elementwise (TVM's Relay
      // did the same; its Relax re-analyses such a PrimFunc as elementwise): so a conv
      // or matmul takes a bias add as its epilogue.
      OpPattern edge = pattern;
      if (pattern == OpPattern::Broadcast && has_output_of_shape(binding->var, inputs[i])) {
        edge = OpPattern::ElemWise;
      }
      nodes[input_nodes[i]].outputs.push_back({node, edge});
    }
  }

  // Whether `result` is, or is a tuple with, a tensor of the shape of `input`.
  static bool has_output_of_shape(const Expr& result, const Expr& input) {
    if (const auto* tuple = result->struct_info.as<TupleStructInfoNode>()) {
      return std::any_of(tuple->fields.begin(), tuple->fields.end(),
                         [&](const StructInfo& f) { return same_shape(f, input->struct_info); });
    }
    return same_shape(result->struct_info, input->struct_info);
  }

  static bool same_shape(const StructInfo& a, const StructInfo& b) {
    const auto* ta = a.as<TensorStructInfoNode>();
    const auto* tb = b.as<TensorStructInfoNode>();
    if (ta == nullptr || tb == nullptr) return false;
    const std::vector<PrimExpr>* da = ta->shape_values();
    const std::vector<PrimExpr>* db = tb->shape_values();
    if (da == nullptr || db == nullptr || da->size() != db->size()) return false;
    for (size_t i = 0; i < da->size(); ++i) {
      const int64_t* ca = tir::as_const_int((*da)[i]);
      const int64_t* cb = tir::as_const_int((*db)[i]);
      bool equal = (*da)[i].same_as((*db)[i]) || (ca != nullptr && cb != nullptr && *ca == *cb);
      if (!equal) return false;
    }
    return true;
  }

  static void tensor_inputs(const Expr& arg, std::vector<Expr>& inputs) {
    if (const auto* tuple = arg.as<TupleNode>()) {
      for (const Expr& field : tuple->fields) tensor_inputs(field, inputs);
    } else if (arg.is<VarNode>() || arg.is<ConstantNode>()) {
      inputs.push_back(arg);
    }
  }

  // The node of a variable bound in the block, or a new one for an outside value.
  int value_node(const Expr& value) {
    auto [it, added] = node_of_.emplace(value.get(), static_cast<int>(nodes.size()));
    if (added) nodes.push_back({-1, OpPattern::Opaque, true, {}});
    return it->second;
  }

  std::unordered_map<const ExprNode*, int> node_of_;
};

// ---------------------------------------------------------------- Post-dominators

struct DomNode {
  int parent = -1;
  int depth = 1;
  OpPattern pattern = OpPattern::Opaque;  // the strongest on the way to parent
};

std::vector<DomNode> post_dominator_tree(const std::vector<GraphNode>& nodes) {
  std::vector<DomNode> tree(nodes.size());
  auto lca = [&](int a, int b, OpPattern& pattern) {
    while (a != b) {
      if (a < 0 || b < 0) return -1;
      int da = tree[a].depth, db = tree[b].depth;
      if (da <= db) {
        pattern = std::max(pattern, tree[b].pattern);
        b = tree[b].parent;
      }
      if (db <= da) {
        pattern = std::max(pattern, tree[a].pattern);
        a = tree[a].parent;
      }
    }
    return a;
  };
  for (size_t i = nodes.size(); i-- > 0;) {
    const GraphNode& node = nodes[i];
    if (node.used_after_block || node.outputs.empty()) continue;
    OpPattern pattern = OpPattern::ElemWise;
    int parent = node.outputs[0].node;
    for (const Edge& edge : node.outputs) {
      parent = lca(parent, edge.node, pattern);
      pattern = std::max(pattern, edge.pattern);
    }
    tree[i] = {parent, parent < 0 ? 1 : tree[parent].depth + 1, pattern};
  }
  return tree;
}

// ---------------------------------------------------------------- Partition

class Partitioner {
 public:
  explicit Partitioner(const std::vector<GraphNode>& nodes) : nodes_(nodes) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      groups_.push_back({-1,
                         nodes[i].pattern,
                         nodes[i].pattern == OpPattern::OutEWiseFusable,
                         {static_cast<int>(i)}});
    }
    tree_ = post_dominator_tree(nodes);
    for (int phase = 0; phase < 2; ++phase) run_phase(phase);
  }

  int root(int node) {
    while (groups_[node].parent >= 0) node = groups_[node].parent;
    return node;
  }

 private:
  struct Group {
    int parent;  // union-find link; -1 for a root
    OpPattern pattern;
    bool has_anchor;           // holds an out-elementwise-fusable node
    std::vector<int> members;  // of a root
  };

  void run_phase(int phase) {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      int node = static_cast<int>(i);
      OpPattern pattern = groups_[node].pattern;
      int sink = tree_[node].parent;
      if (pattern == OpPattern::Opaque || sink < 0 || root(node) == root(sink)) continue;
      OpPattern dom = tree_[node].pattern;
      std::function<bool(OpPattern, bool)> allowed;
      if (pattern == OpPattern::OutEWiseFusable) {
        if (phase != 0 || dom != OpPattern::ElemWise) continue;
        allowed = [](OpPattern k, bool) { return k <= OpPattern::Broadcast; };
      } else if (pattern <= OpPattern::Broadcast) {
        if (dom > OpPattern::Injective && dom != OpPattern::CommReduce) continue;
        allowed = [](OpPattern k, bool is_sink) {
          return k <= OpPattern::Injective ||
                 (is_sink && (k == OpPattern::CommReduce || k == OpPattern::OutEWiseFusable));
        };
      } else if (pattern == OpPattern::Injective) {
        if (phase != 1) continue;
        allowed = [](OpPattern k, bool is_sink) {
          return k <= OpPattern::Injective || (is_sink && k == OpPattern::CommReduce);
        };
      } else {
        continue;  // a reduction keeps its consumers out
      }
      std::vector<int> path = path_to(node, sink);
      bool ok = std::all_of(path.begin(), path.end(),
                            [&](int n) { return allowed(groups_[root(n)].pattern, n == sink); });
      if (ok && within_bounds(node, path, sink)) {
        merge(node, sink);
        for (int n : path) {
          if (n != sink) merge(n, sink);
        }
      }
    }
  }

  // The nodes on the paths from `src` (excluded) to `sink` (included).
  std::vector<int> path_to(int src, int sink) {
    std::vector<int> path;
    std::unordered_set<int> seen;
    std::vector<int> stack;
    for (const Edge& e : nodes_[src].outputs) stack.push_back(e.node);
    while (!stack.empty()) {
      int n = stack.back();
      stack.pop_back();
      if (!seen.insert(n).second) continue;
      path.push_back(n);
      if (n == sink) continue;
      for (const Edge& e : nodes_[n].outputs) stack.push_back(e.node);
    }
    return path;
  }

  // Whether the group that fusing src and `path` into sink's group makes keeps within
  // kMaxFusedOps nodes and kMaxFusedBuffers buffers.
  bool within_bounds(int src, const std::vector<int>& path, int sink) {
    std::unordered_set<int> roots = {root(sink), root(src)};
    for (int n : path) roots.insert(root(n));
    std::unordered_set<int> members;
    for (int r : roots) members.insert(groups_[r].members.begin(), groups_[r].members.end());
    if (members.size() > kMaxFusedOps) return false;
    std::unordered_set<int> inputs;
    size_t outputs = 0;
    for (size_t i = 0; i < nodes_.size(); ++i) {
      bool inside = members.count(static_cast<int>(i)) != 0;
      bool escapes = inside && nodes_[i].used_after_block;
      for (const Edge& e : nodes_[i].outputs) {
        bool to_inside = members.count(e.node) != 0;
        if (!inside && to_inside) inputs.insert(static_cast<int>(i));
        if (inside && !to_inside) escapes = true;
      }
      if (escapes) ++outputs;
    }
    return inputs.size() + outputs <= kMaxFusedBuffers;
  }

  void merge(int child, int parent) {
    child = root(child);
    parent = root(parent);
    if (child == parent) return;
    Group& c = groups_[child];
    Group& p = groups_[parent];
    c.parent = parent;
    p.members.insert(p.members.end(), c.members.begin(), c.members.end());
    c.members.clear();
    if (c.has_anchor) {
      p.has_anchor = true;
      p.pattern = std::max(p.pattern, c.pattern);
    }
  }

  const std::vector<GraphNode>& nodes_;
  std::vector<DomNode> tree_;
  std::vector<Group> groups_;
};

// ---------------------------------------------------------------- Grouped functions

// Builds the function of one group: `inputs` (outside values: variables and constants)
// become `params`, the bindings are re-emitted in one dataflow block and the last one's
// value is returned.
class GroupFunctionBuilder : public ExprMutator {
 public:
  explicit GroupFunctionBuilder(const IRModule& module) : ExprMutator(module) {}

  Function build(const std::vector<Expr>& inputs, const std::vector<Var>& params,
                 const std::vector<Binding>& bindings) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (const auto* v = inputs[i].as<VarNode>()) {
        var_remap_[v] = params[i];
      } else {
        constants_[inputs[i].get()] = params[i];
      }
    }
    builder_.begin_scope(params);
    builder_.begin_block(true);
    for (size_t i = 0; i + 1 < bindings.size(); ++i) visit_binding(bindings[i]);
    const Binding& last = bindings.back();
    Var result = builder_.emit(visit_expr(last->value), last->var->name, VarKind::Var);
    builder_.end_block();
    Expr seq = builder_.end_scope(result);
    return builder_.function(params, seq, {}, true,
                             Attrs({{"Primitive", AttrValue::boolean(true)}}));
  }

 protected:
  Expr visit_node(const ConstantNode* node) override {
    auto it = constants_.find(node);
    return it != constants_.end() ? Expr(it->second) : Expr(node);
  }

 private:
  std::unordered_map<const ExprNode*, Var> constants_;
};

class Fuser : public ExprMutator {
 public:
  explicit Fuser(const IRModule& module) : ExprMutator(module), added(module), module_(module) {}

  AddedFunctions added;  // the grouped functions

 protected:
  void visit_block(const BindingBlock& block) override {
    if (!block->is_dataflow()) {
      ExprMutator::visit_block(block);
      return;
    }
    BlockGraph graph(module_, *block);
    Partitioner partition(graph.nodes);
    const std::vector<Binding>& bindings = block->bindings;

    // A group is convex with one exit, its last binding: every path from a member
    // leads through the post-dominator it grew into, and every node on those paths
    // joined it. So no binding outside uses another member, and the group's call can
    // stand where its last binding was.
    std::unordered_map<int, std::vector<size_t>> members;  // by the group's root node
    std::vector<int> group_of(bindings.size());
    std::unordered_map<const VarNode*, size_t> binding_of;
    for (size_t i = 0; i < bindings.size(); ++i) {
      group_of[i] = partition.root(graph.node_of_binding[i]);
      members[group_of[i]].push_back(i);
      binding_of[bindings[i]->var.get()] = i;
    }
    std::unordered_set<int> used_outside;  // groups whose value a later binding uses
    for (size_t i = 0; i < bindings.size(); ++i) {
      for (const Var& used : free_vars(bindings[i]->value)) {
        auto it = binding_of.find(used.get());
        if (it == binding_of.end() || group_of[it->second] == group_of[i]) continue;
        RELAXC_ICHECK(members[group_of[it->second]].back() == it->second)
            << "fuse-ops: '" << used->name << "' leaves its group before the group's end";
        used_outside.insert(group_of[it->second]);
      }
    }

    builder_.begin_block(true);
    for (size_t i = 0; i < bindings.size(); ++i) {
      const std::vector<size_t>& list = members[group_of[i]];
      const Var& exit = bindings[list.back()]->var;
      // A group whose value nothing uses is left as it is (dead-code-elimination's).
      bool used = !exit.is<DataflowVarNode>() || used_outside.count(group_of[i]) != 0;
      if (list.size() == 1 || !used) {
        visit_binding(bindings[i]);
      } else if (i == list.back()) {
        emit_group(bindings, list);
      }
    }
    builder_.end_block();
  }

 private:
  void emit_group(const std::vector<Binding>& bindings, const std::vector<size_t>& list) {
    std::vector<Binding> group;
    std::unordered_set<const VarNode*> defined;
    std::vector<Expr> inputs;  // the outside values, in order of first use
    std::unordered_set<const ExprNode*> seen;
    std::string name = "fused";
    for (size_t i : list) {
      const Binding& b = bindings[i];
      group.push_back(b);
      if (const auto* call = b->value.as<CallNode>()) {
        name += "_" + call->args[0].as<GlobalVarNode>()->name;
      }
      post_order_visit(b->value, [&](const Expr& e) {
        bool outside =
            e.is<ConstantNode>() || (e.is<VarNode>() && defined.count(e.as<VarNode>()) == 0);
        if (outside && seen.insert(e.get()).second) inputs.push_back(e);
      });
      defined.insert(b->var.get());
    }
    std::vector<Var> params;
    std::vector<Expr> args;
    int constants = 0;
    for (const Expr& input : inputs) {
      const auto* var = input.as<VarNode>();
      params.push_back(make_var(var != nullptr ? var->name : "param_" + std::to_string(constants++),
                                input->struct_info));
      args.push_back(visit_expr(input));
    }
    const Var& exit = group.back()->var;
    Function func = GroupFunctionBuilder(module_).build(inputs, params, group);
    // Shape variables the body uses that no parameter defines travel as a shape.
    std::vector<tir::Var> symbolic = free_symbolic_vars(Expr(func));
    if (!symbolic.empty()) {
      std::vector<PrimExpr> dims(symbolic.begin(), symbolic.end());
      params.push_back(make_var("tir_vars", shape_sinfo(dims)));
      args.push_back(make_shape_expr(dims));
      func = GroupFunctionBuilder(module_).build(inputs, params, group);
    }

    GlobalVar gv = added.add(name, func);
    builder_.declare_global(gv, func->struct_info);
    Expr call = builder_.call(gv, std::move(args), {}, {}, group.back()->span);
    VarKind kind = exit.is<DataflowVarNode>() ? VarKind::DataflowVar : VarKind::Var;
    var_remap_[exit.get()] = builder_.emit(call, exit->name, kind);
  }

  IRModule module_;
};

}  // namespace

bool is_primitive(const FunctionNode& func) {
  const AttrValue* attr = func.attrs.find("Primitive");
  return attr != nullptr && ((attr->kind == AttrValue::Kind::Bool && attr->b) ||
                             (attr->kind == AttrValue::Kind::Int && attr->i != 0));
}

IRModule fuse_ops(const IRModule& module) {
  Fuser fuser(module);
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    const auto* relax_func = func.as<FunctionNode>();
    if (relax_func != nullptr && !is_primitive(*relax_func)) {
      functions.emplace_back(gv, fuser.visit_expr(Function(relax_func)));
    } else {
      functions.emplace_back(gv, func);
    }
  }
  for (auto& entry : fuser.added.functions) functions.push_back(std::move(entry));
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc::relax
