// SpirvBuilder: a thin emitter of SPIR-V words (ids, cached types and constants, module
// sections in the order the specification requires, structured control flow markers).
#pragma once
#include <spirv/unified1/GLSL.std.450.h>

#include <cstdint>
#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp>
#include <string>
#include <vector>

#include "ir/support/data_type.h"

namespace relaxc::codegen {

using SpirvId = uint32_t;

// A SPIR-V value together with the TensorIR dtype it carries (lanes > 1: a vector).
struct SpirvValue {
  SpirvId id = 0;
  DataType dtype;
};

// Knows nothing of TensorIR beyond DataType: the code generator decides what to emit,
// the builder turns it into words. Types and constants are created once and cached;
// declaring a type that needs a capability (Int64, Float16, ...) declares the capability.
class SpirvBuilder {
 public:
  // `spirv_version` is the module header's version word (0x00010300 for SPIR-V 1.3).
  explicit SpirvBuilder(uint32_t spirv_version);

  uint32_t spirv_version() const { return spirv_version_; }
  SpirvId fresh_id() { return next_id_++; }

  // --- Module-level declarations (each deduplicated).
  void capability(spv::Capability capability);
  void extension(const std::string& name);
  SpirvId glsl_std_450();
  void name(SpirvId id, const std::string& text);
  void decorate(SpirvId id, spv::Decoration decoration, std::vector<uint32_t> literals = {});
  void member_decorate(SpirvId struct_type, uint32_t member, spv::Decoration decoration,
                       std::vector<uint32_t> literals = {});

  // --- Types.
  SpirvId void_type();
  SpirvId bool_type();
  SpirvId int_type(int bits, bool is_signed);
  SpirvId float_type(int bits);
  SpirvId vector_type(SpirvId component, int lanes);
  // The SPIR-V type of a TensorIR dtype (bool, int, uint, float; vectors by lanes).
  SpirvId type_of(DataType dtype);
  SpirvId pointer_type(spv::StorageClass storage, SpirvId pointee);
  // A runtime array decorated with ArrayStride (for storage buffers).
  SpirvId runtime_array_type(SpirvId element, uint32_t stride);
  // A fixed-size array without layout decorations (for Workgroup and Function storage).
  SpirvId array_type(SpirvId element, uint32_t length);
  // A struct decorated Block whose members are at the given byte offsets; not cached,
  // since member names and decorations belong to one struct.
  SpirvId block_struct_type(const std::vector<SpirvId>& members,
                            const std::vector<uint32_t>& offsets);
  SpirvId function_type(SpirvId return_type, const std::vector<SpirvId>& params);

  // --- Constants (scalars of the given dtype; integers are truncated to its width).
  SpirvId int_constant(DataType dtype, int64_t value);
  SpirvId uint32_constant(uint32_t value) { return int_constant(DataType::UInt(32), value); }
  SpirvId float_constant(DataType dtype, double value);
  SpirvId bool_constant(bool value);
  // A constant of `dtype` holding `value` (in every lane), for int, uint, float and bool.
  SpirvId constant(DataType dtype, double value);

  // --- Variables.
  SpirvId global_variable(SpirvId pointer_type, spv::StorageClass storage);
  // A Function-storage variable, placed at the top of the function's first block.
  SpirvId function_variable(SpirvId pointer_type);
  // Every global variable declared so far, in order (the entry point's interface).
  const std::vector<std::pair<SpirvId, spv::StorageClass>>& global_variables() const {
    return globals_;
  }

  // --- Entry point and function.
  void entry_point(spv::ExecutionModel model, SpirvId function, const std::string& name,
                   const std::vector<SpirvId>& interface);
  void execution_mode(SpirvId function, spv::ExecutionMode mode, std::vector<uint32_t> literals);
  // Opens a function of type `function_type` returning `return_type` and its first block.
  SpirvId begin_function(SpirvId return_type, SpirvId function_type);
  void end_function();

  // --- Instructions in the current block.
  // An instruction with a result: OpX %result_type %fresh operands...
  SpirvId value(spv::Op op, SpirvId result_type, const std::vector<uint32_t>& operands);
  // The same with a result id reserved earlier (loop counters refer to it before it exists).
  void value_with_id(spv::Op op, SpirvId result_type, SpirvId result,
                     const std::vector<uint32_t>& operands);
  // An instruction without a result.
  void instruction(spv::Op op, const std::vector<uint32_t>& operands);
  SpirvId glsl(GLSLstd450 op, SpirvId result_type, const std::vector<SpirvId>& operands);

  // --- Blocks and structured control flow.
  SpirvId new_label() { return fresh_id(); }
  // Starts the block `label`; the previous block must have ended with a branch.
  void start_block(SpirvId label);
  SpirvId current_block() const { return current_block_; }
  void branch(SpirvId target);
  void branch_conditional(SpirvId condition, SpirvId true_label, SpirvId false_label);
  void return_void();
  // OpLoopMerge: the current block is a loop header with the given merge and continue
  // blocks; it must end next with a branch.
  void loop_merge(SpirvId merge, SpirvId continue_target, spv::LoopControlMask control);
  // OpSelectionMerge: the current block ends next with a conditional branch.
  void selection_merge(SpirvId merge);

  // The module's words: header, then the sections in the required order.
  std::vector<uint32_t> finish() const;

 private:
  static void append(std::vector<uint32_t>& section, spv::Op op,
                     const std::vector<uint32_t>& operands);
  static std::vector<uint32_t> string_words(const std::string& text);
  SpirvId cached_type(const std::string& key, spv::Op op, const std::vector<uint32_t>& operands);

  uint32_t spirv_version_;
  SpirvId next_id_ = 1;
  SpirvId current_block_ = 0;
  SpirvId glsl_std_450_ = 0;

  std::set<spv::Capability> capability_set_;
  std::set<std::string> extension_set_;
  std::vector<uint32_t> capabilities_, extensions_, imports_, entry_points_, execution_modes_,
      debug_names_, annotations_, types_and_globals_, function_header_, function_vars_,
      function_body_;
  std::map<std::string, SpirvId> types_, constants_;
  std::vector<std::pair<SpirvId, spv::StorageClass>> globals_;
};

}  // namespace relaxc::codegen
