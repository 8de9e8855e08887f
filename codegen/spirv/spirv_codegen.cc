// SPIR-V code generation for one lowered device kernel.
//
// A visitor over the lowered TensorIR walks the kernel once and drives SpirvBuilder:
// - interface first: buffer params become StorageBuffer variables (set 0, binding i)
//   holding a Block struct of one runtime array; scalar params become members of one
//   push-constant Block, loaded in the entry block; the thread axes are the
//   LocalInvocationId / WorkgroupId built-ins, loaded in the entry block;
// - statements follow SPIR-V's structured control flow: a loop is a header block (the
//   counter's OpPhi, OpLoopMerge, the exit test), a body, a continue block that
//   increments, and a merge block; an if is OpSelectionMerge + OpBranchConditional;
//   T.if_then_else is a selection whose value is an OpPhi, so that only the chosen side
//   is evaluated (it guards out-of-bounds loads);
// - a vectorized loop (passes/tir legalize_vector_loops leaves only those that become
//   vector code: contiguous stores, at most the target's 4 lanes) binds its variable to a
//   vector and emits vector arithmetic; a load of 2 or 4 consecutive 32-bit elements
//   from a read-only storage buffer, at an index that is provably a multiple of the
//   lanes, is one vector load through a second variable of the same binding that views
//   the buffer as an array of vectors (two views of memory nothing writes); other loads
//   and stores go lane by lane, since storage buffers are arrays of scalars;
// - values carry their dtype; an operation between a vector and a scalar broadcasts the
//   scalar, which is how expressions inside a vectorized loop become vector code.
#include "codegen/spirv/spirv_codegen.h"

#include <string>
#include <unordered_set>

#include "codegen/spirv/kernel_codegen.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"

