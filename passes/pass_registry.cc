// The pass registry: one line per pass.
#include "passes/pass_registry.h"

#include "ir/relax/block_builder.h"
#include "ir/relax/well_formed.h"
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
