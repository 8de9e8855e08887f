// The pass registry: every pass, Relax and TensorIR alike, has one line here giving it a
// name on the command line (relaxc opt --passes=a,b) and in the build's pipeline
// (passes/pipeline.h).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"

namespace relaxc {

// What a pass reads besides the IR: the target its kernels are compiled for (the build
// runs the kernel passes once per target; relaxc opt takes it from --target).
struct PassContext {
  const Target* target = nullptr;
  // The target, for a pass that needs one; an internal error names `pass` without it.
  const Target& require_target(const std::string& pass) const;
};

// The IR a pipeline carries from pass to pass. Up to split-host-device it is `module`
// (Relax functions and PrimFuncs, text that prints and parses). split-host-device turns
// each PrimFunc into `lowered`: its kernels, each a PrimFunc, and the host's launches
// (buffer arguments, grid sizes over the host's shape variables, workspaces). That is
// the IR boundary: the kernels still print and parse as a module of PrimFuncs, the
// launch information is carried along beside them and has no text form.
struct PassState {
  IRModule module;
  std::optional<std::vector<tir::LoweredFunc>> lowered;  // set by split-host-device

  // `module`, or once split, the kernels as a module (each by its kernel name).
  IRModule printable() const;
};

struct PassInfo {
  std::string name;         // "normalize"
  std::string description;  // one line, for relaxc opt --help
  // Whether relaxc build --disable-pass may skip it: the build is correct without it
  // (an optimization, or a pass that does nothing to a module in the expected form).
  bool may_disable = false;
  std::function<void(PassState&, const PassContext&)> run;
};

const std::vector<PassInfo>& all_passes();
// The pass named `name`, or nullptr.
const PassInfo* find_pass(const std::string& name);
// Every registered pass's name, comma-separated, for messages.
std::string known_pass_names();

}  // namespace relaxc
