// The SPIR-V code generator's visitor over one lowered kernel, shared by the files that
// emit its statements (spirv_codegen.cc) and its expressions (spirv_expressions.cc).
#pragma once
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "codegen/kernel_walker.h"
#include "codegen/spirv/spirv_builder.h"
#include "codegen/spirv/spirv_codegen.h"
#include "ir/tir/stmt.h"

namespace relaxc::codegen {

// Where a buffer lives and how its elements are reached.
struct BufferBinding {
  SpirvId variable = 0;
  spv::StorageClass storage = spv::StorageClassStorageBuffer;
  DataType dtype;   // the buffer's element type
  DataType stored;  // the type in memory: uint8 for a bool storage buffer, else dtype
  // A storage buffer's descriptor binding, whether the kernel only reads it, and its name.
  uint32_t binding = 0;
  bool read_only = false;
  std::string name;
};

// Emits one kernel; run() once.
class KernelCodegen : public KernelWalker<KernelCodegen, SpirvValue> {
 public:
  KernelCodegen(const tir::DeviceKernel& kernel, const Target& target)
      : KernelWalker(kernel),
        target_(target),
        b_(target.vulkan_version >= 13 ? 0x00010600u : 0x00010300u) {}

  SpirvKernel run();

 private:
  friend class KernelWalker<KernelCodegen, SpirvValue>;

  // --- Interface.
  void check_dtypes();
  // `read_only`: the kernel never stores to it (decorated NonWritable).
  void declare_buffer_param(const tir::Buffer& buffer, uint32_t binding, bool read_only);
  void declare_push_constants(const std::vector<tir::Var>& scalars);
  void load_thread_axes();

  // --- Statements (the hooks of KernelWalker::emit, and their parts).
  void emit_for(const tir::ForNode* loop);
  void emit_thread_binding(const tir::ForNode* loop);
  void emit_loop(const tir::Var& loop_var, const tir::PrimExpr& min, const tir::PrimExpr& extent,
                 spv::LoopControlMask control, const tir::Stmt& body);
  void emit_vectorized(const tir::ForNode* loop);
  void emit_while(const tir::WhileNode* loop);
  void emit_if(const tir::IfThenElseNode* node);
  void emit_store(const tir::BufferStoreNode* store);
  void emit_allocate(const tir::AllocateNode* node);
  void emit_evaluate(const tir::EvaluateNode* node);

  // --- Expressions (the hooks of KernelWalker::eval, and their parts).
  SpirvValue eval_int_imm(const tir::IntImmNode* imm);
  SpirvValue eval_float_imm(const tir::FloatImmNode* imm);
  SpirvValue eval_binary(NodeKind kind, const tir::PrimExpr& a, const tir::PrimExpr& b);
  SpirvValue eval_compare(NodeKind kind, const tir::PrimExpr& a, const tir::PrimExpr& b);
  SpirvValue eval_not(SpirvValue a);
  SpirvValue eval_select(const tir::SelectNode* select);
  SpirvValue eval_ramp(const tir::RampNode* ramp);
  SpirvValue eval_load(const tir::BufferLoadNode* load);
  SpirvValue eval_call(const tir::CallNode* call);
  SpirvValue eval_if_then_else(const tir::CallNode* call);
  SpirvValue eval_bit_operation(const tir::CallNode* call);
  SpirvValue eval_floor_div_mod(NodeKind kind, SpirvValue a, SpirvValue b);
  // The truncated remainder of signed x / y, given their OpSDiv quotient: x - q * y.
  // Vulkan's SPIR-V environment leaves OpSRem and OpSMod undefined for negative
  // operands (NVIDIA's driver returns other values than lavapipe), OpSDiv is defined.
  SpirvValue signed_remainder(SpirvValue x, SpirvValue y, SpirvValue quotient);
  SpirvValue convert(SpirvValue value, DataType to);
  // The int32 value that an int64 value sign-extends (a conversion or a constant), or an
  // id of 0 when it is not known to be one.
  SpirvValue as_int32(SpirvValue value) const;
  SpirvValue broadcast(SpirvValue scalar, int lanes);
  // Brings two operands to the same number of lanes.
  void match_lanes(SpirvValue& a, SpirvValue& b);
  SpirvValue lane(SpirvValue vector, int index);
  SpirvId element_pointer(const BufferBinding& binding, SpirvValue index);
  // A load of `lanes` consecutive elements from `index` on as one vector, through a view of
  // the read-only storage buffer as an array of vectors; an invalid value where the
  // access is not that (see eval_load).
  SpirvValue vector_load(const BufferBinding& binding, const tir::PrimExpr& index);
  SpirvId vector_view(const BufferBinding& binding, int lanes);
  const BufferBinding& binding_of(const tir::Buffer& buffer);
  SpirvId type(DataType dtype) { return b_.type_of(dtype); }
  SpirvValue op(spv::Op code, DataType dtype, std::vector<uint32_t> operands) {
    return {b_.value(code, type(dtype), operands), dtype};
  }

  const Target& target_;
  SpirvBuilder b_;
  std::unordered_map<const tir::VarNode*, BufferBinding> buffers_;
  // Views of read-only storage buffers as arrays of vectors, by (variable, lanes).
  std::map<std::pair<SpirvId, int>, SpirvId> vector_views_;
  const tir::ForNode* vector_loop_ = nullptr;             // the vectorized loop being emitted
  std::unordered_map<SpirvId, SpirvValue> narrow_int64_;  // see as_int32
  SpirvValue local_invocation_id_, workgroup_id_;         // uvec3, loaded in the entry block
  int push_constant_bytes_ = 0;
};

}  // namespace relaxc::codegen
