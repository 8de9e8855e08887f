// The NVPTX code generator's interface and statements for one lowered kernel.
//
// - The kernel is a function with the PTX_Kernel calling convention (and the "kernel"
//   annotation of !nvvm.annotations, which LLVM's NVPTX back end also reads), its block
//   size as `.reqntid` (and `.minnctapersm 1` for one warp, see annotate). Its
//   parameters follow the kernel ABI: a `ptr addrspace(1)` per buffer (noalias, and
//   readonly or writeonly where the kernel only reads or writes it), then the int32 /
//   int64 scalars. Buffer arguments are device allocations, which the driver aligns to
//   256 bytes; the code assumes 16.
// - threadIdx / blockIdx are the special registers %tid / %ctaid (read through the NVVM
//   intrinsics, with their value ranges, which lets LLVM simplify index arithmetic).
// - Loops are a header with the counter's phi and the exit test, a body and a latch; an
//   unrolled loop carries llvm.loop.unroll.full. A vectorized loop (passes/tir
//   legalize_vector_loops leaves only those whose body is stores contiguous in the loop
//   variable and expressions) binds that variable to a vector, so that its expressions
//   become vector code and its contiguous loads and stores become vector loads and stores
//   (ld.global.v4.f32 ...), aligned as far as arith can prove.
// - "shared" allocations are addrspace(3) globals (internal, 16-byte aligned); "local"
//   ones are allocas in the entry block, which LLVM promotes to registers where it can.
// - T.tvm_storage_sync("shared") is llvm.nvvm.barrier0 (bar.sync 0), which also orders the
//   block's global memory accesses.
#include "codegen/cuda/llvm_kernel_builder.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cctype>
#include <climits>
#include <unordered_set>

#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"

namespace relaxc::codegen {
namespace {

using tir::PrimExpr;
using tir::Stmt;

constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;
constexpr uint64_t kBufferAlignment = 16;

}  // namespace

LlvmKernelBuilder::LlvmKernelBuilder(const tir::DeviceKernel& kernel, const Target& target,
                                     llvm::Module& module, bool libdevice)
    : KernelWalker(kernel),
      target_(target),
      module_(module),
      context_(module.getContext()),
      b_(module.getContext()),
      libdevice_(libdevice) {}

llvm::Function* LlvmKernelBuilder::run() {
  RELAXC_ICHECK(kernel_.func.defined()) << "kernel '" << kernel_.name << "' has no function";
  check_dtypes();
  llvm::Function* function = declare_function();
  entry_ = llvm::BasicBlock::Create(context_, "entry", function);
  b_.SetInsertPoint(entry_);
  emit(kernel_.func->body);
  b_.CreateRetVoid();
  annotate(function);
  return function;
}

void LlvmKernelBuilder::check_dtypes() {
  auto check = [&](DataType dtype, Span span) {
    if (dtype.is_void() || dtype.is_handle()) return;
    DataType element = dtype.element_of();
    if (target_.supports(element) && (element.is_integer() || element.bits() >= 16)) return;
    std::string why;
    if (element.is_bfloat()) {
      why = "; bfloat16 arithmetic needs sm_80 or later";
    } else if (element.is_float() && element.bits() == 16) {
      why = "; float16 arithmetic needs sm_53 or later";
    }
    user_error(span) << "kernel '" << kernel_.name << "' uses " << element.str()
                     << ", which target '" << target_.str() << "' does not support" << why;
  };
  tir::post_order_visit(kernel_.func, [&](const Ref<Object>& node) {
    if (const auto* expr = node.as<tir::PrimExprNode>()) {
      check(expr->dtype, expr->span);
    } else if (const auto* buffer = node.as<tir::BufferNode>()) {
      check(buffer->dtype, buffer->span);
    }
  });
}

llvm::Function* LlvmKernelBuilder::declare_function() {
  const tir::PrimFuncNode* func = kernel_.func.get();
  for (char c : kernel_.name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') {
      user_error(func->span) << "kernel '" << kernel_.name
                             << "' cannot be a PTX entry point: its name may hold only letters, "
                                "digits and '_'";
    }
  }
  std::unordered_set<const tir::VarNode*> loaded, stored;
  tir::post_order_visit(func->body, [&](const Ref<Object>& node) {
    if (const auto* load = node.as<tir::BufferLoadNode>()) loaded.insert(load->buffer->data.get());
    if (const auto* store = node.as<tir::BufferStoreNode>()) {
      stored.insert(store->buffer->data.get());
    }
  });

