// fuse-tir: each Primitive Relax function that fuse-ops made becomes one PrimFunc, and
// its calls become R.call_tir of it (TVM's FuseTIR).
//
// Algorithm, per Primitive function F (a dataflow block of call_tir and TupleGetItem
// bindings returning its last value):
// 1. F's symbolic variables get fresh TensorIR variables. Each tensor parameter of F
//    becomes a buffer parameter (a tuple parameter one per field), shaped by its
//    StructInfo; the variables of F's shape parameter (fuse-ops' tir_vars) become
//    scalar parameters; the returned value's tensors become the output parameters. So
//    an input that several callees read is one parameter.
// 2. Each call_tir, in order: the callee's buffer parameters are mapped to the buffers
//    of its arguments and to new intermediates (root alloc_buffers shaped by its
//    out_sinfo) or to the outputs; its shape variables are unified with the dims of the
//    buffers they bind and its scalar parameters with its tir_vars; its body is copied
//    with those substitutions and fresh variables, buffers and (unique) block names,
//    and appended to the root block, its own root allocations joining the root's.
// 3. The fused PrimFunc is named as F, marked with the largest op_pattern of its
//    callees; F's calls become R.call_tir(fused, tensor arguments, out_sinfo, tir_vars)
//    and F itself, with the PrimFuncs only it called, leaves the module.
// Until a schedule inlines them, the blocks run as separate kernels with global
// intermediates: results are those of the unfused calls.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "ir/support/diagnostics.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "ir/tir/op_pattern.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

using tir::Buffer;
using tir::OpPattern;

// The tensors of a value's StructInfo: itself, or the fields of a tuple of tensors.
std::vector<const TensorStructInfoNode*> tensors_of(const StructInfo& sinfo) {
  if (const auto* t = sinfo.as<TensorStructInfoNode>()) return {t};
  std::vector<const TensorStructInfoNode*> fields;
  if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    for (const StructInfo& f : tuple->fields) {
      const auto* t = f.as<TensorStructInfoNode>();
      if (t == nullptr) return {};
      fields.push_back(t);
    }
  }
  return fields;
}

// A copy of a callee's body with its variables and buffers replaced, every variable it
// binds fresh (a callee called twice binds each of its variables twice) and each block
// name unique in the fused function.
class BodyCopier : public tir::Mutator {
 public:
  BodyCopier(tir::VarMap vars, std::unordered_map<const tir::BufferNode*, Buffer> buffers,
             std::unordered_set<std::string>& block_names,
             std::unordered_set<std::string>& buffer_names)
      : vars_(std::move(vars)),
        buffers_(std::move(buffers)),
        block_names_(block_names),
        buffer_names_(buffer_names) {}

 protected:
  tir::PrimExpr mutate_node(const tir::VarNode* node) override {
    auto it = vars_.find(tir::Var(node));
    return it != vars_.end() ? it->second : tir::PrimExpr(node);
  }

  tir::Var mutate_var_def(const tir::Var& var) override {
    auto it = vars_.find(var);
    if (it != vars_.end()) return it->second.cast<tir::VarNode>();
    tir::Var fresh(copy_node(*var.get()));
    vars_.emplace(var, fresh);
    return fresh;
  }

  Ref<tir::BufferNode> mutate_node(const tir::BufferNode* node) override {
    auto it = buffers_.find(node);
    if (it != buffers_.end()) return it->second;
    Buffer copy = tir::Mutator::mutate_node(node);
    std::string name = unique(buffer_names_, copy->name);
    if (name == copy->name) return copy;
    auto* renamed = copy_node(*copy.get());
    renamed->name = name;
    return Buffer(renamed);
  }

  tir::Stmt mutate_node(const tir::BlockNode* node) override {
    tir::Stmt copy = tir::Mutator::mutate_node(node);
    const auto* block = copy.as<tir::BlockNode>();
    std::string name = unique(block_names_, block->name);
    if (name == block->name) return copy;
    auto* renamed = copy_node(*block);
    renamed->name = name;
    return tir::Stmt(renamed);
  }

 private:
  static std::string unique(std::unordered_set<std::string>& used, const std::string& base) {
    std::string name = base;
    for (int i = 1; !used.insert(name).second; ++i) name = base + "_" + std::to_string(i);
    return name;
  }

  tir::VarMap vars_;
  std::unordered_map<const tir::BufferNode*, Buffer> buffers_;
  std::unordered_set<std::string>& block_names_;
  std::unordered_set<std::string>& buffer_names_;
};

// The fused PrimFunc of one Primitive function, and how its calls pass arguments.
struct Fused {
  tir::PrimFunc func;
  std::vector<bool> param_is_tuple;  // per Relax parameter but the shape one
  bool has_shape_param = false;
};