namespace relaxc::codegen {
namespace {

using tir::PrimExpr;
using tir::Stmt;

}  // namespace

SpirvKernel KernelCodegen::run() {
  const tir::PrimFuncNode* func = kernel_.func.get();
  RELAXC_ICHECK(func != nullptr) << "kernel '" << kernel_.name << "' has no function";
  check_dtypes();

  b_.capability(spv::CapabilityShader);
  if (b_.spirv_version() < 0x00010400u) b_.extension("SPV_KHR_storage_buffer_storage_class");

  // The buffers the kernel stores to; the others are declared NonWritable (read-only:
  // a driver may then cache or reorder their loads).
  std::unordered_set<const tir::VarNode*> stored;
  tir::post_order_visit(kernel_.func, [&](const Ref<Object>& node) {
    if (const auto* store = node.as<tir::BufferStoreNode>())
      stored.insert(store->buffer->data.get());
  });
  std::vector<tir::Var> scalars;
  uint32_t binding = 0;
  for (const tir::Var& param : func->params) {
    tir::Buffer buffer = func->buffer_of(param);
    if (buffer.defined()) {
      RELAXC_ICHECK(scalars.empty()) << "kernel '" << kernel_.name << "': buffer param "
                                     << buffer->name << " after a scalar param";
      declare_buffer_param(buffer, binding++, stored.count(buffer->data.get()) == 0);
    } else {
      scalars.push_back(param);
    }
  }

  SpirvId void_type = b_.void_type();
  SpirvId function = b_.begin_function(void_type, b_.function_type(void_type, {}));
  b_.name(function, kernel_.name);
  declare_push_constants(scalars);
  load_thread_axes();
  emit(func->body);
  b_.return_void();
  b_.end_function();

  std::vector<SpirvId> interface;
  for (const auto& [variable, storage] : b_.global_variables()) {
    // Before SPIR-V 1.4 the interface lists Input and Output variables only.
    if (b_.spirv_version() >= 0x00010400u || storage == spv::StorageClassInput) {
      interface.push_back(variable);
    }
  }
  b_.entry_point(spv::ExecutionModelGLCompute, function, kernel_.name, interface);
  std::vector<uint32_t> local_size;
  for (int64_t extent : kernel_.block_size) {
    RELAXC_ICHECK(extent >= 1 && extent <= 0xffffffffLL)
        << "kernel '" << kernel_.name << "' has block size " << extent;
    local_size.push_back(static_cast<uint32_t>(extent));
  }
  b_.execution_mode(function, spv::ExecutionModeLocalSize, local_size);

  SpirvKernel out;
  out.entry_point = kernel_.name;
  out.words = b_.finish();
  out.workgroup_size = kernel_.block_size;
  out.num_buffers = static_cast<int>(binding);
  out.push_constant_bytes = push_constant_bytes_;
  return out;
}

void KernelCodegen::check_dtypes() {
  auto check = [&](DataType dtype, Span span) {
    if (dtype.is_void() || dtype.is_handle()) return;
    if (!target_.supports(dtype.element_of())) {
      user_error(span) << "kernel '" << kernel_.name << "' uses " << dtype.element_of().str()
                       << ", which target '" << target_.str() << "' does not support";
    }
    if (dtype.lanes() > 4) {
      user_error(span) << "kernel '" << kernel_.name << "' uses the vector type " << dtype.str()
                       << "; Vulkan shaders have vectors of 2 to 4 lanes";
    }
  };
  tir::post_order_visit(kernel_.func, [&](const Ref<Object>& node) {
    if (const auto* expr = node.as<tir::PrimExprNode>()) {
      check(expr->dtype, expr->span);
    } else if (const auto* buffer = node.as<tir::BufferNode>()) {
      check(buffer->dtype, buffer->span);
    }
  });
}

void KernelCodegen::declare_buffer_param(const tir::Buffer& buffer, uint32_t binding,
                                         bool read_only) {
  if (buffer->dtype.lanes() != 1) {
    user_error(buffer->span) << "kernel '" << kernel_.name << "': buffer '" << buffer->name
                             << "' of " << buffer->dtype.str()
                             << " cannot be a storage buffer; use a buffer of scalars";
  }
  // SPIR-V's bool has no size in memory: a bool tensor is one byte per element (as the
  // runtime and the CUDA back end store it), read as != 0 and written as 0 or 1.
  DataType dtype = buffer->dtype.is_bool() ? DataType::UInt(8) : buffer->dtype;
  if (buffer->dtype.is_bool() && !target_.supports(dtype)) {
    user_error(buffer->span) << "kernel '" << kernel_.name << "': bool buffer '" << buffer->name
                             << "' is stored as bytes, and target '" << target_.str()
                             << "' has no 8-bit storage";
  }
  if (dtype.bits() == 16) {
    b_.capability(spv::CapabilityStorageBuffer16BitAccess);
    if (b_.spirv_version() < 0x00010600u) b_.extension("SPV_KHR_16bit_storage");
  } else if (dtype.bits() == 8) {
    b_.capability(spv::CapabilityStorageBuffer8BitAccess);
    if (b_.spirv_version() < 0x00010500u) b_.extension("SPV_KHR_8bit_storage");
  }
  SpirvId array = b_.runtime_array_type(type(dtype), static_cast<uint32_t>(dtype.bytes()));
  SpirvId block = b_.block_struct_type({array}, {0});
  SpirvId variable = b_.global_variable(b_.pointer_type(spv::StorageClassStorageBuffer, block),
                                        spv::StorageClassStorageBuffer);
  b_.decorate(variable, spv::DecorationDescriptorSet, {0});
  b_.decorate(variable, spv::DecorationBinding, {binding});
  if (read_only) b_.decorate(variable, spv::DecorationNonWritable);
  b_.name(variable, buffer->name);
  buffers_[buffer->data.get()] = {
      variable,    spv::StorageClassStorageBuffer, buffer->dtype, dtype, binding, read_only,
      buffer->name};
}

void KernelCodegen::declare_push_constants(const std::vector<tir::Var>& scalars) {
  if (scalars.empty()) return;
  std::vector<SpirvId> members;
  std::vector<uint32_t> offsets;
  int offset = 0;
  for (const tir::Var& scalar : scalars) {
    DataType dtype = scalar->dtype;
    RELAXC_ICHECK(!dtype.is_handle())
        << "kernel '" << kernel_.name << "': handle param " << scalar->name << " without a buffer";
    if (dtype.lanes() != 1 || dtype.is_bool() || (dtype.bits() != 32 && dtype.bits() != 64)) {
      user_error(scalar->span) << "kernel '" << kernel_.name << "': scalar param '" << scalar->name
                               << "' is " << dtype.str()
                               << "; push constants hold 32- and 64-bit scalars";
    }
    int size = dtype.bytes();
    offset = (offset + size - 1) / size * size;
    members.push_back(type(dtype));
    offsets.push_back(static_cast<uint32_t>(offset));
    offset += size;
  }
  push_constant_bytes_ = offset;
  if (push_constant_bytes_ > target_.max_push_constant_bytes) {
    user_error(kernel_.func->span)
        << "kernel '" << kernel_.name << "' needs " << push_constant_bytes_
        << " bytes of push constants for its scalar params; target '" << target_.str()
        << "' allows " << target_.max_push_constant_bytes;
  }
  SpirvId block = b_.block_struct_type(members, offsets);
  SpirvId variable = b_.global_variable(b_.pointer_type(spv::StorageClassPushConstant, block),
                                        spv::StorageClassPushConstant);
  b_.name(variable, "params");
  for (size_t i = 0; i < scalars.size(); ++i) {
    DataType dtype = scalars[i]->dtype;
    SpirvId pointer =
        b_.value(spv::OpAccessChain, b_.pointer_type(spv::StorageClassPushConstant, type(dtype)),
                 {variable, b_.int_constant(DataType::Int(32), static_cast<int64_t>(i))});
    vars_[scalars[i].get()] = op(spv::OpLoad, dtype, {pointer});
  }
}

void KernelCodegen::load_thread_axes() {
  bool uses_thread = false;
  bool uses_block = false;
  tir::post_order_visit(kernel_.func->body, [&](const Ref<Object>& node) {
    const auto* loop = node.as<tir::ForNode>();
    if (loop == nullptr || loop->kind != tir::ForKind::ThreadBinding) return;
    (tir::is_block_index(loop->thread_tag) ? uses_block : uses_thread) = true;
  });
  DataType uvec3 = DataType::UInt(32, 3);
  auto load_builtin = [&](spv::BuiltIn builtin, const char* name) {
    SpirvId variable = b_.global_variable(b_.pointer_type(spv::StorageClassInput, type(uvec3)),
                                          spv::StorageClassInput);
    b_.decorate(variable, spv::DecorationBuiltIn, {static_cast<uint32_t>(builtin)});
    b_.name(variable, name);
    return op(spv::OpLoad, uvec3, {variable});
  };
  if (uses_thread) local_invocation_id_ = load_builtin(spv::BuiltInLocalInvocationId, "threadIdx");
  if (uses_block) workgroup_id_ = load_builtin(spv::BuiltInWorkgroupId, "blockIdx");
}

// --- Statements.

void KernelCodegen::emit_for(const tir::ForNode* loop) {
  switch (loop->kind) {
    case tir::ForKind::ThreadBinding:
      return emit_thread_binding(loop);
    case tir::ForKind::Serial:
      return emit_loop(loop->loop_var, loop->min, loop->extent, spv::LoopControlMaskNone,
                       loop->body);
    case tir::ForKind::Unrolled:
      return emit_loop(loop->loop_var, loop->min, loop->extent, spv::LoopControlUnrollMask,
                       loop->body);
    case tir::ForKind::Vectorized:
      return emit_vectorized(loop);
    case tir::ForKind::Parallel:
      break;
  }
  RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': loop " << loop->loop_var->name << " is "
                       << tir::for_kind_name(loop->kind)
                       << ", which the lowered kernel form does not have";
}

void KernelCodegen::emit_thread_binding(const tir::ForNode* loop) {
  const tir::ThreadAxis& thread_axis = tir::kernel_thread_axis(*loop, kernel_.name);
  bool is_block = !thread_axis.is_thread;
  int axis = thread_axis.dimension;
  SpirvValue ids = is_block ? workgroup_id_ : local_invocation_id_;
  SpirvValue index = op(spv::OpCompositeExtract, DataType::UInt(32), {ids.id, uint32_t(axis)});
  vars_[loop->loop_var.get()] = convert(index, loop->loop_var->dtype);
  // The launch covers a blockIdx extent exactly; a threadIdx loop narrower than the
  // block (two loops sharing threadIdx.x) leaves the remaining threads idle.
  const int64_t* extent = tir::as_const_int(loop->extent);
  if (is_block || (extent != nullptr && *extent == kernel_.block_size[axis])) {
    return emit(loop->body);
  }
  emit(tir::if_then_else(tir::lt(loop->loop_var, loop->extent), loop->body));
}

void KernelCodegen::emit_loop(const tir::Var& loop_var, const PrimExpr& min, const PrimExpr& extent,
                              spv::LoopControlMask control, const Stmt& body) {
  DataType dtype = loop_var->dtype;
  SpirvValue begin = convert(eval(min), dtype);
  SpirvValue end = op(spv::OpIAdd, dtype, {begin.id, convert(eval(extent), dtype).id});
  SpirvId preheader = b_.current_block();
  SpirvId header = b_.new_label(), body_label = b_.new_label(), continue_label = b_.new_label(),
          merge = b_.new_label();
  SpirvId counter = b_.fresh_id(), next = b_.fresh_id();
  b_.branch(header);

  b_.start_block(header);
  b_.value_with_id(spv::OpPhi, type(dtype), counter, {begin.id, preheader, next, continue_label});
  SpirvValue in_range = op(dtype.is_uint() ? spv::OpULessThan : spv::OpSLessThan, DataType::Bool(),
                           {counter, end.id});
  b_.loop_merge(merge, continue_label, control);
  b_.branch_conditional(in_range.id, body_label, merge);

  b_.start_block(body_label);
  vars_[loop_var.get()] = {counter, dtype};
  emit(body);
  b_.branch(continue_label);

  b_.start_block(continue_label);
  b_.value_with_id(spv::OpIAdd, type(dtype), next, {counter, b_.constant(dtype, 1)});
  b_.branch(header);

  b_.start_block(merge);
}

void KernelCodegen::emit_vectorized(const tir::ForNode* loop) {
  const int64_t* extent = tir::as_const_int(loop->extent);
  RELAXC_ICHECK(extent != nullptr) << "kernel '" << kernel_.name << "': vectorized loop "
                                   << loop->loop_var->name << " of a symbolic extent";
  DataType dtype = loop->loop_var->dtype;
  int lanes = static_cast<int>(*extent);
  SpirvValue begin = broadcast(convert(eval(loop->min), dtype), lanes);
  DataType vector = dtype.with_lanes(lanes);
  std::vector<uint32_t> offsets;
  for (int i = 0; i < lanes; ++i) offsets.push_back(b_.constant(dtype, i));
  SpirvValue offset_vector = op(spv::OpCompositeConstruct, vector, offsets);
  vars_[loop->loop_var.get()] = op(spv::OpIAdd, vector, {begin.id, offset_vector.id});
  vector_loop_ = loop;
  emit(loop->body);
  vector_loop_ = nullptr;
}

void KernelCodegen::emit_while(const tir::WhileNode* loop) {
  SpirvId header = b_.new_label(), test = b_.new_label(), body_label = b_.new_label(),
          continue_label = b_.new_label(), merge = b_.new_label();
  b_.branch(header);
  b_.start_block(header);
  b_.loop_merge(merge, continue_label, spv::LoopControlMaskNone);
  b_.branch(test);
  // The test has a block of its own: evaluating it may open selections.
  b_.start_block(test);
  SpirvValue condition = eval(loop->condition);
  b_.branch_conditional(condition.id, body_label, merge);
  b_.start_block(body_label);
  emit(loop->body);
  b_.branch(continue_label);
  b_.start_block(continue_label);
  b_.branch(header);
  b_.start_block(merge);
}

void KernelCodegen::emit_if(const tir::IfThenElseNode* node) {
  SpirvValue condition = eval(node->condition);
  RELAXC_ICHECK(condition.dtype == DataType::Bool())
      << "kernel '" << kernel_.name << "': an if condition of dtype " << condition.dtype.str();
  SpirvId then_label = b_.new_label(), merge = b_.new_label();
  SpirvId else_label = node->else_case.defined() ? b_.new_label() : merge;
  b_.selection_merge(merge);
  b_.branch_conditional(condition.id, then_label, else_label);
  b_.start_block(then_label);
  emit(node->then_case);
  b_.branch(merge);
  if (node->else_case.defined()) {
    b_.start_block(else_label);
    emit(node->else_case);
    b_.branch(merge);
  }
  b_.start_block(merge);
}

void KernelCodegen::emit_store(const tir::BufferStoreNode* store) {
  RELAXC_ICHECK(store->indices.size() == 1)
      << "kernel '" << kernel_.name << "': a store to " << store->buffer->name << " with "
      << store->indices.size() << " indices; the lowered form has flat buffers";
  const BufferBinding& binding = binding_of(store->buffer);
  SpirvValue index = eval(store->indices[0]);
  SpirvValue value = eval(store->value);
  RELAXC_ICHECK(value.dtype.element_of() == binding.dtype)
      << "kernel '" << kernel_.name << "': a " << value.dtype.str() << " value stored to "
      << store->buffer->name << " of " << binding.dtype.str();
  if (index.dtype.lanes() == 1) {
    RELAXC_ICHECK(value.dtype.lanes() == 1)
        << "kernel '" << kernel_.name << "': a vector stored to " << store->buffer->name
        << " at a scalar index";
    b_.instruction(spv::OpStore,
                   {element_pointer(binding, index), convert(value, binding.stored).id});
    return;
  }
  match_lanes(index, value);
  for (int i = 0; i < index.dtype.lanes(); ++i) {
    b_.instruction(spv::OpStore, {element_pointer(binding, lane(index, i)),
                                  convert(lane(value, i), binding.stored).id});
  }
}

void KernelCodegen::emit_allocate(const tir::AllocateNode* node) {
  const tir::Buffer& buffer = node->buffer;
  int64_t size = 1;
  for (const PrimExpr& dim : buffer->shape) {
    const int64_t* extent = tir::as_const_int(dim);
    RELAXC_ICHECK(extent != nullptr && *extent > 0 && *extent <= (int64_t{1} << 31) / size)
        << "kernel '" << kernel_.name << "': allocation of " << buffer->name
        << " without a positive constant size";
    size *= *extent;
  }
  RELAXC_ICHECK(buffer->dtype.lanes() == 1)
      << "kernel '" << kernel_.name << "': allocation of vectors in " << buffer->name;
  spv::StorageClass storage = spv::StorageClassFunction;
  if (buffer->scope == "shared") {
    storage = spv::StorageClassWorkgroup;
  } else {
    RELAXC_ICHECK(buffer->scope == "local")
        << "kernel '" << kernel_.name << "': allocation of " << buffer->name << " in scope '"
        << buffer->scope << "'; kernels allocate in 'shared' or 'local'";
  }
  SpirvId array = b_.array_type(type(buffer->dtype), static_cast<uint32_t>(size));
  SpirvId pointer = b_.pointer_type(storage, array);
  SpirvId variable = storage == spv::StorageClassWorkgroup ? b_.global_variable(pointer, storage)
                                                           : b_.function_variable(pointer);
  b_.name(variable, buffer->name);
  buffers_[buffer->data.get()] = {variable, storage, buffer->dtype, buffer->dtype};
  emit(node->body);
}

void KernelCodegen::emit_evaluate(const tir::EvaluateNode* node) {
  const auto* call = node->value.as<tir::CallNode>();
  if (call != nullptr && call->op == "tir.tvm_storage_sync") {
    const auto* scope = call->args.empty() ? nullptr : call->args[0].as<tir::StringImmNode>();
    RELAXC_ICHECK(scope != nullptr && scope->value == "shared")
        << "kernel '" << kernel_.name << "': T.tvm_storage_sync of a scope other than 'shared'";
    // Storage buffers too: a block's threads also exchange per-block results through global
    // memory (insert_shared_barriers), as CUDA's __syncthreads allows.
    uint32_t semantics = spv::MemorySemanticsAcquireReleaseMask |
                         spv::MemorySemanticsWorkgroupMemoryMask |
                         spv::MemorySemanticsUniformMemoryMask;
    b_.instruction(spv::OpControlBarrier,
                   {b_.uint32_constant(spv::ScopeWorkgroup),
                    b_.uint32_constant(spv::ScopeWorkgroup), b_.uint32_constant(semantics)});
    return;
  }
  if (node->value.is<tir::IntImmNode>()) return;
  eval(node->value);
}

SpirvKernel codegen_spirv(const tir::DeviceKernel& kernel, const Target& target) {
  RELAXC_ICHECK(target.kind == TargetKind::Vulkan)
      << "codegen_spirv for target '" << target.str() << "'";
  return KernelCodegen(kernel, target).run();
}

}  // namespace relaxc::codegen
