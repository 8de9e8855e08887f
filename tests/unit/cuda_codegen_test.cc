// Tests of the CUDA code generator (TensorIR -> LLVM IR -> PTX): every kernel of the GPU
// kernel suite and the hand-written lowered kernels compile to PTX for sm_80 and sm_90 that
// ptxas assembles (skipped where ptxas is not installed); the PTX has the key
// instructions; what an architecture lacks is diagnosed.
#include "codegen/cuda/cuda_codegen.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/tir/functor.h"
#include "passes/tir/lower_to_kernels.h"
#include "tests/support/errors.h"
#include "tests/support/kernel_suite.h"
#include "tests/support/ptxas.h"
#include "tests/unit/spirv_test_kernels.h"

namespace relaxc::testing {
namespace {

// Whether `what` occurs in `text`, where a run of spaces and tabs matches one space (PTX
// separates an instruction from its operands with both).
bool has(const std::string& text, const std::string& what) {
  std::string squeezed;
  for (char c : text) {
    bool blank = c == ' ' || c == '\t';
    if (blank && !squeezed.empty() && squeezed.back() == ' ') continue;
    squeezed.push_back(blank ? ' ' : c);
  }
  return squeezed.find(what) != std::string::npos;
}

// The PTX ISA version each tested architecture gets: the first that has it.
std::string expected_version(int arch) { return arch == 90 ? ".version 7.8" : ".version 7.0"; }

// Assembles `ptx` for sm_<arch> with ptxas where it is installed.
void expect_assembles(const std::string& ptx, int arch) {
  static const std::string ptxas = find_ptxas();
  if (ptxas.empty()) return;
  PtxasResult result = run_ptxas(ptxas, ptx, arch);
  EXPECT_TRUE(result.ok) << "ptxas for sm_" << arch << ":\n" << result.messages << "\n" << ptx;
}

// Compiles `kernel` for sm_80 and sm_90, checks what every kernel's PTX has, and returns
// the sm_90 PTX.
std::string compile_checked(const tir::DeviceKernel& kernel) {
  std::string ptx90;
  for (int arch : {80, 90}) {
    SCOPED_TRACE(kernel.name + " for sm_" + std::to_string(arch));
    codegen::PtxKernel ptx = codegen::codegen_ptx(kernel, cuda_target(arch));
    EXPECT_EQ(ptx.entry_point, kernel.name);
    EXPECT_EQ(ptx.block_size, kernel.block_size);
    EXPECT_TRUE(has(ptx.ptx, ".target sm_" + std::to_string(arch))) << ptx.ptx;
    EXPECT_TRUE(has(ptx.ptx, expected_version(arch))) << ptx.ptx;
    EXPECT_TRUE(has(ptx.ptx, ".visible .entry " + kernel.name + "(")) << ptx.ptx;
    EXPECT_TRUE(has(ptx.ptx, ".reqntid " + std::to_string(kernel.block_size[0]) + ", " +
                                 std::to_string(kernel.block_size[1]) + ", " +
                                 std::to_string(kernel.block_size[2])))
        << ptx.ptx;
    // One warp asks for one block per multiprocessor; larger blocks leave it to ptxas.
    int64_t threads = kernel.block_size[0] * kernel.block_size[1] * kernel.block_size[2];
    EXPECT_EQ(has(ptx.ptx, ".minnctapersm 1"), threads <= 32) << ptx.ptx;
    // Everything is inlined: no calls, no external functions.
    EXPECT_FALSE(has(ptx.ptx, "call")) << ptx.ptx;
    EXPECT_FALSE(has(ptx.ptx, ".extern")) << ptx.ptx;
    expect_assembles(ptx.ptx, arch);
    if (arch == 90) ptx90 = ptx.ptx;
  }
  return ptx90;
}

bool has_barrier(const tir::DeviceKernel& kernel) {
  bool found = false;
  tir::post_order_visit(kernel.func, [&](const Ref<Object>& node) {
    if (const auto* call = node.as<tir::CallNode>()) found |= call->op == "tir.tvm_storage_sync";
  });
  return found;
}

bool has_shuffle(const tir::DeviceKernel& kernel) {
  bool found = false;
  tir::post_order_visit(kernel.func, [&](const Ref<Object>& node) {
    if (const auto* call = node.as<tir::CallNode>()) found |= call->op == "tir.shuffle_down";
  });
  return found;
}

bool has_shared_allocation(const tir::DeviceKernel& kernel) {
  bool found = false;
  tir::post_order_visit(kernel.func, [&](const Ref<Object>& node) {
    if (const auto* allocate = node.as<tir::AllocateNode>()) {
      found |= allocate->buffer->scope == "shared";
    }
  });
  return found;
}

// The message of the UserError that compiling `kernel` for `target` gives ("" if none).
std::string error_of(const tir::DeviceKernel& kernel, const Target& target) {
  return relaxc::error_of([&] { codegen::codegen_ptx(kernel, target); });
}

// Sets an environment variable for the life of a scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

// The ptxas helper reports what ptxas rejects.
TEST(Ptxas, ReportsErrors) {
  std::string ptxas = find_ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas is not installed (CUDA toolkit)";
  PtxasResult result =
      run_ptxas(ptxas, ".version 7.8\n.target sm_90\n.address_size 64\nbogus;\n", 90);
  EXPECT_FALSE(result.ok);
  EXPECT_TRUE(has(result.messages, "error")) << result.messages;
}

// --- The kernel suite.

class SuitePtx : public ::testing::TestWithParam<std::string> {};

TEST_P(SuitePtx, CompilesAndAssemblesForSm80AndSm90) {
  const SuiteKernel& suite = suite_kernel(GetParam());
  if (find_ptxas().empty()) {
    std::cout << "ptxas is not installed: PTX is checked as text only\n";
  }
  for (int arch : {80, 90}) {
    Target target = cuda_target(arch);
    tir::LoweredFunc lowered =
        tir::lower_to_kernels(scheduled_kernel(suite, target), suite.name, target);
    ASSERT_FALSE(lowered.launches.empty());
    for (const tir::KernelLaunch& launch : lowered.launches) {
      const tir::DeviceKernel& kernel = launch.kernel;
      SCOPED_TRACE(kernel.name + " for sm_" + std::to_string(arch));
      codegen::PtxKernel ptx = codegen::codegen_ptx(kernel, target);
      const std::string& text = ptx.ptx;
      EXPECT_EQ(ptx.entry_point, kernel.name);
      EXPECT_TRUE(has(text, ".target sm_" + std::to_string(arch))) << text;
      EXPECT_TRUE(has(text, expected_version(arch))) << text;
      EXPECT_TRUE(has(text, ".visible .entry " + kernel.name + "(")) << text;
      EXPECT_TRUE(has(text, "ld.global")) << text;
      EXPECT_TRUE(has(text, "st.global")) << text;
      EXPECT_EQ(has(text, "bar.sync 0"), has_barrier(kernel)) << text;
      EXPECT_EQ(has(text, ".shared .align 16"), has_shared_allocation(kernel)) << text;
      EXPECT_EQ(has(text, "shfl.sync.down.b32"), has_shuffle(kernel)) << text;
      EXPECT_FALSE(has(text, "call")) << text;
      expect_assembles(text, arch);
    }
  }
}

std::vector<std::string> suite_names() {
  std::vector<std::string> names;
  for (const SuiteKernel& k : kernel_suite()) names.push_back(k.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Kernels, SuitePtx, ::testing::ValuesIn(suite_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

// Kernels compile on several threads at once, each to the PTX it gets alone.
TEST(CudaCodegen, CompilesOnSeveralThreads) {
  Target target = cuda_target(90);
  std::vector<tir::DeviceKernel> kernels;
  for (const char* name : {"matmul", "softmax", "exp_tanh", "transpose"}) {
    const SuiteKernel& suite = suite_kernel(name);
    tir::LoweredFunc lowered = tir::lower_to_kernels(scheduled_kernel(suite, target), name, target);
    for (const tir::KernelLaunch& launch : lowered.launches) kernels.push_back(launch.kernel);
  }
  std::vector<std::string> alone;
  for (const tir::DeviceKernel& kernel : kernels) {
    alone.push_back(codegen::codegen_ptx(kernel, target).ptx);
  }
  std::vector<std::string> together(kernels.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < kernels.size(); ++i) {
    threads.emplace_back([&, i] { together[i] = codegen::codegen_ptx(kernels[i], target).ptx; });
  }
  for (std::thread& t : threads) t.join();
  for (size_t i = 0; i < kernels.size(); ++i) EXPECT_EQ(together[i], alone[i]) << kernels[i].name;
}

// The suite's cross-thread reductions combine their partial results with warp shuffles.
TEST(CudaCodegen, SuiteReductionsUseWarpShuffles) {
  for (const char* name : {"row_sum", "row_sum_default", "softmax"}) {
    for (int arch : {80, 90}) {
      Target target = cuda_target(arch);
      tir::LoweredFunc lowered =
          tir::lower_to_kernels(scheduled_kernel(suite_kernel(name), target), name, target);
      ASSERT_EQ(lowered.launches.size(), 1u) << name;
      const tir::DeviceKernel& kernel = lowered.launches[0].kernel;
      SCOPED_TRACE(kernel.name + " for sm_" + std::to_string(arch));
      EXPECT_TRUE(has_shuffle(kernel));
      std::string ptx = codegen::codegen_ptx(kernel, target).ptx;
      EXPECT_TRUE(has(ptx, "shfl.sync.down.b32")) << ptx;
      expect_assembles(ptx, arch);
    }
  }
}

// --- Hand-written lowered kernels.

TEST(CudaCodegen, VectorAddHasTheKernelAbi) {
  std::string ptx = compile_checked(kernel_named("vector_add", {64, 1, 1}));
  EXPECT_TRUE(has(ptx, ".param .u64 vector_add_kernel_param_0")) << ptx;
  EXPECT_TRUE(has(ptx, ".param .u32 vector_add_kernel_param_3")) << ptx;
  EXPECT_TRUE(has(ptx, "mov.u32 %r1, %ctaid.x;")) << ptx;
  EXPECT_TRUE(has(ptx, "mov.u32 %r2, %tid.x;")) << ptx;
  // Read-only and not aliased: through the non-coherent (read-only) cache.
  EXPECT_TRUE(has(ptx, "ld.global.nc.f32")) << ptx;
  EXPECT_TRUE(has(ptx, "add.f32")) << ptx;
  EXPECT_FALSE(has(ptx, "bar.sync")) << ptx;

  std::string ir =
      codegen::codegen_llvm_ir(kernel_named("vector_add", {64, 1, 1}), cuda_target(80));
  EXPECT_TRUE(has(ir, "define ptx_kernel void @vector_add_kernel(ptr addrspace(1) noalias")) << ir;
  EXPECT_TRUE(has(ir, "!nvvm.annotations")) << ir;
  EXPECT_TRUE(has(ir, "!\"kernel\", i32 1, !\"reqntidx\", i32 64")) << ir;
  EXPECT_TRUE(has(ir, "target triple = \"nvptx64-nvidia-cuda\"")) << ir;
}

TEST(CudaCodegen, SharedMemoryBarriersAndWhileLoop) {
  std::string ptx = compile_checked(kernel_named("row_sum", {64, 1, 1}));
  EXPECT_TRUE(has(ptx, ".shared .align 16 .b8")) << ptx;
  EXPECT_TRUE(has(ptx, "bar.sync 0")) << ptx;
  EXPECT_TRUE(has(ptx, "st.shared.f32")) << ptx;
  EXPECT_TRUE(has(ptx, "ld.shared.f32")) << ptx;
  std::string ir = codegen::codegen_llvm_ir(kernel_named("row_sum", {64, 1, 1}), cuda_target(80));
  EXPECT_TRUE(has(ir, "addrspace(3) global [64 x float] undef, align 16")) << ir;
  EXPECT_TRUE(has(ir, "call void @llvm.nvvm.barrier0()")) << ir;

  std::string phases = compile_checked(kernel_named("two_phases", {64, 1, 1}));
  EXPECT_TRUE(has(phases, "bar.sync 0")) << phases;
  // The unrolled loop leaves no branch back.
  EXPECT_FALSE(has(phases, "bra")) << phases;
}

TEST(CudaCodegen, VectorizedLoopsBecomeVectorLoadsAndStores) {
  std::string ptx = compile_checked(kernel_named("vectorized", {64, 1, 1}));
  EXPECT_TRUE(has(ptx, "ld.global.nc.v4.f32")) << ptx;
  EXPECT_TRUE(has(ptx, "st.global.v4.f32")) << ptx;
  std::string ramp = compile_checked(kernel_named("ramp_store", {16, 1, 1}));
  EXPECT_TRUE(has(ramp, "ld.global.nc.v4.f32")) << ramp;
  EXPECT_TRUE(has(ramp, "st.global.v4.f32")) << ramp;
  // Every other element: no vector access.
  std::string strided = compile_checked(kernel_named("vectorized_strided", {64, 1, 1}));
  EXPECT_FALSE(has(strided, ".v4.")) << strided;
  EXPECT_FALSE(has(strided, ".v2.")) << strided;
}

TEST(CudaCodegen, ArithmeticCastsAndMath) {
  for (const char* name : {"transpose", "matmul_local", "int_ops", "int8_add", "nested_if",
                           "select_cast", "int64_compare"}) {
    compile_checked(kernel_named(name, {name == std::string("transpose") ? 16 : 64,
                                        name == std::string("transpose") ? 16 : 1, 1}));
  }
  std::string wide = compile_checked(kernel_named("int64_param", {64, 1, 1}));
  EXPECT_TRUE(has(wide, ".param .u64 int64_param_kernel_param_3")) << wide;
  std::string math = compile_checked(kernel_named("math_chain", {128, 1, 1}));
  EXPECT_TRUE(has(math, "ex2.approx")) << math;  // inside libdevice's expf, or the fallback
  compile_checked(kernel_named("fp64_exp", {64, 1, 1}));
}

TEST(CudaCodegen, Float16Arithmetic) {
  std::string ptx = compile_checked(kernel_named("fp16_scale", {64, 1, 1}));
  // x * 0.5 + 1 in half precision: one fused multiply-add.
  EXPECT_TRUE(has(ptx, "fma.rn.f16")) << ptx;
  EXPECT_TRUE(has(ptx, "ld.global.nc.u16")) << ptx;
  EXPECT_TRUE(has(ptx, "st.global.b16")) << ptx;
}

constexpr const char* kBf16Kernel = R"(
@I.ir_module
class Module:
    @T.prim_func
    def bf16_fma(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,), "bfloat16")
        B = T.match_buffer(b, (n,), "bfloat16")
        for bx in T.thread_binding((n + 63) // 64, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                if bx * 64 + tx < n:
                    B[bx * 64 + tx] = A[bx * 64 + tx] * B[bx * 64 + tx] + T.exp(A[bx * 64 + tx])
)";

tir::DeviceKernel bf16_kernel() {
  static const IRModule module = text::parse_module(kBf16Kernel, "bf16.py");
  tir::DeviceKernel kernel;
  kernel.name = "bf16_fma_kernel";
  kernel.func = module->prim_func("bf16_fma");
  kernel.block_size = {64, 1, 1};
  return kernel;
}

TEST(CudaCodegen, Bfloat16FromSm80) {
  std::string ptx = compile_checked(bf16_kernel());
  EXPECT_TRUE(has(ptx, ".bf16")) << ptx;
  EXPECT_EQ(error_of(bf16_kernel(), cuda_target(70)),
            "kernel 'bf16_fma_kernel' uses bfloat16, which target 'cuda -arch=sm_70' does not "
            "support; bfloat16 arithmetic needs sm_80 or later");
}

std::string shuffle_source(const std::string& dtype, const std::string& delta) {
  return R"(
@I.ir_module
class Module:
    @T.prim_func
    def shuffle(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (64,), ")" +
         dtype + R"(")
        B = T.match_buffer(b, (64,), ")" +
         dtype + R"(")
        for tx in T.thread_binding(64, thread="threadIdx.x"):
            B[tx] = A[tx] + T.shuffle_down(A[tx], )" +
         delta + R"()
)";
}

tir::DeviceKernel shuffle_kernel(const std::string& dtype, const std::string& delta = "16") {
  IRModule module = text::parse_module(shuffle_source(dtype, delta), "shuffle.py");
  tir::DeviceKernel kernel;
  kernel.name = "shuffle_kernel";
  kernel.func = module->prim_func("shuffle");
  kernel.block_size = {64, 1, 1};
  return kernel;
}

TEST(CudaCodegen, ShuffleDown) {
  // The value keeps its type; the lane offset stays an int32.
  tir::DeviceKernel f32 = shuffle_kernel("float32");
  const tir::CallNode* call = nullptr;
  tir::post_order_visit(f32.func, [&](const Ref<Object>& node) {
    if (const auto* c = node.as<tir::CallNode>()) call = c;
  });
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op, "tir.shuffle_down");
  EXPECT_EQ(call->dtype, DataType::Float(32));
  EXPECT_EQ(call->args.at(1)->dtype, DataType::Int(32));

  // Full mask, offset 16, clamp 0x1f (width 32: (32 - 32) << 8 | 31).
  std::string ir = codegen::codegen_llvm_ir(f32, cuda_target(80));
  EXPECT_TRUE(has(ir, "call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float")) << ir;
  EXPECT_TRUE(has(ir, ", i32 16, i32 31)")) << ir;
  std::string ptx = compile_checked(f32);
  EXPECT_TRUE(has(ptx, "shfl.sync.down.b32")) << ptx;
  EXPECT_TRUE(has(ptx, "16, 31, -1;")) << ptx;

  for (const char* dtype : {"int32", "uint32"}) {
    tir::DeviceKernel kernel = shuffle_kernel(dtype);
    std::string int_ir = codegen::codegen_llvm_ir(kernel, cuda_target(80));
    EXPECT_TRUE(has(int_ir, "call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32")) << int_ir;
    EXPECT_TRUE(has(compile_checked(kernel), "shfl.sync.down.b32")) << dtype;
  }
  for (const char* dtype : {"float16", "int64", "float64", "int8"}) {
    EXPECT_EQ(error_of(shuffle_kernel(dtype), cuda_target(80)),
              std::string("kernel 'shuffle_kernel': T.shuffle_down of ") + dtype +
                  "; a warp shuffle moves a 32-bit scalar (float32, int32, uint32)");
  }
  EXPECT_EQ(error_of(shuffle_kernel("float32", "B[tx]"), cuda_target(80)),
            "kernel 'shuffle_kernel': the lane offset of T.shuffle_down is float32; expected an "
            "integer scalar");
  // An offset computed at run time is an int32 register operand.
  EXPECT_TRUE(has(compile_checked(shuffle_kernel("float32", "tx % 4")), "shfl.sync.down.b32"));
}

TEST(CudaCodegen, Errors) {
  EXPECT_EQ(error_of(kernel_named("extern_call", {64, 1, 1}), cuda_target(80)),
            "kernel 'extern_call_kernel' calls tir.call_extern 'my_func', which the CUDA back end "
            "does not provide");
  EXPECT_EQ(error_of(kernel_named("vector_add", {64, 1, 1}), cuda_target(81)),
            "target 'cuda -arch=sm_81': LLVM's NVPTX back end has no sm_81; expected one of sm_70, "
            "sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90");
  tir::DeviceKernel bad_name = kernel_named("vector_add", {64, 1, 1});
  bad_name.name = "vector.add";
  EXPECT_EQ(error_of(bad_name, cuda_target(80)),
            "kernel 'vector.add' cannot be a PTX entry point: its name may hold only letters, "
            "digits and '_'");
}

// sm_70 code still compiles (PTX 6.0); ptxas of CUDA 13 no longer assembles sm_70, so the
// text alone is checked.
TEST(CudaCodegen, Sm70) {
  codegen::PtxKernel ptx =
      codegen::codegen_ptx(kernel_named("row_sum", {64, 1, 1}), cuda_target(70));
  EXPECT_TRUE(has(ptx.ptx, ".target sm_70")) << ptx.ptx;
  EXPECT_TRUE(has(ptx.ptx, ".version 6.0")) << ptx.ptx;
}

// asin ... atanh call libdevice where it is installed; without it they are composed from
// exp, log, sqrt and a polynomial for atan.
TEST(CudaCodegen, InverseAndHyperbolicFunctions) {
  compile_checked(kernel_named("inverse_and_hyperbolic", {128, 1, 1}));
  ScopedEnv env("RELAXC_LIBDEVICE", "none");
  std::string ptx = compile_checked(kernel_named("inverse_and_hyperbolic", {128, 1, 1}));
  EXPECT_TRUE(has(ptx, "ex2.approx.f32")) << ptx;
  EXPECT_TRUE(has(ptx, "lg2.approx.f32")) << ptx;
  EXPECT_TRUE(has(ptx, "sqrt.rn.f32")) << ptx;
}

// Without libdevice, math comes from the NVVM approximate instructions; float64 then has
// none.
TEST(CudaCodegen, MathWithoutLibdevice) {
  ScopedEnv env("RELAXC_LIBDEVICE", "none");
  std::string ptx = compile_checked(kernel_named("math_chain", {128, 1, 1}));
  EXPECT_TRUE(has(ptx, "ex2.approx.f32")) << ptx;
  EXPECT_TRUE(has(ptx, "lg2.approx.f32")) << ptx;
  EXPECT_EQ(error_of(kernel_named("fp64_exp", {64, 1, 1}), cuda_target(80)),
            "kernel 'fp64_exp_kernel' uses exp on float64, which needs libdevice (libdevice.10.bc "
            "of the CUDA toolkit; set RELAXC_LIBDEVICE to its path)");
}

TEST(CudaCodegen, LibdeviceFromTheEnvironment) {
  ScopedEnv env("RELAXC_LIBDEVICE", "/nonexistent/libdevice.10.bc");
  EXPECT_EQ(error_of(kernel_named("math_chain", {128, 1, 1}), cuda_target(80)),
            "RELAXC_LIBDEVICE names '/nonexistent/libdevice.10.bc', which is not a file; give the "
            "path of libdevice.10.bc, or 'none'");
}

}  // namespace
}  // namespace relaxc::testing
