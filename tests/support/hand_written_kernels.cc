// The hand-written kernels of the device tests, in SPIR-V assembly and PTX, and a run of
// vector_add.
#include "tests/support/hand_written_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <spirv-tools/libspirv.hpp>

namespace relaxc::testing {

// c[i] = a[i] + b[i] for i < n: buffers at bindings 0..2, n an int32 push constant,
// workgroups of 64 with a tail guard.
const char* const kVectorAddSpirv = R"(
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "vector_add" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 0
               OpDecorate %b DescriptorSet 0
               OpDecorate %b Binding 1
               OpDecorate %c DescriptorSet 0
               OpDecorate %c Binding 2
               OpMemberDecorate %params_t 0 Offset 0
               OpDecorate %params_t Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %v3uint = OpTypeVector %uint 3
     %floats = OpTypeRuntimeArray %float
      %block = OpTypeStruct %floats
  %block_ptr = OpTypePointer StorageBuffer %block
  %float_ptr = OpTypePointer StorageBuffer %float
   %params_t = OpTypeStruct %int
 %params_ptr = OpTypePointer PushConstant %params_t
    %int_ptr = OpTypePointer PushConstant %int
  %input_ptr = OpTypePointer Input %v3uint
      %int_0 = OpConstant %int 0
          %a = OpVariable %block_ptr StorageBuffer
          %b = OpVariable %block_ptr StorageBuffer
          %c = OpVariable %block_ptr StorageBuffer
     %params = OpVariable %params_ptr PushConstant
        %gid = OpVariable %input_ptr Input
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
      %n_ptr = OpAccessChain %int_ptr %params %int_0
          %n = OpLoad %int %n_ptr
     %n_uint = OpBitcast %uint %n
   %in_range = OpULessThan %bool %i %n_uint
               OpSelectionMerge %done None
               OpBranchConditional %in_range %body %done
       %body = OpLabel
      %a_ptr = OpAccessChain %float_ptr %a %int_0 %i
      %b_ptr = OpAccessChain %float_ptr %b %int_0 %i
      %c_ptr = OpAccessChain %float_ptr %c %int_0 %i
    %a_value = OpLoad %float %a_ptr
    %b_value = OpLoad %float %b_ptr
        %sum = OpFAdd %float %a_value %b_value
               OpStore %c_ptr %sum
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

// out[i] = start + i for i < n: an int32 then an int64 push constant (offsets 0 and 8).
const char* const kIota64Spirv = R"(
               OpCapability Shader
               OpCapability Int64
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "iota64" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %longs ArrayStride 8
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
               OpMemberDecorate %params_t 0 Offset 0
               OpMemberDecorate %params_t 1 Offset 8
               OpDecorate %params_t Block
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
       %long = OpTypeInt 64 1
     %v3uint = OpTypeVector %uint 3
      %longs = OpTypeRuntimeArray %long
      %block = OpTypeStruct %longs
  %block_ptr = OpTypePointer StorageBuffer %block
   %long_ptr = OpTypePointer StorageBuffer %long
   %params_t = OpTypeStruct %int %long
 %params_ptr = OpTypePointer PushConstant %params_t
 %pc_int_ptr = OpTypePointer PushConstant %int
%pc_long_ptr = OpTypePointer PushConstant %long
  %input_ptr = OpTypePointer Input %v3uint
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
        %out = OpVariable %block_ptr StorageBuffer
     %params = OpVariable %params_ptr PushConstant
        %gid = OpVariable %input_ptr Input
       %main = OpFunction %void None %fn
      %entry = OpLabel
        %ids = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %ids 0
      %n_ptr = OpAccessChain %pc_int_ptr %params %int_0
          %n = OpLoad %int %n_ptr
     %n_uint = OpBitcast %uint %n
   %in_range = OpULessThan %bool %i %n_uint
               OpSelectionMerge %done None
               OpBranchConditional %in_range %body %done
       %body = OpLabel
  %start_ptr = OpAccessChain %pc_long_ptr %params %int_1
      %start = OpLoad %long %start_ptr
      %i_int = OpBitcast %int %i
     %i_long = OpSConvert %long %i_int
      %value = OpIAdd %long %start %i_long
    %out_ptr = OpAccessChain %long_ptr %out %int_0 %i
               OpStore %out_ptr %value
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

// c[i] = a[i] + b[i] for i < n: three buffers, then n as int32.
const char* const kVectorAddPtx = R"(
.version 7.0
.target sm_52
.address_size 64

// c[i] = a[i] + b[i] for i < n
.visible .entry vector_add(
	.param .u64 vector_add_param_0,
	.param .u64 vector_add_param_1,
	.param .u64 vector_add_param_2,
	.param .u32 vector_add_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<11>;

	ld.param.u64 	%rd1, [vector_add_param_0];
	ld.param.u64 	%rd2, [vector_add_param_1];
	ld.param.u64 	%rd3, [vector_add_param_2];
	ld.param.u32 	%r1, [vector_add_param_3];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	setp.ge.s32 	%p1, %r5, %r1;
	@%p1 bra 	DONE;
	cvta.to.global.u64 	%rd4, %rd1;
	cvta.to.global.u64 	%rd5, %rd2;
	cvta.to.global.u64 	%rd6, %rd3;
	mul.wide.s32 	%rd7, %r5, 4;
	add.s64 	%rd8, %rd4, %rd7;
	add.s64 	%rd9, %rd5, %rd7;
	add.s64 	%rd10, %rd6, %rd7;
	ld.global.f32 	%f1, [%rd8];
	ld.global.f32 	%f2, [%rd9];
	add.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd10], %f3;
DONE:
	ret;
}
)";

