// Kernel functions and shape functions of an executable: slots are assigned to the
// host vars once, then every host-side expression (dims, workspace sizes, grids,
// scalar arguments, heap stores) becomes an IntProgram over them.
#include "codegen/vm/kernel_func_codegen.h"

#include <utility>

#include "codegen/vm/int_program_codegen.h"
#include "ir/tir/functor.h"

namespace relaxc::codegen {
namespace {

using runtime::vm::IntInstr;
using runtime::vm::IntOp;
using runtime::vm::IntProgram;

// a op b, from the programs of a and b.
IntProgram combine(IntProgram a, const IntProgram& b, IntOp op) {
  a.code.insert(a.code.end(), b.code.begin(), b.code.end());
  a.code.push_back(IntInstr{op, 0});
  return a;
}

// The first variable `e` reads that has no slot, or null.
const tir::VarNode* unbound_var(const tir::PrimExpr& e, const IntSlots& slots) {
  const tir::VarNode* found = nullptr;
  tir::uses_var_if(e, [&](const tir::VarNode* v) {
    if (found == nullptr && slots.vars.count(v) == 0) found = v;
    return found != nullptr;
  });
  return found;
}

IntProgram host_program(const tir::PrimExpr& e, const IntSlots& slots, const std::string& fname,
                        const std::string& what) {
  if (const tir::VarNode* v = unbound_var(e, slots)) {
    user_error(e->span) << "function '" << fname << "': " << what << " uses shape variable '"
                        << v->name << "', which no buffer dimension or scalar parameter binds";
  }
  return int_program_codegen(e, slots, "function '" + fname + "': " + what);
}

// A statement list: SeqStmts flattened, and an implicit root block (no iteration
// variables, no allocations) opened.
void flatten_body(const tir::Stmt& stmt, std::vector<tir::Stmt>& out) {
  if (const auto* seq = stmt.as<tir::SeqStmtNode>()) {
    for (const tir::Stmt& s : seq->seq) flatten_body(s, out);
    return;
  }
  if (const auto* realize = stmt.as<tir::BlockRealizeNode>()) {
    const tir::BlockNode& block = *realize->block;
    if (realize->iter_values.empty() && block.alloc_buffers.empty() && !block.init.defined() &&
        block.match_buffers.empty()) {
      flatten_body(block.body, out);
      return;
    }
  }
  out.push_back(stmt);
}

}  // namespace

runtime::vm::KernelFunc kernel_func_codegen(const tir::LoweredFunc& lowered,
                                            std::span<const int64_t> kernel_indices) {
  RELAXC_ICHECK(kernel_indices.size() == lowered.launches.size())
      << "function '" << lowered.name << "': " << kernel_indices.size() << " kernel indices for "
      << lowered.launches.size() << " launches";
  const std::string& fname = lowered.name;
  runtime::vm::KernelFunc out;
  out.name = fname;
  IntSlots slots;
  auto new_slot = [&](const tir::VarNode* v) {
    int64_t slot = static_cast<int64_t>(slots.vars.size());
    slots.vars.emplace(v, slot);
    return slot;
  };
  for (const tir::Var& param : lowered.source->params) {
    if (lowered.source->buffer_of(param).defined()) continue;
    out.scalar_param_slots.push_back(static_cast<int32_t>(new_slot(param.get())));
  }
  // Dimensions that are a plain variable seen for the first time define it; every
  // dimension's extent is compiled after all are defined (a dim may use a variable a
  // later buffer defines).
  for (const tir::Buffer& buffer : lowered.params) {
    runtime::vm::KernelParam param;
    param.name = buffer->name;
    param.dtype = runtime_dtype(buffer->dtype, "buffer '" + buffer->name + "' of '" + fname + "'");
    for (const tir::PrimExpr& dim : buffer->shape) {
      runtime::vm::KernelDim kdim;
      if (const auto* v = dim.as<tir::VarNode>(); v != nullptr && slots.vars.count(v) == 0) {
        kdim.defines_slot = static_cast<int32_t>(new_slot(v));
      }
      param.shape.push_back(std::move(kdim));
    }
    out.params.push_back(std::move(param));
  }
  for (size_t i = 0; i < lowered.params.size(); ++i) {
    const tir::Buffer& buffer = lowered.params[i];
    for (size_t d = 0; d < buffer->shape.size(); ++d) {
      out.params[i].shape[d].extent =
          host_program(buffer->shape[d], slots, fname,
                       "dimension " + std::to_string(d) + " of buffer '" + buffer->name + "'");
    }
  }
  out.num_slots = static_cast<int32_t>(slots.vars.size());
  // A workspace holds at least one element, so that an empty one is still a valid
  // buffer (devices refuse empty buffers).
  for (const tir::Buffer& ws : lowered.workspaces) {
    std::string what = "the size of workspace '" + ws->name + "'";
    IntProgram elements = runtime::vm::int_constant(1);
    for (const tir::PrimExpr& dim : ws->shape) {
      elements = combine(std::move(elements), host_program(dim, slots, fname, what), IntOp::Mul);
    }
    elements = combine(std::move(elements), runtime::vm::int_constant(1), IntOp::Max);
    IntProgram bytes =
        combine(std::move(elements), runtime::vm::int_constant(ws->dtype.bytes()), IntOp::Mul);
    out.workspaces.push_back(runtime::vm::KernelWorkspace{ws->name, std::move(bytes)});
  }
  for (size_t k = 0; k < lowered.launches.size(); ++k) {
    const tir::KernelLaunch& launch = lowered.launches[k];
    const std::string& kname = launch.kernel.name;
    runtime::vm::KernelLaunchInfo info;
    info.kernel = kernel_indices[k];
    for (int index : launch.buffer_args) info.buffer_args.push_back(index);
    for (const tir::PrimExpr& s : launch.scalar_args) {
      info.scalar_args.push_back(
          host_program(s, slots, fname, "a scalar argument of kernel '" + kname + "'"));
    }
    for (int axis = 0; axis < 3; ++axis) {
      // A launch whose condition fails gets an empty grid, which the VM skips.
      tir::PrimExpr blocks = launch.grid_size[axis];
      if (axis == 0 && launch.condition.defined()) {
        blocks = tir::select(launch.condition, blocks, tir::int_imm(blocks->dtype, 0));
      }
      info.grid[axis] =
          host_program(blocks, slots, fname, "the grid size of kernel '" + kname + "'");
    }
    out.launches.push_back(std::move(info));
  }
  return out;
}

runtime::vm::HostFunc host_func_codegen(const tir::PrimFunc& func, const std::string& name) {
  tir::Buffer heap;
  if (func->params.size() == 1) heap = func->buffer_of(func->params[0]);
  if (!heap.defined() || heap->shape.size() != 1 || heap->dtype != DataType::Int(64)) {
    user_error(func->span) << "host function '" << name
                           << "' must take one parameter, the shape heap: a 1-D int64 buffer";
  }
  const int64_t* heap_size = tir::as_const_int(heap->shape[0]);
  IntSlots slots;
  slots.heap = heap.get();
  runtime::vm::HostFunc out;
  out.name = name;
  std::vector<tir::Stmt> stmts;
  flatten_body(func->body, stmts);
  for (size_t i = 0; i < stmts.size(); ++i) {
    const auto* store = stmts[i].as<tir::BufferStoreNode>();
    const int64_t* slot =
        store != nullptr && store->buffer.same_as(heap) && store->indices.size() == 1
            ? tir::as_const_int(store->indices[0])
            : nullptr;
    if (slot == nullptr) {
      user_error(stmts[i]->span) << "host function '" << name << "': statement " << i
                                 << " must store into the shape heap '" << heap->name
                                 << "' at a constant index";
    }
    if (*slot < 0 || (heap_size != nullptr && *slot >= *heap_size)) {
      user_error(stmts[i]->span) << "host function '" << name << "': heap slot " << *slot
                                 << " is outside the heap '" << heap->name << "'";
    }
    std::string what =
        "host function '" + name + "': " + heap->name + "[" + std::to_string(*slot) + "]";
    out.stores.emplace_back(*slot, int_program_codegen(store->value, slots, what));
  }
  return out;
}

}  // namespace relaxc::codegen
