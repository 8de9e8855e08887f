// Tests of the SPIR-V code generator on hand-written lowered kernels: each module
// validates for Vulkan 1.1 and 1.3 and survives spirv-opt; its disassembly has the key
// instructions; dtypes a target lacks are diagnosed.
#include "codegen/spirv/spirv_codegen.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "tests/support/errors.h"
#include "tests/unit/spirv_test_kernels.h"

namespace relaxc {
namespace {

using testing::kernel_named;

// Compiles `kernel` for `target` at Vulkan 1.1 and 1.3, checks that both validate and
// optimize to valid modules, and returns the Vulkan 1.1 disassembly.
std::string compile_checked(const tir::DeviceKernel& kernel,
                            Target target = vulkan_profile("desktop")) {
  std::string disassembly;
  for (int version : {11, 13}) {
    SCOPED_TRACE("Vulkan " + std::to_string(version));
    target.vulkan_version = version;
    codegen::SpirvKernel spirv = codegen::codegen_spirv(kernel, target);
    EXPECT_EQ(spirv.entry_point, kernel.name);
    EXPECT_EQ(spirv.workgroup_size, kernel.block_size);
    std::string text = codegen::disassemble_spirv(spirv.words);
    EXPECT_EQ(codegen::validate_spirv(spirv.words, version), "") << text;
    std::vector<uint32_t> optimized = codegen::optimize_spirv(spirv.words, version);
    EXPECT_FALSE(optimized.empty());
    EXPECT_EQ(codegen::validate_spirv(optimized, version), "");
    if (version == 11) disassembly = text;
  }
  return disassembly;
}

bool has(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

// The message of the UserError that compiling `kernel` for `target` gives ("" if none).
std::string error_of(const tir::DeviceKernel& kernel, const Target& target) {
  return relaxc::error_of([&] { codegen::codegen_spirv(kernel, target); });
}

TEST(SpirvCodegen, VectorAddWithTailGuard) {
  tir::DeviceKernel kernel = kernel_named("vector_add", {64, 1, 1});
  codegen::SpirvKernel spirv = codegen::codegen_spirv(kernel, vulkan_profile("desktop"));
  EXPECT_EQ(spirv.num_buffers, 3);
  EXPECT_EQ(spirv.push_constant_bytes, 4);
  std::string text = compile_checked(kernel);
  EXPECT_TRUE(has(text, "OpEntryPoint GLCompute %vector_add_kernel \"vector_add_kernel\""));
  EXPECT_TRUE(has(text, "OpExecutionMode %vector_add_kernel LocalSize 64 1 1"));
  EXPECT_TRUE(has(text, "OpMemoryModel Logical GLSL450"));
  EXPECT_TRUE(has(text, "OpExtension \"SPV_KHR_storage_buffer_storage_class\""));
  for (const char* name : {"A", "B", "C"}) {
    EXPECT_TRUE(has(text, std::string("OpDecorate %") + name + " DescriptorSet 0")) << name;
  }
  EXPECT_TRUE(has(text, "OpDecorate %A Binding 0"));
  EXPECT_TRUE(has(text, "OpDecorate %B Binding 1"));
  EXPECT_TRUE(has(text, "OpDecorate %C Binding 2"));
  EXPECT_TRUE(has(text, "ArrayStride 4"));
  EXPECT_TRUE(has(text, "OpVariable %_ptr_PushConstant_"));
  EXPECT_TRUE(has(text, "OpMemberDecorate %_struct_") && has(text, " 0 Offset 0"));
  EXPECT_TRUE(has(text, "BuiltIn WorkgroupId"));
  EXPECT_TRUE(has(text, "BuiltIn LocalInvocationId"));
  EXPECT_TRUE(has(text, "OpSelectionMerge"));
  EXPECT_TRUE(has(text, "OpFAdd %float"));
  // Nothing the kernel does not use.
  EXPECT_FALSE(has(text, "Float16"));
  EXPECT_FALSE(has(text, "Int64"));
  EXPECT_FALSE(has(text, "OpControlBarrier"));
}

TEST(SpirvCodegen, Transpose2DThreadBinding) {
  tir::DeviceKernel kernel = kernel_named("transpose", {16, 16, 1});
  std::string text = compile_checked(kernel);
  EXPECT_TRUE(has(text, "LocalSize 16 16 1"));
  EXPECT_TRUE(has(text, "OpMemberDecorate %_struct_") && has(text, " 1 Offset 4"));
  EXPECT_EQ(codegen::codegen_spirv(kernel, vulkan_profile("desktop")).push_constant_bytes, 8);
  EXPECT_TRUE(has(text, "OpLogicalAnd"));
}

TEST(SpirvCodegen, MathChainUsesGlslStd450) {
  std::string text = compile_checked(kernel_named("math_chain", {128, 1, 1}));
  EXPECT_TRUE(has(text, "OpExtInstImport \"GLSL.std.450\""));
  for (const char* f : {"Exp", "Tanh", "FClamp", "FAbs", "FSign", "Log2", "Sqrt"}) {
    EXPECT_TRUE(has(text, std::string(" ") + f + " ")) << f;
  }
  EXPECT_TRUE(has(text, "OpFDiv"));  // sigmoid and erf's t
}

TEST(SpirvCodegen, InverseAndHyperbolicFunctionsAreGlslStd450) {
  std::string text = compile_checked(kernel_named("inverse_and_hyperbolic", {128, 1, 1}));
  for (const char* f : {"Atan2", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh"}) {
    EXPECT_TRUE(has(text, std::string(" ") + f + " ")) << f;
  }
}

TEST(SpirvCodegen, SharedMemoryTreeReductionWithBarriers) {
  tir::DeviceKernel kernel = kernel_named("row_sum", {64, 1, 1});
  kernel.shared_memory_bytes = 64 * 4;
  std::string text = compile_checked(kernel);
  // Workgroup scope (2), AcquireRelease | UniformMemory | WorkgroupMemory (0x148).
  EXPECT_TRUE(has(text, "OpControlBarrier %uint_2 %uint_2 %uint_328"));
  EXPECT_TRUE(has(text, "%red = OpVariable %_ptr_Workgroup__arr_float_uint_64 Workgroup"));
  EXPECT_TRUE(has(text, "%acc = OpVariable %_ptr_Function__arr_float_uint_1 Function"));
  EXPECT_TRUE(has(text, "OpLoopMerge"));
}

TEST(SpirvCodegen, SharedVariablesAreInTheInterfaceFromSpirv14) {
  tir::DeviceKernel kernel = kernel_named("row_sum", {64, 1, 1});
  Target target = vulkan_profile("desktop");
  target.vulkan_version = 13;
  std::string text = codegen::disassemble_spirv(codegen::codegen_spirv(kernel, target).words);
  EXPECT_TRUE(has(text, "; Version: 1.6"));
  size_t entry = text.find("OpEntryPoint");
  ASSERT_NE(entry, std::string::npos);
  std::string entry_line = text.substr(entry, text.find('\n', entry) - entry);
  for (const char* variable : {"%A", "%S", "%params", "%red", "%threadIdx", "%blockIdx"}) {
    EXPECT_TRUE(has(entry_line, variable)) << variable << " missing in " << entry_line;
  }
  EXPECT_FALSE(has(text, "SPV_KHR_storage_buffer_storage_class"));
}

TEST(SpirvCodegen, LocalAccumulatorLoop) {
  std::string text = compile_checked(kernel_named("matmul_local", {8, 8, 1}));
  EXPECT_TRUE(has(text, "OpLoopMerge"));
  EXPECT_TRUE(has(text, "OpPhi %int"));
  EXPECT_TRUE(has(text, "OpFMul %float"));
  EXPECT_TRUE(has(text, " 2 Offset 8"));  // the third scalar, k
}

TEST(SpirvCodegen, Int32ArithmeticWithFloorDivision) {
  std::string text = compile_checked(kernel_named("int_ops", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpSDiv %int"));
  // The remainder is x - (x / y) * y: Vulkan leaves OpSRem and OpSMod undefined for
  // negative operands.
  EXPECT_FALSE(has(text, "OpSRem"));
  EXPECT_FALSE(has(text, "OpSMod"));
  EXPECT_TRUE(has(text, "OpIMul %int"));
  EXPECT_TRUE(has(text, "OpBitwiseXor %int"));  // the floor correction's sign test
  EXPECT_TRUE(has(text, " SMin "));
  EXPECT_TRUE(has(text, " SMax "));
}

TEST(SpirvCodegen, Float16DeclaresItsCapabilitiesOnlyThen) {
  std::string text = compile_checked(kernel_named("fp16_scale", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpCapability Float16"));
  EXPECT_TRUE(has(text, "OpCapability StorageBuffer16BitAccess"));
  EXPECT_TRUE(has(text, "OpExtension \"SPV_KHR_16bit_storage\""));
  EXPECT_TRUE(has(text, "ArrayStride 2"));
  EXPECT_TRUE(has(text, "OpFConvert %float"));
  EXPECT_FALSE(has(compile_checked(kernel_named("vector_add", {64, 1, 1})), "16Bit"));
}

TEST(SpirvCodegen, Int8Buffers) {
  std::string text = compile_checked(kernel_named("int8_add", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpCapability Int8"));
  EXPECT_TRUE(has(text, "OpCapability StorageBuffer8BitAccess"));
  EXPECT_TRUE(has(text, "OpExtension \"SPV_KHR_8bit_storage\""));
  EXPECT_TRUE(has(text, "ArrayStride 1"));
  EXPECT_TRUE(has(text, "OpSConvert %int"));
}

// SPIR-V's bool has no size in memory: a bool buffer holds one byte per element, read as
// != 0 and written as 0 or 1.
TEST(SpirvCodegen, BoolBuffersAreBytes) {
  std::string text = compile_checked(kernel_named("bool_less", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpCapability StorageBuffer8BitAccess"));
  EXPECT_TRUE(has(text, "ArrayStride 1"));
  EXPECT_TRUE(has(text, "OpINotEqual %bool"));
  EXPECT_TRUE(has(text, "OpSelect %uchar"));
}

TEST(SpirvCodegen, BoolBufferOnMobileIsDiagnosed) {
  EXPECT_EQ(error_of(kernel_named("bool_less", {64, 1, 1}), vulkan_profile("mobile")),
            "kernel 'bool_less_kernel': bool buffer 'B' is stored as bytes, and target "
            "'vulkan -profile=mobile' has no 8-bit storage");
}

TEST(SpirvCodegen, Int64ScalarParamsAreAlignedTo8) {
  tir::DeviceKernel kernel = kernel_named("int64_param", {64, 1, 1});
  EXPECT_EQ(codegen::codegen_spirv(kernel, vulkan_profile("desktop")).push_constant_bytes, 16);
  std::string text = compile_checked(kernel);
  EXPECT_TRUE(has(text, "OpCapability Int64"));
  EXPECT_TRUE(has(text, " 0 Offset 0"));
  EXPECT_TRUE(has(text, " 1 Offset 8"));
  EXPECT_TRUE(has(text, "OpSLessThan %bool") || has(text, "OpSLessThan"));
}

TEST(SpirvCodegen, Int64ComparisonsOfExtendedInt32AreNarrowed) {
  std::string text = compile_checked(kernel_named("int64_compare", {128, 1, 1}));
  EXPECT_TRUE(has(text, "OpSLessThan %bool %")) << text;
  EXPECT_TRUE(has(text, " %int_64\n"));
  EXPECT_TRUE(has(text, "OpSLessThanEqual %bool %int_100 %"));
  // wide + 1 is a 64-bit value of its own: compared in 64 bits.
  EXPECT_TRUE(has(text, "OpIEqual %bool %") && has(text, " %long_7\n"));
}

TEST(SpirvCodegen, ContiguousVectorizedLoopBecomesVectorCode) {
  std::string text = compile_checked(kernel_named("vectorized", {64, 1, 1}));
  EXPECT_TRUE(has(text, "%v4float = OpTypeVector %float 4"));
  EXPECT_TRUE(has(text, "OpFMul %v4float"));
  EXPECT_TRUE(has(text, "OpFAdd %v4float"));
  EXPECT_FALSE(has(text, "OpLoopMerge"));
}

TEST(SpirvCodegen, StridedVectorizedLoopStaysAnUnrolledLoop) {
  std::string text = compile_checked(kernel_named("vectorized_strided", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpLoopMerge") && has(text, " Unroll"));
  EXPECT_FALSE(has(text, "v4float"));
}

TEST(SpirvCodegen, RampAndBroadcast) {
  std::string text = compile_checked(kernel_named("ramp_store", {16, 1, 1}));
  EXPECT_TRUE(has(text, "OpCompositeConstruct %v4float"));
  EXPECT_TRUE(has(text, "OpCompositeExtract %int"));
}

TEST(SpirvCodegen, NestedIfElseInsideLoops) {
  std::string text = compile_checked(kernel_named("nested_if", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpLoopMerge"));
  size_t merges = 0;
  for (size_t at = text.find("OpSelectionMerge"); at != std::string::npos;
       at = text.find("OpSelectionMerge", at + 1)) {
    ++merges;
  }
  EXPECT_GE(merges, 3u);
}

TEST(SpirvCodegen, SelectCastsAndGuardedLoads) {
  std::string text = compile_checked(kernel_named("select_cast", {64, 1, 1}));
  EXPECT_TRUE(has(text, "OpSelect %float"));
  EXPECT_TRUE(has(text, "OpConvertFToS %int"));
  EXPECT_TRUE(has(text, "OpConvertSToF %float"));
  EXPECT_TRUE(has(text, "OpConvertFToU %uint"));
  EXPECT_TRUE(has(text, "OpConvertUToF %float"));
  EXPECT_TRUE(has(text, "OpPhi %float"));  // T.if_then_else evaluates one side only
}

TEST(SpirvCodegen, UnrolledLoopAndThreadAxisNarrowerThanTheBlock) {
  // Two threadIdx.x loops: 64 and 32 wide in a block of 64; the second is guarded.
  std::string text = compile_checked(kernel_named("two_phases", {64, 1, 1}));
  EXPECT_TRUE(has(text, " Unroll"));
  EXPECT_TRUE(has(text, "OpSLessThan %bool"));
}

TEST(SpirvCodegen, Float16OnMobileIsDiagnosed) {
  EXPECT_EQ(error_of(kernel_named("fp16_scale", {64, 1, 1}), vulkan_profile("mobile")),
            "kernel 'fp16_scale_kernel' uses float16, which target 'vulkan -profile=mobile' does "
            "not support");
}

TEST(SpirvCodegen, Int64OnMobileIsDiagnosed) {
  EXPECT_EQ(error_of(kernel_named("int64_param", {64, 1, 1}), vulkan_profile("mobile")),
            "kernel 'int64_param_kernel' uses int64, which target 'vulkan -profile=mobile' does "
            "not support");
}

TEST(SpirvCodegen, Int8OnMobileIsDiagnosed) {
  EXPECT_EQ(error_of(kernel_named("int8_add", {64, 1, 1}), vulkan_profile("mobile")),
            "kernel 'int8_add_kernel' uses int8, which target 'vulkan -profile=mobile' does "
            "not support");
}

TEST(SpirvCodegen, MobileProfileCompilesWhatItSupports) {
  Target mobile = vulkan_profile("mobile");
  compile_checked(kernel_named("vector_add", {64, 1, 1}), mobile);
  compile_checked(kernel_named("row_sum", {64, 1, 1}), mobile);
}

// Float64 exp, exp2, exp10, log, log2, log10, sigmoid and tanh, scalars and vectors, are
// composed from double arithmetic with Ldexp and Frexp: GLSL.std.450's Exp, Log, ... take
// 16- and 32-bit floats only (their accuracy is checked on lavapipe by
// tests/lit/ops/elementwise/float64_math.py).
TEST(SpirvCodegen, Float64ExponentialsAndLogarithmsAreComposed) {
  Target target = vulkan_profile("desktop");
  target.supports_fp64 = true;
  std::string text = compile_checked(kernel_named("fp64_math", {16, 1, 1}), target);
  EXPECT_TRUE(has(text, "OpCapability Float64"));
  EXPECT_TRUE(has(text, "Ldexp %"));
  EXPECT_TRUE(has(text, "Frexp %"));
  EXPECT_TRUE(has(text, "OpTypeVector %double 4"));
  for (const char* narrow_only : {" Exp %", " Exp2 %", " Log %", " Log2 %", " Tanh %"}) {
    EXPECT_FALSE(has(text, narrow_only)) << narrow_only;
  }
}

TEST(SpirvCodegen, Float64WithoutTheTargetsSupportIsDiagnosed) {
  EXPECT_EQ(error_of(kernel_named("fp64_exp", {64, 1, 1}), vulkan_profile("desktop")),
            "kernel 'fp64_exp_kernel' uses float64, which target 'vulkan -profile=desktop' does "
            "not support");
}

TEST(SpirvCodegen, Float64TranscendentalIsDiagnosed) {
  Target target = vulkan_profile("desktop");
  target.supports_fp64 = true;
  EXPECT_EQ(error_of(kernel_named("fp64_sin", {64, 1, 1}), target),
            "kernel 'fp64_sin_kernel' uses sin on float64, which Vulkan (GLSL.std.450) provides "
            "only for float16 and float32");
}

TEST(SpirvCodegen, ExternCallIsDiagnosed) {
  EXPECT_EQ(error_of(kernel_named("extern_call", {64, 1, 1}), vulkan_profile("desktop")),
            "kernel 'extern_call_kernel' calls tir.call_extern 'my_func', which the SPIR-V back "
            "end does not provide");
}

// T.shuffle_down is a CUDA warp shuffle: the kernel lowering emits it only for CUDA, and
// one written by hand in a Vulkan kernel is refused.
TEST(SpirvCodegen, WarpShuffleIsDiagnosed) {
  IRModule module = text::parse_module(R"(
@I.ir_module
class Module:
    @T.prim_func
    def shuffle(a: T.handle):
        A = T.match_buffer(a, (64,))
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            A[tx] = T.shuffle_down(A[tx], 1)
)",
                                       "shuffle.py");
  tir::DeviceKernel kernel;
  kernel.name = "shuffle_kernel";
  kernel.func = module->prim_func("shuffle");
  kernel.block_size = {64, 1, 1};
  EXPECT_EQ(error_of(kernel, vulkan_profile("desktop")),
            "kernel 'shuffle_kernel' calls tir.shuffle_down, which the SPIR-V back end does not "
            "provide");
}

TEST(SpirvCodegen, TooManyPushConstantBytesIsDiagnosed) {
  Target target = vulkan_profile("desktop");
  target.max_push_constant_bytes = 4;
  EXPECT_EQ(error_of(kernel_named("transpose", {16, 16, 1}), target),
            "kernel 'transpose_kernel' needs 8 bytes of push constants for its scalar params; "
            "target 'vulkan -profile=desktop' allows 4");
}

}  // namespace
}  // namespace relaxc
