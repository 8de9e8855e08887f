// The Relax passes of the minimum build (docs/architecture.md, "From text to
// executable"), in the order the VM pipeline (passes/pipeline.h) runs them. Each lives in its own
// file, which opens with a note on its algorithm; each is registered in passes/pass_registry.cc.
#pragma once
#include "ir/module.h"

namespace relaxc::relax {

// "legalize-ops": each call of an operator with a legalization (passes/relax/legalize/)
// becomes R.call_tir of a TensorIR PrimFunc computing it, blocks with spatial and
// reduction iterators, symbolic shapes kept symbolic, the PrimFunc marked with its
// op_pattern; structurally equal PrimFuncs are shared. Reshape and flatten (views in
// the VM), hand-written call_tir and the other calls are left as they are.
IRModule legalize_ops(const IRModule& module);

// "canonicalize-bindings": bindings that only rename a value are folded into their
// uses: `x = y`, a match_cast whose StructInfo already holds, an item of a known tuple.
// An output Var bound to a DataflowVar takes over that DataflowVar's binding.
IRModule canonicalize_bindings(const IRModule& module);

// "fold-constant": R.call_tir of a PrimFunc whose tensor arguments are all constants is
// evaluated by the TensorIR interpreter and replaced by R.const of its result (dtypes
// the interpreter holds exactly; bounded work and output size).
IRModule fold_constant(const IRModule& module);

// "fuse-ops": in each dataflow block, TVM's FuseOps groups bindings along the
// post-dominator tree by their patterns (tir::op_pattern_of): injective chains into
// their consumers, elementwise epilogues into matmul/conv, elementwise and injective
// inputs into reductions; each group of two or more becomes a private Relax function
// "fused_..." with the attribute "Primitive", called in its place.
IRModule fuse_ops(const IRModule& module);
// Whether `func` is such a group: its attribute "Primitive" is true (or nonzero).
bool is_primitive(const FunctionNode& func);

// "fuse-tir": each Primitive function (fuse-ops' groups) becomes one PrimFunc of the
// same name: its callees' bodies in order in one root block, intermediates as root
// allocations, parameters shared, shape variables unified; its calls become
// R.call_tir of it, and it and the PrimFuncs only it called leave the module.
IRModule fuse_tir(const IRModule& module);

// "dead-code-elimination": removes the bindings whose variables nothing live uses and
// whose values call nothing impure (match_cast checks stay), then the functions that
// no public function (attribute global_symbol) reaches, Relax functions and PrimFuncs.
IRModule dead_code_elimination(const IRModule& module);

// "lambda-lift": every local function becomes a private module function. One that
// captures variables takes them as its leading parameters and its binding becomes
// R.make_closure(cls.f, (captures...)); calls of a closure value become
// R.invoke_closure / R.invoke_pure_closure. A local function that captures nothing is
// replaced by its GlobalVar (its calls become direct calls).
IRModule lambda_lift(const IRModule& module);

// "to-non-dataflow": dataflow blocks become ordinary binding blocks and their
// DataflowVars ordinary Vars.
IRModule to_non_dataflow(const IRModule& module);

// "remove-purity-checking": pure functions get the attribute relax.force_pure (so that
// the explicit allocations and destination-passing calls of later passes are allowed
// in them); R.call_pure_packed becomes R.call_packed and R.invoke_pure_closure
// R.invoke_closure.
IRModule remove_purity_checking(const IRModule& module);

// "call-tir-rewrite": every R.call_tir and R.call_dps_packed becomes the explicit
// allocation of each output (R.memory.alloc_storage of its bytes, then
// R.memory.alloc_tensor in it) and a destination-passing call: a direct call of the
// PrimFunc (inputs, outputs, then the tir_vars shape) or R.call_packed of the extern
// function (inputs, then outputs). A tuple output becomes a tuple of the outputs.
IRModule call_tir_rewrite(const IRModule& module);

// "static-plan-block-memory": call-tir-rewrite's storages are shared by tensors whose
// lives do not overlap (sized for the largest; symbolic sizes bounded by the function
// attribute tir_var_upper_bound or the analyzer, else shared only where provably large
// enough), and R.memory.kill_tensor / kill_storage free them after their last use.
// Tensors that escape (returned, passed to packed functions or closures) keep their own
// storage. Each function gets the attribute "relaxc.memory_plan" (storages and peaks).
IRModule static_plan_block_memory(const IRModule& module);

// "vm-builtin-lower": the operators the VM runs as builtins become R.call_packed of
// "vm.builtin.*" (memory allocation, reshape and flatten as views, shape_of,
// null_value, print, closures). An operator that computes (R.add, R.nn.relu, ...) is a
// UserError at its binding: legalize-ops must turn it into R.call_tir first.
IRModule vm_builtin_lower(const IRModule& module);

// "vm-shape-lower": symbolic shape variables move to a shape heap (a host int64 tensor
// per function call): parameters, match_cast and the return value are checked at run
// time (vm.builtin.check_*_info, vm.builtin.match_shape) and their dims stored or
// compared; shapes and PrimValues that use shape variables are built from the heap
// (vm.builtin.make_shape, vm.builtin.make_prim_value); arithmetic on shape variables
// is computed by a host PrimFunc (attribute tir.is_host_func) that the function calls.
// MatchCast bindings become plain bindings after their checks.
IRModule vm_shape_lower(const IRModule& module);

}  // namespace relaxc::relax
