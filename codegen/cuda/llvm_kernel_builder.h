// The NVPTX code generator's visitor over one lowered kernel: LLVM IR through
// llvm::IRBuilder, shared by the files that emit its statements (llvm_kernel_builder.cc)
// and its expressions (llvm_expressions.cc).
#pragma once
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cstdint>
#include <string>
#include <unordered_map>

#include "codegen/kernel_walker.h"
#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"
#include "ir/tir/stmt.h"

namespace relaxc::codegen {

// An LLVM value and the TensorIR dtype it holds (LLVM's integers carry no signedness).
struct LlvmValue {
  llvm::Value* value = nullptr;
  DataType dtype;
};

// Where a buffer's elements live.
struct LlvmBuffer {
  llvm::Value* base = nullptr;  // the address of element 0
  DataType dtype;
  uint64_t alignment = 1;  // of `base`, in bytes
};

// Emits one kernel as a function of `module`; run() once. With `libdevice`, math
// functions are calls of libdevice functions that the caller links afterwards.
class LlvmKernelBuilder : public KernelWalker<LlvmKernelBuilder, LlvmValue> {
 public:
  LlvmKernelBuilder(const tir::DeviceKernel& kernel, const Target& target, llvm::Module& module,
                    bool libdevice);

  llvm::Function* run();

 private:
  friend class KernelWalker<LlvmKernelBuilder, LlvmValue>;

  // A contiguous vector access: `lanes` elements from the index `start`.
  struct VectorAccess {
    int lanes = 1;
    tir::PrimExpr start;  // null when the lanes are not contiguous
  };

  // --- Interface.
  void check_dtypes();
  llvm::Function* declare_function();
  void annotate(llvm::Function* function);

  // --- Statements (the hooks of KernelWalker::emit, and their parts).
  void emit_for(const tir::ForNode* loop);
  void emit_thread_binding(const tir::ForNode* loop);
  void emit_loop(const tir::ForNode* loop, bool unroll);
  void emit_vectorized(const tir::ForNode* loop);
  void emit_while(const tir::WhileNode* loop);
  void emit_if(const tir::IfThenElseNode* node);
  void emit_store(const tir::BufferStoreNode* store);
  void emit_allocate(const tir::AllocateNode* node);
  void emit_evaluate(const tir::EvaluateNode* node);

  // --- Expressions (the hooks of KernelWalker::eval, and their parts).
  LlvmValue eval_int_imm(const tir::IntImmNode* imm);
  LlvmValue eval_float_imm(const tir::FloatImmNode* imm);
  LlvmValue eval_not(LlvmValue a);
  LlvmValue eval_select(const tir::SelectNode* select);
  LlvmValue eval_ramp(const tir::RampNode* ramp);
  LlvmValue eval_binary(NodeKind kind, const tir::PrimExpr& a, const tir::PrimExpr& b);
  LlvmValue eval_compare(NodeKind kind, const tir::PrimExpr& a, const tir::PrimExpr& b);
  LlvmValue eval_floor_div_mod(NodeKind kind, LlvmValue x, LlvmValue y);
  LlvmValue eval_load(const tir::BufferLoadNode* load);
  LlvmValue eval_call(const tir::CallNode* call);
  LlvmValue eval_if_then_else(const tir::CallNode* call);
  LlvmValue eval_bit_operation(const tir::CallNode* call);
  LlvmValue eval_math(const tir::CallNode* call);
  LlvmValue eval_shuffle_down(const tir::CallNode* call);
  LlvmValue convert(LlvmValue value, DataType to);
  LlvmValue broadcast(LlvmValue scalar, int lanes);
  // Brings two operands to the same number of lanes.
  void match_lanes(LlvmValue& a, LlvmValue& b);

  // --- Memory.
  // How an access at `index` is vectorized: by the vectorized loop being emitted (its
  // variable in the index) or by a ramp.
  VectorAccess vector_access(const tir::PrimExpr& index);
  // The alignment of a contiguous access of `lanes` elements from `start`.
  uint64_t access_alignment(const LlvmBuffer& buffer, const tir::PrimExpr& start, int lanes);
  llvm::Value* element_pointer(const LlvmBuffer& buffer, LlvmValue index);
  llvm::Value* load_element(const LlvmBuffer& buffer, llvm::Value* pointer, int lanes,
                            uint64_t alignment);
  void store_element(llvm::Value* pointer, LlvmValue value, uint64_t alignment);
  const LlvmBuffer& buffer_of(const tir::Buffer& buffer);
  llvm::Value* special_register(bool block_index, int axis, int64_t extent);

  // The register type of `dtype`, and its type in memory (a bool is a byte there).
  llvm::Type* type_of(DataType dtype);
  llvm::Type* memory_type_of(DataType dtype);

  const Target& target_;
  llvm::Module& module_;
  llvm::LLVMContext& context_;
  llvm::IRBuilder<> b_;
  bool libdevice_;
  llvm::BasicBlock* entry_ = nullptr;  // holds the allocas of local buffers
  std::unordered_map<const tir::VarNode*, LlvmBuffer> buffers_;
  // The vectorized loop being emitted as vector code, if any: its variable is a vector.
  const tir::ForNode* vector_loop_ = nullptr;
};

}  // namespace relaxc::codegen