class TirFuser {
 public:
  TirFuser(const IRModule& module, const std::string& name, const Function& func)
      : module_(module), name_(name), func_(func) {}

  Fused run() {
    Fused fused;
    auto* prim = make_node<tir::PrimFuncNode>();
    prim_ = prim;
    std::vector<tir::Var> scalars;
    for (const Var& param : func_->params) {
      if (const auto* shape = param->struct_info.as<ShapeStructInfoNode>()) {
        // fuse-ops' shape parameter: the variables no buffer dimension binds.
        if (!shape->values) refuse("its shape parameter '" + param->name + "' has no known values");
        for (const PrimExpr& v : *shape->values) {
          scalars.push_back(fresh_var(v.cast<tir::VarNode>()));
        }
        fused.has_shape_param = true;
        continue;
      }
      std::vector<const TensorStructInfoNode*> tensors = tensors_of(param->struct_info);
      if (tensors.empty()) {
        refuse("parameter '" + param->name + "' is not a tensor or a tuple of tensors");
      }
      fused.param_is_tuple.push_back(param->struct_info.is<TupleStructInfoNode>());
      std::vector<Buffer> buffers;
      for (const TensorStructInfoNode* t : tensors) buffers.push_back(add_param(param->name, *t));
      values_[param.get()] = std::move(buffers);
    }

    const auto* seq = func_->body.as<SeqExprNode>();
    if (seq == nullptr) refuse("its body is not a sequence of bindings");
    const Binding* last = nullptr;
    for (const BindingBlock& block : seq->blocks) {
      for (const Binding& binding : block->bindings) last = &binding;
    }
    if (last == nullptr || !seq->body.same_as((*last)->var)) {
      refuse("it must return the variable of its last binding");
    }
    // The value F returns: its last binding's, or the tuple field that binding takes.
    const VarNode* result = (*last)->var.get();
    int field = -1;
    if (const auto* item = (*last)->value.as<TupleGetItemNode>()) {
      result = item->tuple.as<VarNode>();
      field = item->index;
    }
    for (const BindingBlock& block : seq->blocks) {
      for (const Binding& binding : block->bindings) {
        add_binding(binding, binding->var.get() == result ? field : -2);
      }
    }

    for (const tir::Var& v : scalars) prim->params.push_back(v);
    auto* root = make_node<tir::BlockNode>();
    root->name = "root";
    root->alloc_buffers = std::move(allocs_);
    root->body = tir::seq_stmt(std::move(body_));
    prim->body = tir::block_realize({}, tir::PrimExpr(), tir::Block(root));
    prim->attrs = Attrs({{"op_pattern", AttrValue::integer(static_cast<int>(pattern_))},
                         {"tir.noalias", AttrValue::boolean(true)}});
    fused.func = tir::PrimFunc(prim);
    return fused;
  }

 private:
  [[noreturn]] void refuse(const std::string& why) const {
    user_error(func_->span) << "fuse-tir: Primitive function '" << name_
                            << "' cannot become one TensorIR function: " << why
                            << " (fuse-ops makes call_tir and TupleGetItem bindings of tensors)";
    RELAXC_UNREACHABLE();
  }

  // The fresh TensorIR variable of one of F's symbolic variables.
  tir::Var fresh_var(const tir::Var& v) {
    auto it = symbolic_.find(v);
    if (it != symbolic_.end()) return it->second.cast<tir::VarNode>();
    tir::Var fresh = tir::var(v->name, v->dtype);
    symbolic_.emplace(v, fresh);
    return fresh;
  }

  // A buffer of `tensor`'s shape in fused terms; its shape variables made fresh.
  Buffer make_buffer(const std::string& name, const TensorStructInfoNode& tensor,
                     const std::string& what) {
    const std::vector<PrimExpr>* dims = tensor.shape_values();
    if (dims == nullptr || tensor.dtype.is_void()) refuse(what + " has no known shape and dtype");
    std::vector<tir::PrimExpr> shape;
    for (const PrimExpr& d : *dims) {
      tir::post_order_visit(d, [&](const Ref<Object>& n) {
        if (const auto* v = n.as<tir::VarNode>()) fresh_var(tir::Var(v));
      });
      shape.push_back(tir::substitute(d, symbolic_));
    }
    std::string unique = name;
    for (int i = 1; !buffer_names_.insert(unique).second; ++i)
      unique = name + "_" + std::to_string(i);
    return tir::buffer(unique, tensor.dtype, std::move(shape));
  }

