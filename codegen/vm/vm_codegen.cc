// VM code generation for a module: the function table (module functions first, in
// module order, then the packed functions the bytecode calls), each Relax function's
// bytecode, the host shape functions, and one Backend per target holding every kernel
// PrimFunc compiled for it (the same kernel functions, in the same order, in each).
#include "codegen/vm/vm_codegen.h"

#include <utility>

#include "codegen/vm/bytecode_codegen.h"
#include "codegen/vm/kernel_func_codegen.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

using runtime::vm::FunctionEntry;
using runtime::vm::FunctionKind;

bool is_host_func(const tir::PrimFunc& func) {
  const AttrValue* v = func->attrs.find("tir.is_host_func");
  return v != nullptr && ((v->kind == AttrValue::Kind::Bool && v->b) ||
                          (v->kind == AttrValue::Kind::Int && v->i != 0));
}

bool same_binary(const runtime::KernelBinary& a, const runtime::KernelBinary& b) {
  return a.name == b.name && a.format == b.format && a.code == b.code &&
         a.block_size == b.block_size && a.num_buffers == b.num_buffers && a.scalars == b.scalars &&
         a.shared_memory_bytes == b.shared_memory_bytes;
}

// The index of `binary` in `kernels`, appended unless an identical one is there.
int64_t add_kernel(std::vector<runtime::KernelBinary>& kernels, runtime::KernelBinary binary) {
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (same_binary(kernels[i], binary)) return static_cast<int64_t>(i);
  }
  kernels.push_back(std::move(binary));
  return static_cast<int64_t>(kernels.size() - 1);
}

// The kernel functions compiled for one target, with their launches as KernelFuncs.
runtime::vm::Backend backend_codegen(const CompiledKernels& compiled) {
  runtime::vm::Backend backend;
  backend.format = backend_for(compiled.target.kind).format;
  backend.target = compiled.target.str();
  for (const CompiledPrimFunc& func : compiled.funcs) {
    std::vector<int64_t> indices;
    for (const runtime::KernelBinary& binary : func.binaries) {
      indices.push_back(add_kernel(backend.kernels, binary));
    }
    backend.kernel_funcs.push_back(kernel_func_codegen(func.lowered, indices));
  }
  return backend;
}

}  // namespace

IRModule kernel_functions(const IRModule& module) {
  std::vector<std::pair<relax::GlobalVar, Ref<Object>>> kernels;
  for (const auto& [gv, func] : module->functions) {
    const auto* prim = func.as<tir::PrimFuncNode>();
    if (prim != nullptr && !is_host_func(tir::PrimFunc(prim))) kernels.emplace_back(gv, func);
  }
  return make_module(std::move(kernels));
}

runtime::vm::Executable vm_codegen(const IRModule& module,
                                   const std::vector<CompiledKernels>& backends) {
  runtime::vm::Executable exe;
  ExecutableTables tables(exe);
  std::vector<std::pair<relax::GlobalVar, Ref<Object>>> kernels;
  // Every module function gets its entry before any bytecode is generated, so that
  // calls may refer to functions defined later.
  for (const auto& [gv, func] : module->functions) {
    FunctionEntry entry;
    entry.name = gv->name;
    if (func.is<relax::FunctionNode>()) {
      entry.kind = FunctionKind::Bytecode;
    } else {
      tir::PrimFunc prim = func.cast<tir::PrimFuncNode>();
      if (is_host_func(prim)) {
        entry.kind = FunctionKind::Host;
        entry.index = static_cast<int64_t>(exe.host_funcs.size());
        exe.host_funcs.push_back(host_func_codegen(prim, gv->name));
      } else {
        entry.kind = FunctionKind::Kernel;
        entry.index = static_cast<int64_t>(kernels.size());
        kernels.emplace_back(gv, func);
      }
    }
    tables.add_function(std::move(entry));
  }
  for (const auto& [gv, func] : module->functions) {
    const auto* relax_func = func.as<relax::FunctionNode>();
    if (relax_func == nullptr) continue;
    int64_t index = tables.function(gv->name);
    exe.functions[index] = bytecode_codegen(func.cast<relax::FunctionNode>(), gv->name, tables);
    if (relax_func->attrs.find("global_symbol") != nullptr) exe.exports.push_back(index);
  }
  if (!kernels.empty()) {
    if (backends.empty()) {
      user_error(module->span) << "the module has TensorIR kernels ('" << kernels[0].first->name
                               << "', ...) but no target was given to compile them for";
    }
    for (const CompiledKernels& compiled : backends) {
      RELAXC_ICHECK(compiled.funcs.size() == kernels.size())
          << "target '" << compiled.target.str() << "' has " << compiled.funcs.size()
          << " compiled kernel functions for the module's " << kernels.size();
      exe.backends.push_back(backend_codegen(compiled));
    }
  }
  return exe;
}

}  // namespace relaxc::codegen