  std::vector<llvm::Type*> types;
  std::vector<tir::Buffer> buffers;
  for (const tir::Var& param : func->params) {
    tir::Buffer buffer = func->buffer_of(param);
    if (buffer.defined()) {
      RELAXC_ICHECK(types.size() == buffers.size())
          << "kernel '" << kernel_.name << "': buffer param " << buffer->name
          << " after a scalar param";
      buffers.push_back(buffer);
      types.push_back(llvm::PointerType::get(context_, kGlobalAddressSpace));
      continue;
    }
    DataType dtype = param->dtype;
    RELAXC_ICHECK(!dtype.is_handle())
        << "kernel '" << kernel_.name << "': handle param " << param->name << " without a buffer";
    if (dtype != DataType::Int(32) && dtype != DataType::Int(64)) {
      user_error(param->span) << "kernel '" << kernel_.name << "': scalar param '" << param->name
                              << "' is " << dtype.str()
                              << "; CUDA kernels take int32 and int64 scalars";
    }
    types.push_back(type_of(dtype));
  }
  auto* function =
      llvm::Function::Create(llvm::FunctionType::get(b_.getVoidTy(), types, false),
                             llvm::GlobalValue::ExternalLinkage, kernel_.name, module_);
  function->setCallingConv(llvm::CallingConv::PTX_Kernel);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  for (size_t i = 0; i < func->params.size(); ++i) {
    llvm::Argument* arg = function->getArg(static_cast<unsigned>(i));
    if (i >= buffers.size()) {
      arg->setName(func->params[i]->name);
      vars_[func->params[i].get()] = {arg, func->params[i]->dtype};
      continue;
    }
    const tir::Buffer& buffer = buffers[i];
    arg->setName(buffer->name);
    arg->addAttr(llvm::Attribute::NoAlias);
    arg->addAttr(llvm::Attribute::NoCapture);
    const tir::VarNode* data = buffer->data.get();
    if (!stored.count(data)) arg->addAttr(llvm::Attribute::ReadOnly);
    if (!loaded.count(data)) arg->addAttr(llvm::Attribute::WriteOnly);
    if (buffer->dtype.lanes() != 1) {
      user_error(buffer->span) << "kernel '" << kernel_.name << "': buffer '" << buffer->name
                               << "' of " << buffer->dtype.str()
                               << " has vector elements; kernel buffers hold scalars";
    }
    buffers_[data] = {arg, buffer->dtype, kBufferAlignment};
  }
  return function;
}

void LlvmKernelBuilder::annotate(llvm::Function* function) {
  // !nvvm.annotations: {kernel, "kernel", 1, "reqntidx", x, "reqntidy", y, "reqntidz", z
  // [, "minctasm", 1]}.
  auto number = [&](int64_t value) {
    return llvm::ConstantAsMetadata::get(b_.getInt32(static_cast<uint32_t>(value)));
  };
  std::vector<llvm::Metadata*> fields = {llvm::ConstantAsMetadata::get(function),
                                         llvm::MDString::get(context_, "kernel"), number(1)};
  static const char* kAxes[] = {"reqntidx", "reqntidy", "reqntidz"};
  for (int axis = 0; axis < 3; ++axis) {
    int64_t extent = kernel_.block_size[axis];
    RELAXC_ICHECK(extent >= 1 && extent <= target_.max_block_size[axis])
        << "kernel '" << kernel_.name << "' has block size " << extent << " on axis " << axis;
    fields.push_back(llvm::MDString::get(context_, kAxes[axis]));
    fields.push_back(number(extent));
  }
  // A block of one warp asks for one block per multiprocessor (`.minnctapersm 1`). Left
  // alone, ptxas caps such a block at 168 registers, and the 32-thread matmul tiles of 8 x
  // 8 outputs per thread (chosen where an extent undercuts the larger tiles: few, heavy
  // threads) spilled on sm_90. Larger blocks are left to ptxas: given the same hint, it
  // spends registers on them that cost blocks per multiprocessor (an elementwise kernel of
  // 256 threads went from 32 to 45).
  if (kernel_.block_size[0] * kernel_.block_size[1] * kernel_.block_size[2] <=
      target_.subgroup_size) {
    fields.push_back(llvm::MDString::get(context_, "minctasm"));
    fields.push_back(number(1));
  }
  module_.getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(context_, fields));
}