  Buffer add_param(const std::string& name, const TensorStructInfoNode& tensor) {
    Buffer b = make_buffer(name, tensor, "parameter '" + name + "'");
    bool constant_shape = std::all_of(b->shape.begin(), b->shape.end(), [](const tir::PrimExpr& d) {
      return d.is<tir::IntImmNode>();
    });
    tir::Var handle = tir::var(constant_shape ? b->name : "var_" + b->name, DataType::Handle());
    prim_->params.push_back(handle);
    prim_->buffer_map.emplace_back(handle, b);
    return b;
  }

  // `output` is the field of the binding's value that F returns (-1: all of it, -2:
  // none).
  void add_binding(const Binding& binding, int output) {
    if (const auto* item = binding->value.as<TupleGetItemNode>()) {
      auto it = values_.find(item->tuple.as<VarNode>());
      if (it == values_.end() || item->index >= static_cast<int>(it->second.size())) {
        refuse("'" + binding->var->name + "' takes a field of an unknown tuple");
      }
      values_[binding->var.get()] = {it->second[item->index]};
      return;
    }
    const auto* call = binding->value.as<CallNode>();
    tir::PrimFunc callee;
    if (call != nullptr && call->op.same_as(ops::call_tir()) && !call->args.empty()) {
      if (const auto* gv = call->args[0].as<GlobalVarNode>()) callee = module_->prim_func(gv->name);
    }
    if (!callee.defined()) refuse("'" + binding->var->name + "' is not a call_tir of a PrimFunc");
    pattern_ = std::max(pattern_, tir::op_pattern_of(callee));

    std::vector<Buffer> args;
    const auto* arg_tuple = call->args.size() > 1 ? call->args[1].as<TupleNode>() : nullptr;
    if (arg_tuple == nullptr) refuse("'" + binding->var->name + "' passes no argument tuple");
    for (const Expr& arg : arg_tuple->fields) {
      auto it = values_.find(arg.as<VarNode>());
      if (it == values_.end() || it->second.size() != 1) {
        refuse("an argument of '" + binding->var->name + "' is not a tensor variable");
      }
      args.push_back(it->second[0]);
    }
    std::vector<Buffer> outputs;
    std::vector<const TensorStructInfoNode*> out_tensors = tensors_of(binding->var->struct_info);
    for (size_t i = 0; i < out_tensors.size(); ++i) {
      const tir::BufferNode* callee_out = nullptr;
      size_t index = args.size() + i;
      if (index < callee->buffer_map.size()) callee_out = callee->buffer_map[index].second.get();
      std::string name = callee_out != nullptr ? callee_out->name : binding->var->name;
      if (output == -1 || output == static_cast<int>(i)) {
        outputs.push_back(add_param(name, *out_tensors[i]));
      } else {
        outputs.push_back(make_buffer(name, *out_tensors[i], "'" + binding->var->name + "'"));
        allocs_.push_back(outputs.back());
      }
    }
    values_[binding->var.get()] = outputs;

    std::vector<tir::PrimExpr> scalars;
    if (call->args.size() > 2) {
      const auto* shape = call->args[2].as<ShapeExprNode>();
      if (shape == nullptr) refuse("the tir_vars of '" + binding->var->name + "' are not a shape");
      for (const PrimExpr& v : shape->values) scalars.push_back(tir::substitute(v, symbolic_));
    }
    append_callee(callee, args, outputs, scalars, binding->var->name);
  }

  void append_callee(const tir::PrimFunc& callee, const std::vector<Buffer>& args,
                     const std::vector<Buffer>& outputs, const std::vector<tir::PrimExpr>& scalars,
                     const std::string& what) {
    std::vector<Buffer> actual = args;
    actual.insert(actual.end(), outputs.begin(), outputs.end());
    if (callee->buffer_map.size() != actual.size() ||
        callee->params.size() != actual.size() + scalars.size()) {
      refuse("'" + what + "' passes " + std::to_string(actual.size()) + " tensors and " +
             std::to_string(scalars.size()) + " scalars to a function of " +
             std::to_string(callee->params.size()) + " parameters");
    }
    tir::VarMap vars;
    std::unordered_map<const tir::BufferNode*, Buffer> buffers;
    for (size_t i = 0; i < actual.size(); ++i) {
      const Buffer& formal = callee->buffer_map[i].second;
      buffers[formal.get()] = actual[i];
      // A dimension that is a variable is bound by this buffer: unify it.
      for (size_t d = 0; d < formal->shape.size() && d < actual[i]->shape.size(); ++d) {
        if (const auto* v = formal->shape[d].as<tir::VarNode>()) {
          vars.emplace(tir::Var(v), actual[i]->shape[d]);
        }
      }
    }
    for (size_t i = 0; i < scalars.size(); ++i) {
      vars[callee->params[actual.size() + i]] = scalars[i];
    }
    BodyCopier copier(std::move(vars), std::move(buffers), block_names_, buffer_names_);
    // The callee's root block: its allocations join the fused root's, its body is
    // appended.
    const auto* root = callee->body.as<tir::BlockRealizeNode>();
    if (root != nullptr && root->block->name == "root" && root->block->iter_vars.empty()) {
      for (const Buffer& b : root->block->alloc_buffers) allocs_.push_back(copier.mutate(b));
      body_.push_back(copier.mutate(root->block->body));
    } else {
      body_.push_back(copier.mutate(callee->body));
    }
  }