// out[i] = start + i for i < n: one buffer, n as int32, then start as int64.
const char* const kIota64Ptx = R"(
.version 7.0
.target sm_52
.address_size 64

.visible .entry iota64(
	.param .u64 iota64_param_0,
	.param .u32 iota64_param_1,
	.param .u64 iota64_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [iota64_param_0];
	ld.param.u32 	%r1, [iota64_param_1];
	ld.param.u64 	%rd2, [iota64_param_2];
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mov.u32 	%r4, %tid.x;
	mad.lo.s32 	%r5, %r2, %r3, %r4;
	setp.ge.s32 	%p1, %r5, %r1;
	@%p1 bra 	DONE;
	cvta.to.global.u64 	%rd3, %rd1;
	cvt.s64.s32 	%rd4, %r5;
	add.s64 	%rd5, %rd2, %rd4;
	shl.b64 	%rd6, %rd4, 3;
	add.s64 	%rd7, %rd3, %rd6;
	st.global.u64 	[%rd7], %rd5;
DONE:
	ret;
}
)";

// Assembles and validates SPIR-V for Vulkan 1.1; the bytes as KernelBinary holds them.
std::vector<uint8_t> assemble_spirv(const std::string& text) {
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_1);
  std::string diagnostics;
  tools.SetMessageConsumer(
      [&](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        diagnostics += "line " + std::to_string(position.line) + ": " + message + "\n";
      });
  std::vector<uint32_t> words;
  EXPECT_TRUE(tools.Assemble(text, &words)) << diagnostics;
  EXPECT_TRUE(tools.Validate(words)) << diagnostics;
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

namespace {

runtime::KernelBinary hand_written(const std::string& name, runtime::KernelFormat format,
                                   const char* spirv, const char* ptx) {
  runtime::KernelBinary kernel;
  kernel.name = name;
  kernel.format = format;
  if (format == runtime::KernelFormat::SpirV) {
    kernel.code = assemble_spirv(spirv);
  } else {
    kernel.code.assign(ptx, ptx + std::strlen(ptx));
  }
  kernel.block_size = {64, 1, 1};
  return kernel;
}

}  // namespace

runtime::KernelBinary vector_add_kernel(runtime::KernelFormat format) {
  runtime::KernelBinary kernel = hand_written("vector_add", format, kVectorAddSpirv, kVectorAddPtx);
  kernel.num_buffers = 3;
  kernel.scalars = {runtime::ScalarType::Int32};
  return kernel;
}

runtime::KernelBinary iota64_kernel(runtime::KernelFormat format) {
  runtime::KernelBinary kernel = hand_written("iota64", format, kIota64Spirv, kIota64Ptx);
  kernel.num_buffers = 1;
  kernel.scalars = {runtime::ScalarType::Int32, runtime::ScalarType::Int64};
  return kernel;
}

std::vector<float> run_vector_add(runtime::Device& device, runtime::KernelId add,
                                  const std::vector<float>& a, const std::vector<float>& b) {
  size_t bytes = a.size() * sizeof(float);
  std::vector<runtime::DeviceBuffer> buffers = {device.allocate(bytes), device.allocate(bytes),
                                                device.allocate(bytes)};
  device.upload(buffers[0], 0, a.data(), bytes);
  device.upload(buffers[1], 0, b.data(), bytes);
  std::vector<int64_t> scalars = {static_cast<int64_t>(a.size())};
  device.launch(add, {static_cast<uint32_t>((a.size() + 63) / 64), 1, 1}, buffers, scalars);
  std::vector<float> c(a.size());
  device.download(c.data(), buffers[2], 0, bytes);
  for (runtime::DeviceBuffer buffer : buffers) device.release(buffer);
  return c;
}

}  // namespace relaxc::testing
