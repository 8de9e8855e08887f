// lower_to_kernels: the kernel lowering passes of the pipeline on one PrimFunc.
#include "passes/tir/lower_to_kernels.h"

#include "passes/pipeline.h"

namespace relaxc::tir {

LoweredFunc lower_to_kernels(const PrimFunc& func, const std::string& name, const Target& target) {
  PassState state{make_module({{relax::make_global_var(name), func}}), std::nullopt};
  run_passes(kernel_lowering_passes(), state, PassContext{&target}, PipelineOptions{});
  LoweredFunc lowered = std::move(state.lowered->front());
  lowered.source = func;
  return lowered;
}

}  // namespace relaxc::tir
