// The pass registry: one line per pass, and the adapters that run each kind of pass on
// a pipeline's state (a module pass, a pass over each PrimFunc, a pass over each kernel).
#include "passes/pass_registry.h"

#include "ir/relax/block_builder.h"
#include "ir/relax/well_formed.h"
#include "ir/support/diagnostics.h"
#include "passes/relax/transforms.h"
#include "passes/tir/default_gpu_schedule.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc {
namespace {

// Fails with every violation as one UserError; a well-formed module passes unchanged.
IRModule check_well_formed_pass(const IRModule& module) {
  relax::check_well_formed(module).throw_if_errors();
  return module;
}

// A pass that needs the module: refused once split-host-device has replaced it by kernels.
void require_module(const PassState& state, const std::string& pass) {
  if (state.lowered.has_value()) {
    user_error(Span{}) << "pass '" << pass
                       << "' transforms a module, but split-host-device has already turned it "
                          "into kernels; run '"
                       << pass << "' before split-host-device";
  }
}

// A pass over the whole module.
std::function<void(PassState&, const PassContext&)> module_pass(std::string name,
                                                                IRModule (*pass)(const IRModule&)) {
  return [name, pass](PassState& state, const PassContext&) {
    require_module(state, name);
    state.module = pass(state.module);
  };
}

// A pass over each PrimFunc of the module, with the target.
std::function<void(PassState&, const PassContext&)> prim_func_pass(
    std::string name, tir::PrimFunc (*pass)(const tir::PrimFunc&, const Target&)) {
  return [name, pass](PassState& state, const PassContext& context) {
    require_module(state, name);
    const Target& target = context.require_target(name);
    IRModule result = state.module;
    for (const auto& [global, func] : state.module->functions) {
      const auto* prim = func.as<tir::PrimFuncNode>();
      if (prim == nullptr) continue;
      tir::PrimFunc changed = pass(tir::PrimFunc(prim), target);
      if (!changed.same_as(func)) result = module_with(result, global, changed);
    }
    state.module = result;
  };
}

// Replaces each kernel by `rewrite` of it: the kernels split-host-device made, or before
// the split (relaxc opt on a module of kernels) every PrimFunc of the module.
void for_each_kernel(PassState& state,
                     const std::function<tir::PrimFunc(const tir::PrimFunc&)>& rewrite) {
  if (!state.lowered.has_value()) {
    IRModule result = state.module;
    for (const auto& [global, func] : state.module->functions) {
      const auto* prim = func.as<tir::PrimFuncNode>();
      if (prim != nullptr) result = module_with(result, global, rewrite(tir::PrimFunc(prim)));
    }
    state.module = result;
    return;
  }
  for (tir::LoweredFunc& lowered : *state.lowered) {
    for (tir::KernelLaunch& launch : lowered.launches) {
      launch.kernel.func = rewrite(launch.kernel.func);
    }
  }
}

// A pass over each kernel.
std::function<void(PassState&, const PassContext&)> kernel_pass(
    tir::PrimFunc (*pass)(const tir::PrimFunc&)) {
  return [pass](PassState& state, const PassContext&) { for_each_kernel(state, pass); };
}

// A pass over each kernel that reads the target.
std::function<void(PassState&, const PassContext&)> kernel_target_pass(
    std::string name, tir::PrimFunc (*pass)(const tir::PrimFunc&, const Target&)) {
  return [name, pass](PassState& state, const PassContext& context) {
    const Target& target = context.require_target(name);
    for_each_kernel(state, [&](const tir::PrimFunc& kernel) { return pass(kernel, target); });
  };
}

void split_host_device_pass(PassState& state, const PassContext& context) {
  require_module(state, "split-host-device");
  const Target& target = context.require_target("split-host-device");
  std::vector<tir::LoweredFunc> lowered;
  for (const auto& [global, func] : state.module->functions) {
    if (const auto* prim = func.as<tir::PrimFuncNode>()) {
      lowered.push_back(tir::split_host_device(tir::PrimFunc(prim), global->name, target));
    }
  }
  state.lowered = std::move(lowered);
}

// Records each kernel's shared memory and checks it against the target. Before the
// split (relaxc opt on a module of kernels) each PrimFunc is one kernel, its launch read
// from its thread-bound loops.
void check_kernel_limits_pass(PassState& state, const PassContext& context) {
  const Target& target = context.require_target("check-kernel-limits");
  if (!state.lowered.has_value()) {
    for (const auto& [global, func] : state.module->functions) {
      if (const auto* prim = func.as<tir::PrimFuncNode>()) {
        tir::check_kernel_limits(tir::launch_of_kernel(tir::PrimFunc(prim), global->name), target);
      }
    }
    return;
  }
  for (tir::LoweredFunc& lowered : *state.lowered) {
    for (tir::KernelLaunch& launch : lowered.launches) {
      launch.kernel.shared_memory_bytes = tir::shared_memory_bytes(launch.kernel.func);
      tir::check_kernel_limits(launch, target);
    }
  }
}

}  // namespace

const Target& PassContext::require_target(const std::string& pass) const {
  RELAXC_ICHECK(target != nullptr) << "pass '" << pass << "' runs without a target";
  return *target;
}

IRModule PassState::printable() const {
  if (!lowered.has_value()) return module;
  std::vector<std::pair<relax::GlobalVar, Ref<Object>>> kernels;
  for (const tir::LoweredFunc& func : *lowered) {
    for (const tir::KernelLaunch& launch : func.launches) {
      kernels.emplace_back(relax::make_global_var(launch.kernel.name), launch.kernel.func);
    }
  }
  return make_module(std::move(kernels));
}

