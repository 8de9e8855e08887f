// The pass registry: every pass has one line here giving it a name on the command line
// (relaxc opt --passes=a,b).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/module.h"

namespace relaxc {

struct PassInfo {
  std::string name;         // "normalize"
  std::string description;  // one line, for relaxc opt --help
  std::function<IRModule(const IRModule&)> run;
};

const std::vector<PassInfo>& all_passes();
// The pass named `name`, or nullptr.
const PassInfo* find_pass(const std::string& name);

}  // namespace relaxc