// --- Statements.

void LlvmKernelBuilder::emit_for(const tir::ForNode* loop) {
  switch (loop->kind) {
    case tir::ForKind::ThreadBinding:
      return emit_thread_binding(loop);
    case tir::ForKind::Serial:
      return emit_loop(loop, false);
    case tir::ForKind::Unrolled:
      return emit_loop(loop, true);
    case tir::ForKind::Vectorized:
      return emit_vectorized(loop);
    case tir::ForKind::Parallel:
      break;
  }
  RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': loop " << loop->loop_var->name << " is "
                       << tir::for_kind_name(loop->kind)
                       << ", which the lowered kernel form does not have";
}

llvm::Value* LlvmKernelBuilder::special_register(bool block_index, int axis, int64_t extent) {
  static const llvm::Intrinsic::ID kThread[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x,
                                                llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                                                llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
  static const llvm::Intrinsic::ID kBlock[] = {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
                                               llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                                               llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
  llvm::CallInst* call = b_.CreateIntrinsic(block_index ? kBlock[axis] : kThread[axis], {}, {});
  // The register lies in [0, extent): the block size, or the launch's grid size.
  int64_t limit = block_index ? target_.max_grid_size[axis] : kernel_.block_size[axis];
  if (extent > 0 && extent < limit) limit = extent;
  if (limit >= 1 && limit <= INT32_MAX) {
    call->addRangeRetAttr(llvm::ConstantRange(llvm::APInt(32, 0), llvm::APInt(32, limit)));
  }
  return call;
}

void LlvmKernelBuilder::emit_thread_binding(const tir::ForNode* loop) {
  const tir::ThreadAxis& thread_axis = tir::kernel_thread_axis(*loop, kernel_.name);
  bool is_block = !thread_axis.is_thread;
  int axis = thread_axis.dimension;
  const int64_t* extent = tir::as_const_int(loop->extent);
  llvm::Value* index = special_register(is_block, axis, extent != nullptr ? *extent : 0);
  // The registers are non-negative: zero-extension is exact.
  vars_[loop->loop_var.get()] = convert({index, DataType::UInt(32)}, loop->loop_var->dtype);
  // The launch covers a blockIdx extent exactly; a threadIdx loop narrower than the block
  // (two loops sharing threadIdx.x) leaves the remaining threads idle.
  if (is_block || (extent != nullptr && *extent == kernel_.block_size[axis])) {
    return emit(loop->body);
  }
  emit(tir::if_then_else(tir::lt(loop->loop_var, loop->extent), loop->body));
}

void LlvmKernelBuilder::emit_loop(const tir::ForNode* loop, bool unroll) {
  DataType dtype = loop->loop_var->dtype;
  RELAXC_ICHECK(dtype.is_integer() && !dtype.is_bool() && dtype.lanes() == 1)
      << "kernel '" << kernel_.name << "': loop " << loop->loop_var->name << " of " << dtype.str();
  bool is_signed = dtype.is_int();
  llvm::Value* begin = convert(eval(loop->min), dtype).value;
  llvm::Value* end = b_.CreateAdd(begin, convert(eval(loop->extent), dtype).value);
  llvm::Function* function = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* preheader = b_.GetInsertBlock();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "for.header", function);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "for.body", function);
  llvm::BasicBlock* latch = llvm::BasicBlock::Create(context_, "for.latch", function);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(context_, "for.end", function);
  b_.CreateBr(header);

  b_.SetInsertPoint(header);
  llvm::PHINode* counter = b_.CreatePHI(type_of(dtype), 2, loop->loop_var->name);
  counter->addIncoming(begin, preheader);
  llvm::Value* in_range =
      is_signed ? b_.CreateICmpSLT(counter, end) : b_.CreateICmpULT(counter, end);
  b_.CreateCondBr(in_range, body, exit);

  b_.SetInsertPoint(body);
  vars_[loop->loop_var.get()] = {counter, dtype};
  emit(loop->body);
  b_.CreateBr(latch);

  b_.SetInsertPoint(latch);
  llvm::Value* next = b_.CreateAdd(counter, llvm::ConstantInt::get(counter->getType(), 1), "",
                                   /*HasNUW=*/!is_signed, /*HasNSW=*/is_signed);
  counter->addIncoming(next, latch);
  llvm::BranchInst* back_edge = b_.CreateBr(header);
  if (unroll) {
    llvm::MDNode* full =
        llvm::MDNode::get(context_, llvm::MDString::get(context_, "llvm.loop.unroll.full"));
    llvm::MDNode* loop_id = llvm::MDNode::getDistinct(context_, {nullptr, full});
    loop_id->replaceOperandWith(0, loop_id);
    back_edge->setMetadata(llvm::LLVMContext::MD_loop, loop_id);
  }
  b_.SetInsertPoint(exit);
}

