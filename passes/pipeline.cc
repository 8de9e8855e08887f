// The build's pipeline: the lists of passes in order, and the runner that prints the IR
// after each pass and times each on request.
#include "passes/pipeline.h"

#include <algorithm>
#include <chrono>
#include <ostream>
#include <utility>

#include "ir/support/diagnostics.h"
#include "ir/text/printer.h"

namespace relaxc {

const std::vector<std::string>& vm_lowering_passes() {
  static const std::vector<std::string> names = {"legalize-ops",
                                                 "canonicalize-bindings",
                                                 "fold-constant",
                                                 "fuse-ops",
                                                 "fuse-tir",
                                                 "dead-code-elimination",
                                                 "lambda-lift",
                                                 "to-non-dataflow",
                                                 "remove-purity-checking",
                                                 "call-tir-rewrite",
                                                 "static-plan-block-memory",
                                                 "vm-builtin-lower",
                                                 "vm-shape-lower"};
  return names;
}

const std::vector<std::string>& kernel_lowering_passes() {
  static const std::vector<std::string> names = {
      "unify-thread-bindings",  "lower-cross-thread-reduction",
      "lower-blocks",           "split-host-device",
      "insert-shared-barriers", "compact-buffer-allocations",
      "prefetch-tile-copies",   "flatten-buffers",
      "narrow-to-int32",        "simplify-kernel",
      "legalize-bfloat16",      "legalize-vector-loops",
      "check-kernel-limits"};
  return names;
}

const std::vector<std::string>& kernel_passes() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = {"default-gpu-schedule"};
    all.insert(all.end(), kernel_lowering_passes().begin(), kernel_lowering_passes().end());
    return all;
  }();
  return names;
}

void run_passes(const std::vector<std::string>& names, PassState& state, const PassContext& context,
                const PipelineOptions& options) {
  for (const std::string& name : names) {
    if (options.disabled.count(name) != 0) continue;
    const PassInfo* pass = find_pass(name);
    RELAXC_ICHECK(pass != nullptr)
        << "the pipeline names pass '" << name << "', which is not registered";
    auto start = std::chrono::steady_clock::now();
    pass->run(state, context);
    // The kernel passes run once per target: their lines name it.
    std::string for_target = context.target != nullptr ? " [" + context.target->str() + "]" : "";
    if (options.timing != nullptr) {
      double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
              .count();
      *options.timing << name << for_target << " " << ms << " ms\n";
    }
    if (options.print_after_each != nullptr) {
      *options.print_after_each << "# after " << name << for_target << "\n"
                                << text::print_module(state.printable()) << "\n";
    }
  }
}

std::string disable_pass_error(const std::string& name) {
  const PassInfo* pass = find_pass(name);
  if (pass == nullptr) return "unknown pass '" + name + "'; known passes: " + known_pass_names();
  auto in = [&](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  std::string optional;
  for (const auto* list : {&vm_lowering_passes(), &kernel_passes()}) {
    for (const std::string& candidate : *list) {
      if (find_pass(candidate)->may_disable) optional += (optional.empty() ? "" : ", ") + candidate;
    }
  }
  if (!in(vm_lowering_passes()) && !in(kernel_passes())) {
    return "pass '" + name +
           "' is not part of the build's pipeline; passes that may be disabled: " + optional;
  }
  if (!pass->may_disable) {
    return "pass '" + name + "' is required by the build and cannot be disabled; passes that " +
           "may be disabled: " + optional;
  }
  return "";
}

IRModule vm_lowering_pipeline(const IRModule& module, const PipelineOptions& options) {
  PassState state{module, std::nullopt};
  run_passes(vm_lowering_passes(), state, PassContext{}, options);
  return state.module;
}

std::vector<tir::LoweredFunc> kernel_pipeline(const IRModule& kernels, const Target& target,
                                              const PipelineOptions& options) {
  PassState state{kernels, std::nullopt};
  run_passes(kernel_passes(), state, PassContext{&target}, options);
  RELAXC_ICHECK(state.lowered.has_value()) << "the kernel pipeline ends after split-host-device";
  return std::move(*state.lowered);
}

}  // namespace relaxc
