// The loop of a pass that rewrites each Relax function of a module on its own.
#include "passes/relax/function_pass.h"

#include <utility>
#include <vector>

#include "ir/structural_equal.h"

namespace relaxc::relax {

IRModule map_relax_functions(const IRModule& module,
                             const std::function<Expr(const Function&)>& rewrite) {
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    Function relax_func = func.cast<FunctionNode>();
    functions.emplace_back(gv, relax_func.defined() ? Ref<Object>(rewrite(relax_func)) : func);
  }
  return make_module(std::move(functions), module->attrs, module->span);
}

AddedFunctions::AddedFunctions(const IRModule& module) {
  for (const auto& [gv, func] : module->functions) used_names_.insert(gv->name);
}

GlobalVar AddedFunctions::add(const std::string& base, const Ref<Object>& func) {
  size_t hash = structural_hash(func);
  auto [first, last] = by_hash_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (structural_equal(functions[it->second].second, func)) return functions[it->second].first;
  }
  std::string name = base;
  for (int i = 1; !used_names_.insert(name).second; ++i) name = base + std::to_string(i);
  GlobalVar gv = make_global_var(name);
  by_hash_.emplace(hash, functions.size());
  functions.emplace_back(gv, func);
  return gv;
}

}  // namespace relaxc::relax
