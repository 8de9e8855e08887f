// Tests of SpirvBuilder: constant encodings (fp16 rounding, narrow and 64-bit integers),
// caching of types and constants, capabilities declared once and by the types that need
// them, and a minimal module that validates.
#include "codegen/spirv/spirv_builder.h"

#include <gtest/gtest.h>

#include <string>

#include "codegen/spirv/spirv_codegen.h"

namespace relaxc::codegen {
namespace {

// A module with an empty GLCompute entry point around whatever `declare` adds.
template <typename F>
std::vector<uint32_t> module_with(F declare) {
  SpirvBuilder b(0x00010300u);
  b.capability(spv::CapabilityShader);
  declare(b);
  SpirvId void_type = b.void_type();
  SpirvId function = b.begin_function(void_type, b.function_type(void_type, {}));
  b.return_void();
  b.end_function();
  b.entry_point(spv::ExecutionModelGLCompute, function, "main", {});
  b.execution_mode(function, spv::ExecutionModeLocalSize, {1, 1, 1});
  return b.finish();
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(SpirvBuilder, HalfConstantsRoundToNearestEven) {
  std::string text = disassemble_spirv(module_with([](SpirvBuilder& b) {
    b.float_constant(DataType::Float(16), 1.0);
    b.float_constant(DataType::Float(16), 65504.0);                // the largest half
    b.float_constant(DataType::Float(16), 5.9604644775390625e-8);  // the smallest subnormal
    b.float_constant(DataType::Float(16), 0.1);                    // 0x2e66
    b.float_constant(DataType::Float(16), 1.0 + 1.0 / 2048);       // a tie: rounds to even 1.0
    b.float_constant(DataType::Float(16), -2.0);
  }));
  EXPECT_TRUE(has(text, "OpConstant %half 0x1p+0\n"));
  EXPECT_TRUE(has(text, "OpConstant %half 0x1.ffcp+15"));
  EXPECT_TRUE(has(text, "OpConstant %half 0x1p-24"));
  EXPECT_TRUE(has(text, "OpConstant %half 0x1.998p-4"));
  EXPECT_TRUE(has(text, "OpConstant %half -0x1p+1"));
  // The tie produced 1.0 again, which the cache returned: one constant for both.
  EXPECT_FALSE(has(text, "0x1.004p+0"));
  EXPECT_TRUE(has(text, "OpCapability Float16"));
}

TEST(SpirvBuilder, IntegerConstantsOfEveryWidth) {
  std::string text = disassemble_spirv(module_with([](SpirvBuilder& b) {
    b.int_constant(DataType::Int(8), -1);
    b.int_constant(DataType::UInt(8), 255);
    b.int_constant(DataType::Int(64), -5000000000LL);
    b.int_constant(DataType::Int(32), -7);
  }));
  EXPECT_TRUE(has(text, "OpConstant %char -1"));
  EXPECT_TRUE(has(text, "OpConstant %uchar 255"));
  EXPECT_TRUE(has(text, "OpConstant %long -5000000000"));
  EXPECT_TRUE(has(text, "OpConstant %int -7"));
  EXPECT_TRUE(has(text, "OpCapability Int8"));
  EXPECT_TRUE(has(text, "OpCapability Int64"));
}

TEST(SpirvBuilder, TypesConstantsAndCapabilitiesAreDeclaredOnce) {
  SpirvBuilder b(0x00010300u);
  b.capability(spv::CapabilityShader);
  b.capability(spv::CapabilityShader);
  EXPECT_EQ(b.type_of(DataType::Float(32, 4)), b.type_of(DataType::Float(32, 4)));
  EXPECT_EQ(b.int_type(32, true), b.type_of(DataType::Int(32)));
  EXPECT_NE(b.int_type(32, true), b.int_type(32, false));
  EXPECT_EQ(b.constant(DataType::Float(32), 2.5), b.float_constant(DataType::Float(32), 2.5));
  EXPECT_EQ(b.constant(DataType::Float(32, 4), 2.5), b.constant(DataType::Float(32, 4), 2.5));
  SpirvId storage = b.pointer_type(spv::StorageClassStorageBuffer, b.type_of(DataType::Int(32)));
  EXPECT_EQ(storage, b.pointer_type(spv::StorageClassStorageBuffer, b.int_type(32, true)));
  EXPECT_NE(storage, b.pointer_type(spv::StorageClassWorkgroup, b.int_type(32, true)));
  std::string text = disassemble_spirv(module_with([](SpirvBuilder& m) {
    m.capability(spv::CapabilityShader);
    m.extension("SPV_KHR_storage_buffer_storage_class");
    m.extension("SPV_KHR_storage_buffer_storage_class");
  }));
  EXPECT_EQ(text.find("OpCapability Shader"), text.rfind("OpCapability Shader"));
  EXPECT_EQ(text.find("OpExtension"), text.rfind("OpExtension"));
}

TEST(SpirvBuilder, MinimalComputeModuleValidates) {
  std::vector<uint32_t> words = module_with([](SpirvBuilder& b) {
    SpirvId array = b.runtime_array_type(b.type_of(DataType::Float(32)), 4);
    SpirvId block = b.block_struct_type({array}, {0});
    SpirvId variable = b.global_variable(b.pointer_type(spv::StorageClassStorageBuffer, block),
                                         spv::StorageClassStorageBuffer);
    b.decorate(variable, spv::DecorationDescriptorSet, {0});
    b.decorate(variable, spv::DecorationBinding, {0});
    b.extension("SPV_KHR_storage_buffer_storage_class");
  });
  EXPECT_EQ(validate_spirv(words, 11), "") << disassemble_spirv(words);
  std::string text = disassemble_spirv(words);
  EXPECT_TRUE(has(text, "OpDecorate %_runtimearr_float ArrayStride 4"));
  EXPECT_TRUE(has(text, "OpMemberDecorate %_struct_"));
  EXPECT_TRUE(has(text, "Block"));
}

}  // namespace
}  // namespace relaxc::codegen