  const IRModule& module_;
  std::string name_;
  Function func_;
  tir::PrimFuncNode* prim_ = nullptr;
  tir::VarMap symbolic_;  // F's symbolic variables -> the fused function's
  std::unordered_map<const VarNode*, std::vector<Buffer>> values_;
  std::vector<Buffer> allocs_;
  std::vector<tir::Stmt> body_;
  std::unordered_set<std::string> block_names_ = {"root"};
  std::unordered_set<std::string> buffer_names_;
  OpPattern pattern_ = OpPattern::ElemWise;
};

// Rewrites the calls of fused Primitive functions into call_tir of their PrimFuncs.
class CallRewriter : public ExprMutator {
 public:
  CallRewriter(const IRModule& module,
               const std::unordered_map<std::string, std::pair<GlobalVar, Fused>>& fused)
      : ExprMutator(module), fused_(fused) {}

 protected:
  Expr visit_node(const CallNode* node) override {
    Expr visited = ExprMutator::visit_node(node);
    const auto* call = visited.as<CallNode>();
    const auto* callee = call->op.as<GlobalVarNode>();
    auto it = callee != nullptr ? fused_.find(callee->name) : fused_.end();
    if (it == fused_.end()) return visited;
    const auto& [gv, fused] = it->second;
    std::vector<Expr> tensors;
    Expr shape;
    size_t tensor_param = 0;
    for (const Expr& arg : call->args) {
      if (arg->struct_info.is<ShapeStructInfoNode>()) {
        shape = arg;
      } else if (fused.param_is_tuple[tensor_param++]) {
        size_t n = arg->struct_info.as<TupleStructInfoNode>()->fields.size();
        for (size_t i = 0; i < n; ++i) {
          tensors.push_back(builder_.tuple_get_item(arg, static_cast<int>(i), call->span));
        }
      } else {
        tensors.push_back(arg);
      }
    }
    std::vector<StructInfo> out_sinfo;
    if (const auto* tuple = call->struct_info.as<TupleStructInfoNode>()) {
      out_sinfo = tuple->fields;
    } else {
      out_sinfo = {call->struct_info};
    }
    std::vector<Expr> args = {gv, builder_.tuple(std::move(tensors), call->span)};
    if (shape.defined()) args.push_back(shape);
    return builder_.call(ops::call_tir(), std::move(args), std::move(out_sinfo), {}, call->span);
  }

 private:
  const std::unordered_map<std::string, std::pair<GlobalVar, Fused>>& fused_;
};

}  // namespace

IRModule fuse_tir(const IRModule& module) {
  std::unordered_map<std::string, std::pair<GlobalVar, Fused>> fused;
  std::unordered_set<std::string> callees;  // the PrimFuncs the fused functions called
  for (const auto& [gv, func] : module->functions) {
    const auto* f = func.as<FunctionNode>();
    if (f == nullptr || !is_primitive(*f)) continue;
    fused.emplace(gv->name, std::make_pair(make_global_var(gv->name, gv->span),
                                           TirFuser(module, gv->name, Function(f)).run()));
    for (const GlobalVar& called : called_global_vars(Expr(f))) callees.insert(called->name);
  }
  if (fused.empty()) return module;

  // The calls are rewritten against the module with the fused PrimFuncs in place.
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    auto it = fused.find(gv->name);
    if (it != fused.end()) {
      functions.emplace_back(it->second.first, it->second.second.func);
    } else {
      functions.emplace_back(gv, func);
    }
  }
  CallRewriter rewriter(make_module(functions, module->attrs, module->span), fused);
  std::unordered_set<std::string> still_called;
  for (auto& [gv, func] : functions) {
    const auto* f = func.as<FunctionNode>();
    if (f == nullptr) continue;
    func = rewriter.visit_expr(Function(f));
    for (const GlobalVar& called : called_global_vars(func.cast<FunctionNode>())) {
      still_called.insert(called->name);
    }
  }
  // The PrimFuncs that only the fused functions called are gone with them.
  std::erase_if(functions, [&](const auto& entry) {
    return entry.second.template is<tir::PrimFuncNode>() && callees.count(entry.first->name) != 0 &&
           still_called.count(entry.first->name) == 0 && fused.count(entry.first->name) == 0;
  });
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc::relax
