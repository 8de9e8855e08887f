// The pass registry: one line per pass.
#include "passes/pass_registry.h"

#include "ir/relax/block_builder.h"
#include "ir/relax/well_formed.h"
#include "passes/relax/transforms.h"
#include "passes/tir/default_gpu_schedule.h"

namespace relaxc {
namespace {

// Fails with every violation as one UserError; a well-formed module passes unchanged.
IRModule check_well_formed_pass(const IRModule& module) {
  relax::check_well_formed(module).throw_if_errors();
  return module;
}

}  // namespace

const std::vector<PassInfo>& all_passes() {
  static const std::vector<PassInfo> passes = {
      {"normalize", "put every Relax function in normal form with its StructInfo",
       relax::normalize_module},
      {"well-formed", "check that every Relax function is well formed (fails with diagnostics)",
       check_well_formed_pass},
      {"default-gpu-schedule",
       "bind every unscheduled TensorIR block to GPU blocks and threads (Vulkan desktop limits)",
       [](const IRModule& m) { return tir::default_gpu_schedule(m, vulkan_profile("desktop")); }},
      {"lambda-lift", "lift local functions to private module functions (closures for captures)",
       relax::lambda_lift},
      {"to-non-dataflow", "turn dataflow blocks into plain binding blocks", relax::to_non_dataflow},
      {"remove-purity-checking",
       "mark pure functions relax.force_pure; call_pure_packed -> call_packed",
       relax::remove_purity_checking},
      {"call-tir-rewrite",
       "allocate the outputs of call_tir / call_dps_packed and call them destination-passing",
       relax::call_tir_rewrite},
      {"vm-builtin-lower", "lower memory, shape, print and closure operators to VM builtins",
       relax::vm_builtin_lower},
      {"vm-shape-lower",
       "shape variables on a host shape heap; run-time checks of arguments, match_cast and "
       "return values",
       relax::vm_shape_lower},
  };
  return passes;
}

const PassInfo* find_pass(const std::string& name) {
  for (const PassInfo& p : all_passes()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

}  // namespace relaxc