void LlvmKernelBuilder::emit_vectorized(const tir::ForNode* loop) {
  const int64_t* extent = tir::as_const_int(loop->extent);
  RELAXC_ICHECK(extent != nullptr && vector_loop_ == nullptr)
      << "kernel '" << kernel_.name << "': vectorized loop " << loop->loop_var->name
      << " of a symbolic extent, or inside another";
  DataType dtype = loop->loop_var->dtype;
  int lanes = static_cast<int>(*extent);
  LlvmValue begin = broadcast(convert(eval(loop->min), dtype), lanes);
  std::vector<llvm::Constant*> offsets;
  for (int i = 0; i < lanes; ++i) {
    offsets.push_back(llvm::ConstantInt::get(type_of(dtype), static_cast<uint64_t>(i)));
  }
  llvm::Value* indices = b_.CreateAdd(begin.value, llvm::ConstantVector::get(offsets));
  vars_[loop->loop_var.get()] = {indices, dtype.with_lanes(lanes)};
  vector_loop_ = loop;
  emit(loop->body);
  vector_loop_ = nullptr;
}

void LlvmKernelBuilder::emit_while(const tir::WhileNode* loop) {
  llvm::Function* function = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* header = llvm::BasicBlock::Create(context_, "while.header", function);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(context_, "while.body", function);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(context_, "while.end", function);
  b_.CreateBr(header);
  b_.SetInsertPoint(header);
  LlvmValue condition = eval(loop->condition);
  RELAXC_ICHECK(condition.dtype == DataType::Bool())
      << "kernel '" << kernel_.name << "': a while condition of dtype " << condition.dtype.str();
  b_.CreateCondBr(condition.value, body, exit);
  b_.SetInsertPoint(body);
  emit(loop->body);
  b_.CreateBr(header);
  b_.SetInsertPoint(exit);
}

void LlvmKernelBuilder::emit_if(const tir::IfThenElseNode* node) {
  LlvmValue condition = eval(node->condition);
  RELAXC_ICHECK(condition.dtype == DataType::Bool())
      << "kernel '" << kernel_.name << "': an if condition of dtype " << condition.dtype.str();
  llvm::Function* function = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* then_block = llvm::BasicBlock::Create(context_, "if.then", function);
  llvm::BasicBlock* merge = llvm::BasicBlock::Create(context_, "if.end", function);
  llvm::BasicBlock* else_block =
      node->else_case.defined() ? llvm::BasicBlock::Create(context_, "if.else", function) : merge;
  b_.CreateCondBr(condition.value, then_block, else_block);
  b_.SetInsertPoint(then_block);
  emit(node->then_case);
  b_.CreateBr(merge);
  if (node->else_case.defined()) {
    b_.SetInsertPoint(else_block);
    emit(node->else_case);
    b_.CreateBr(merge);
  }
  // Keep the blocks in program order: the merge block after both branches.
  merge->moveAfter(b_.GetInsertBlock());
  b_.SetInsertPoint(merge);
}

