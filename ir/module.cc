// IRModule lookups and construction.
#include "ir/module.h"

namespace relaxc {

Ref<Object> IRModuleNode::lookup(const std::string& name) const {
  for (const auto& [gv, func] : functions) {
    if (gv->name == name) return func;
  }
  return {};
}

relax::GlobalVar IRModuleNode::global_var(const std::string& name) const {
  for (const auto& [gv, func] : functions) {
    if (gv->name == name) return gv;
  }
  return {};
}

relax::Function IRModuleNode::relax_function(const std::string& name) const {
  return lookup(name).cast<relax::FunctionNode>();
}

tir::PrimFunc IRModuleNode::prim_func(const std::string& name) const {
  return lookup(name).cast<tir::PrimFuncNode>();
}

IRModule make_module(std::vector<std::pair<relax::GlobalVar, Ref<Object>>> functions, Attrs attrs,
                     Span span) {
  auto* n = make_node<IRModuleNode>();
  n->functions = std::move(functions);
  n->attrs = std::move(attrs);
  n->span = span;
  return IRModule(n);
}

IRModule module_with(const IRModule& module, const relax::GlobalVar& name, Ref<Object> func) {
  auto functions = module->functions;
  bool replaced = false;
  for (auto& [gv, f] : functions) {
    if (gv->name == name->name) {
      gv = name;
      f = func;
      replaced = true;
    }
  }
  if (!replaced) functions.emplace_back(name, std::move(func));
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc
