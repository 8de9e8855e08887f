// The pass registry: one line per pass.
#include "passes/pass_registry.h"

#include "ir/relax/block_builder.h"

namespace relaxc {

const std::vector<PassInfo>& all_passes() {
  static const std::vector<PassInfo> passes = {
      {"normalize", "put every Relax function in normal form with its StructInfo",
       relax::normalize_module},
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
