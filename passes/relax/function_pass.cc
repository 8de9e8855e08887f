// The loop of a pass that rewrites each Relax function of a module on its own.
#include "passes/relax/function_pass.h"

#include <utility>
#include <vector>

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

}  // namespace relaxc::relax