void LlvmKernelBuilder::emit_store(const tir::BufferStoreNode* store) {
  RELAXC_ICHECK(store->indices.size() == 1)
      << "kernel '" << kernel_.name << "': a store to " << store->buffer->name << " with "
      << store->indices.size() << " indices; the lowered form has flat buffers";
  const LlvmBuffer& buffer = buffer_of(store->buffer);
  LlvmValue value = eval(store->value);
  RELAXC_ICHECK(value.dtype.element_of() == buffer.dtype)
      << "kernel '" << kernel_.name << "': a " << value.dtype.str() << " value stored to "
      << store->buffer->name << " of " << buffer.dtype.str();
  VectorAccess access = vector_access(store->indices[0]);
  if (access.start.defined()) {
    value = broadcast(value, access.lanes);
    RELAXC_ICHECK(value.dtype.lanes() == access.lanes)
        << "kernel '" << kernel_.name << "': " << value.dtype.str() << " stored to " << access.lanes
        << " elements of " << store->buffer->name;
    LlvmValue start = eval(access.start);
    store_element(element_pointer(buffer, start), value,
                  access_alignment(buffer, access.start, access.lanes));
    return;
  }
  LlvmValue index = eval(store->indices[0]);
  if (index.dtype.lanes() == 1) {
    RELAXC_ICHECK(value.dtype.lanes() == 1)
        << "kernel '" << kernel_.name << "': a vector stored to " << store->buffer->name
        << " at a scalar index";
    store_element(element_pointer(buffer, index), value, buffer.dtype.bytes());
    return;
  }
  // A scatter: lane by lane.
  match_lanes(index, value);
  for (int i = 0; i < index.dtype.lanes(); ++i) {
    LlvmValue lane_index = {b_.CreateExtractElement(index.value, i), index.dtype.element_of()};
    LlvmValue lane_value = {b_.CreateExtractElement(value.value, i), value.dtype.element_of()};
    store_element(element_pointer(buffer, lane_index), lane_value, buffer.dtype.bytes());
  }
}

void LlvmKernelBuilder::emit_allocate(const tir::AllocateNode* node) {
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
  auto* array = llvm::ArrayType::get(memory_type_of(buffer->dtype), static_cast<uint64_t>(size));
  llvm::Value* base = nullptr;
  if (buffer->scope == "shared") {
    // Shared memory has no initializer: its contents are undefined at kernel start.
    auto* variable = new llvm::GlobalVariable(
        module_, array, false, llvm::GlobalValue::InternalLinkage, llvm::UndefValue::get(array),
        buffer->name, nullptr, llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
    variable->setAlignment(llvm::Align(kBufferAlignment));
    base = variable;
  } else {
    RELAXC_ICHECK(buffer->scope == "local")
        << "kernel '" << kernel_.name << "': allocation of " << buffer->name << " in scope '"
        << buffer->scope << "'; kernels allocate in 'shared' or 'local'";
    llvm::IRBuilder<> at_entry(entry_, entry_->begin());
    llvm::AllocaInst* alloca = at_entry.CreateAlloca(array, nullptr, buffer->name);
    alloca->setAlignment(llvm::Align(kBufferAlignment));
    base = alloca;
  }
  buffers_[buffer->data.get()] = {base, buffer->dtype, kBufferAlignment};
  emit(node->body);
}

void LlvmKernelBuilder::emit_evaluate(const tir::EvaluateNode* node) {
  const auto* call = node->value.as<tir::CallNode>();
  if (call != nullptr && call->op == "tir.tvm_storage_sync") {
    const auto* scope = call->args.empty() ? nullptr : call->args[0].as<tir::StringImmNode>();
    RELAXC_ICHECK(scope != nullptr && scope->value == "shared")
        << "kernel '" << kernel_.name << "': T.tvm_storage_sync of a scope other than 'shared'";
    b_.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
    return;
  }
  if (node->value.is<tir::IntImmNode>()) return;
  eval(node->value);
}

}  // namespace relaxc::codegen