const std::vector<PassInfo>& all_passes() {
  using namespace relax;
  using namespace tir;
  static const std::vector<PassInfo> passes = {
      // Relax.
      {"normalize", "put every Relax function in normal form with its StructInfo", false,
       module_pass("normalize", normalize_module)},
      {"well-formed", "check that every Relax function is well formed (fails with diagnostics)",
       false, module_pass("well-formed", check_well_formed_pass)},
      {"legalize-ops",
       "replace each operator call with R.call_tir of a TensorIR function that computes it", false,
       module_pass("legalize-ops", legalize_ops)},
      {"canonicalize-bindings",
       "fold bindings that rename a value (x = y, a match_cast that holds, a known tuple item)",
       true, module_pass("canonicalize-bindings", canonicalize_bindings)},
      {"fold-constant",
       "evaluate R.call_tir of constants at compile time (the TensorIR interpreter)", true,
       module_pass("fold-constant", fold_constant)},
      {"fuse-ops",
       "group the call_tir bindings of each dataflow block into Primitive functions (FuseOps)",
       true, module_pass("fuse-ops", fuse_ops)},
      {"fuse-tir", "turn each Primitive function into one TensorIR function (FuseTIR)", true,
       module_pass("fuse-tir", fuse_tir)},
      {"dead-code-elimination",
       "remove unused pure bindings and the functions no public function reaches", true,
       module_pass("dead-code-elimination", dead_code_elimination)},
      {"lambda-lift", "lift local functions to private module functions (closures for captures)",
       false, module_pass("lambda-lift", lambda_lift)},
      {"to-non-dataflow", "turn dataflow blocks into plain binding blocks", false,
       module_pass("to-non-dataflow", to_non_dataflow)},
      {"remove-purity-checking",
       "mark pure functions relax.force_pure; call_pure_packed -> call_packed", false,
       module_pass("remove-purity-checking", remove_purity_checking)},
      {"call-tir-rewrite",
       "allocate the outputs of call_tir / call_dps_packed and call them destination-passing",
       false, module_pass("call-tir-rewrite", call_tir_rewrite)},
      {"static-plan-block-memory",
       "share storages between tensors whose lives do not overlap; free each after its last use",
       true, module_pass("static-plan-block-memory", static_plan_block_memory)},
      {"vm-builtin-lower", "lower memory, shape, print and closure operators to VM builtins", false,
       module_pass("vm-builtin-lower", vm_builtin_lower)},
      {"vm-shape-lower",
       "shape variables on a host shape heap; run-time checks of arguments, match_cast and "
       "return values",
       false, module_pass("vm-shape-lower", vm_shape_lower)},
      // TensorIR: the schedule, then kernel lowering (passes/tir/kernel_lowering_steps.h).
      {"default-gpu-schedule",
       "bind every unscheduled TensorIR block to GPU blocks and threads (within the target's "
       "limits)",
       true,
       prim_func_pass(
           "default-gpu-schedule",
           [](const PrimFunc& f, const Target& t) { return default_gpu_schedule(f, t); })},
      {"unify-thread-bindings",
       "merge a thread-bound loop into the enclosing loop bound to the same thread axis", false,
       prim_func_pass("unify-thread-bindings",
                      [](const PrimFunc& f, const Target&) { return unify_thread_bindings(f); })},
      {"lower-cross-thread-reduction",
       "reductions over threads through shared memory with barriers (warp shuffles on CUDA)", false,
       prim_func_pass("lower-cross-thread-reduction", lower_cross_thread_reduction)},
      {"lower-blocks", "blocks become loops (bindings, predicates, init, allocations)", false,
       prim_func_pass("lower-blocks",
                      [](const PrimFunc& f, const Target&) { return lower_blocks(f); })},
      {"split-host-device",
       "each outermost thread-bound region becomes a kernel; the host keeps the launches", false,
       split_host_device_pass},
      {"insert-shared-barriers",
       "barriers between the accesses of a kernel's threads to the buffers they share", false,
       kernel_pass(insert_shared_barriers)},
      {"compact-buffer-allocations",
       "shrink shared/local allocations to the region accessed, moved innermost", true,
       kernel_pass(compact_buffer_allocations)},
      {"prefetch-tile-copies",
       "a loop's copies into shared memory load the next iteration's tiles into registers "
       "while this one computes",
       true, kernel_pass(prefetch_tile_copies)},
      {"flatten-buffers", "every buffer of a kernel becomes one-dimensional", false,
       kernel_pass(flatten_buffers)},
      {"narrow-to-int32", "index and loop arithmetic of a kernel in int32", false,
       kernel_pass(narrow_to_int32)},
      {"simplify-kernel", "simplify every expression of a kernel with its loop ranges known", true,
       kernel_pass(simplify_kernel)},
      {"legalize-bfloat16",
       "bfloat16 without native support: uint16 storage, float32 arithmetic rounded to nearest "
       "even",
       false, kernel_target_pass("legalize-bfloat16", legalize_bfloat16)},
      {"legalize-vector-loops",
       "decide which vectorized loops become vector code (the rest are unrolled)", false,
       kernel_target_pass("legalize-vector-loops", legalize_vector_loops)},
      {"check-kernel-limits",
       "check each kernel against the target's limits (threads, grid, shared memory, dtypes)",
       false, check_kernel_limits_pass},
  };
  return passes;
}

const PassInfo* find_pass(const std::string& name) {
  for (const PassInfo& p : all_passes()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string known_pass_names() {
  std::string names;
  for (const PassInfo& pass : all_passes()) {
    if (!names.empty()) names += ", ";
    names += pass.name;
  }
  return names;
}

}  // namespace relaxc
