// The loop of a pass that rewrites each Relax function of a module on its own.
#pragma once

#include <functional>

#include "ir/module.h"

namespace relaxc::relax {

// The module with `rewrite` applied to each of its Relax functions, in module order; its
// other functions (TensorIR) and its attributes are kept. A pass whose rewrite also
// adds functions (lambda-lift, vm-shape-lower) builds its module itself.
IRModule map_relax_functions(const IRModule& module,
                             const std::function<Expr(const Function&)>& rewrite);

}  // namespace relaxc::relax
