// Helpers of Relax passes: the loop of a pass that rewrites each Relax function of a
// module on its own, and the functions a pass adds to a module.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/module.h"

namespace relaxc::relax {

// The module with `rewrite` applied to each of its Relax functions, in module order; its
// other functions (TensorIR) and its attributes are kept. A pass whose rewrite also
// adds functions (lambda-lift, vm-shape-lower) builds its module itself.
IRModule map_relax_functions(const IRModule& module,
                             const std::function<Expr(const Function&)>& rewrite);

// The functions a pass adds to a module (legalize-ops' PrimFuncs, fuse-ops' groups): a
// function structurally equal to one added before is that one; a new one is named
// `base`, or `base` with a number, whichever the module does not use yet.
class AddedFunctions {
 public:
  explicit AddedFunctions(const IRModule& module);

  // The GlobalVar of `func`, which is added if new.
  GlobalVar add(const std::string& base, const Ref<Object>& func);

  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;  // in the order added

 private:
  std::unordered_set<std::string> used_names_;
  std::unordered_multimap<size_t, size_t> by_hash_;  // structural hash -> index in functions
};

}  // namespace relaxc::relax
