// The build's pipeline as data: the lists name registered passes in order, the kernel
// pipeline lowers a module's PrimFuncs as lower_to_kernels does after the schedule,
// disabled passes are skipped, --disable-pass's checks, and the launch read back from a
// finished kernel's thread-bound loops.
#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/default_gpu_schedule.h"
#include "passes/tir/kernel_lowering_steps.h"
#include "passes/tir/lower_to_kernels.h"

namespace relaxc {
namespace {

constexpr const char* kScale = R"(@I.ir_module
class Module:
    @T.prim_func
    def scale(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(4)))
        B = T.match_buffer(b, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)
)";

TEST(Pipeline, ListsNameRegisteredPassesInOrder) {
  EXPECT_EQ(
      vm_lowering_passes(),
      (std::vector<std::string>{"legalize-ops", "canonicalize-bindings", "fold-constant",
                                "fuse-ops", "fuse-tir", "dead-code-elimination", "lambda-lift",
                                "to-non-dataflow", "remove-purity-checking", "call-tir-rewrite",
                                "static-plan-block-memory", "vm-builtin-lower", "vm-shape-lower"}));
  EXPECT_EQ(kernel_passes(),
            (std::vector<std::string>{
                "default-gpu-schedule", "unify-thread-bindings", "lower-cross-thread-reduction",
                "lower-blocks", "split-host-device", "insert-shared-barriers",
                "compact-buffer-allocations", "prefetch-tile-copies", "flatten-buffers",
                "narrow-to-int32", "simplify-kernel", "legalize-bfloat16", "legalize-vector-loops",
                "check-kernel-limits"}));
  std::vector<std::string> lowering(kernel_passes().begin() + 1, kernel_passes().end());
  EXPECT_EQ(kernel_lowering_passes(), lowering);
  for (const auto* list : {&vm_lowering_passes(), &kernel_passes()}) {
    for (const std::string& name : *list) EXPECT_NE(find_pass(name), nullptr) << name;
  }
}

TEST(Pipeline, KernelPipelineIsTheScheduleThenLowerToKernels) {
  Target target = vulkan_profile("desktop");
  IRModule module = text::parse_module(kScale, "scale.py");
  std::ostringstream printed;
  PipelineOptions options;
  options.print_after_each = &printed;
  std::vector<tir::LoweredFunc> lowered = kernel_pipeline(module, target, options);
  ASSERT_EQ(lowered.size(), 1u);
  ASSERT_EQ(lowered[0].launches.size(), 1u);
  tir::PrimFunc scheduled = tir::default_gpu_schedule(module->prim_func("scale"), target);
  tir::LoweredFunc expected = tir::lower_to_kernels(scheduled, "scale", target);
  ASSERT_EQ(expected.launches.size(), 1u);
  EXPECT_EQ(text::print_node(lowered[0].launches[0].kernel.func),
            text::print_node(expected.launches[0].kernel.func));
  EXPECT_EQ(lowered[0].launches[0].kernel.block_size, expected.launches[0].kernel.block_size);
  // Each step printed once, in order, naming the target.
  size_t at = 0;
  for (const std::string& name : kernel_passes()) {
    size_t found = printed.str().find("# after " + name + " [vulkan -profile=desktop]\n", at);
    ASSERT_NE(found, std::string::npos) << name;
    at = found;
  }
}

TEST(Pipeline, DisabledPassesAreSkipped) {
  IRModule module = text::parse_module(kScale, "scale.py");
  Target target = vulkan_profile("desktop");
  std::ostringstream timing;
  PipelineOptions options;
  options.timing = &timing;
  options.disabled = {"simplify-kernel"};
  kernel_pipeline(module, target, options);
  EXPECT_EQ(timing.str().find("simplify-kernel"), std::string::npos) << timing.str();
  EXPECT_NE(timing.str().find("narrow-to-int32 [vulkan -profile=desktop] "), std::string::npos);
}

TEST(Pipeline, DisablePassRefusesRequiredUnknownAndOutsidePasses) {
  const std::string optional =
      "passes that may be disabled: canonicalize-bindings, fold-constant, fuse-ops, fuse-tir, "
      "dead-code-elimination, static-plan-block-memory, default-gpu-schedule, "
      "compact-buffer-allocations, prefetch-tile-copies, simplify-kernel";
  EXPECT_EQ(disable_pass_error("simplify-kernel"), "");
  EXPECT_EQ(disable_pass_error("flatten-buffers"),
            "pass 'flatten-buffers' is required by the build and cannot be disabled; " + optional);
  EXPECT_EQ(disable_pass_error("well-formed"),
            "pass 'well-formed' is not part of the build's pipeline; " + optional);
  EXPECT_EQ(disable_pass_error("no-such").rfind("unknown pass 'no-such'; known passes: ", 0), 0u);
}

TEST(Pipeline, LaunchOfAFinishedKernel) {
  IRModule module = text::parse_module(R"(@I.ir_module
class Module:
    @T.prim_func
    def k(a: T.handle, n: T.int32):
        A = T.match_buffer(a, (n * 32,))
        for bx in T.thread_binding((n + 7) // 8, thread="blockIdx.x"):
            for tx in T.thread_binding(32, thread="threadIdx.x"):
                for ty in T.thread_binding(8, thread="threadIdx.y"):
                    A[bx * 256 + ty * 32 + tx] = T.float32(0)
)",
                                       "k.py");
  tir::KernelLaunch launch = tir::launch_of_kernel(module->prim_func("k"), "k");
  EXPECT_EQ(launch.kernel.block_size, (std::array<int64_t, 3>{32, 8, 1}));
  EXPECT_EQ(text::print_node(launch.grid_size[0]), "(n + 7) // 8");
  EXPECT_EQ(text::print_node(launch.grid_size[1]), "T.int64(1)");
  EXPECT_EQ(launch.buffer_args, (std::vector<int>{0}));
  ASSERT_EQ(launch.scalar_args.size(), 1u);
  EXPECT_EQ(text::print_node(launch.scalar_args[0]), "n");
}

// The loop kind legalize_vector_loops leaves on the loop over v of a kernel whose body
// under it is `body` (A, B: flat float32 buffers of 64).
std::string vector_loop_kind(const std::string& lanes, const std::string& body,
                             const Target& target) {
  std::string source = R"(@I.ir_module
class Module:
    @T.prim_func
    def k(A: T.Buffer((64,)), B: T.Buffer((64,))):
        for tx in T.thread_binding(4, thread="threadIdx.x"):
            for v in T.vectorized()" +
                       lanes + R"():
                )" + body +
                       "\n";
  tir::PrimFunc kernel = text::parse_module(source, "k.py")->prim_func("k");
  std::string printed = text::print_node(tir::legalize_vector_loops(kernel, target));
  if (printed.find("for v in T.vectorized(") != std::string::npos) return "vectorized";
  if (printed.find("for v in T.unroll(") != std::string::npos) return "unrolled";
  return printed;
}

TEST(LegalizeVectorLoops, OneRuleWithTheTargetsLaneLimit) {
  Target vulkan = vulkan_profile("desktop");
  Target cuda = cuda_target(80);
  EXPECT_EQ(vulkan.max_vector_lanes, 4);
  EXPECT_EQ(cuda.max_vector_lanes, 16);
  const std::string contiguous = "B[tx * 16 + v] = A[tx * 16 + v] * T.float32(2)";
  EXPECT_EQ(vector_loop_kind("4", contiguous, vulkan), "vectorized");
  EXPECT_EQ(vector_loop_kind("4", contiguous, cuda), "vectorized");
  // Wider than Vulkan's vectors, within CUDA's.
  EXPECT_EQ(vector_loop_kind("8", contiguous, vulkan), "unrolled");
  EXPECT_EQ(vector_loop_kind("8", contiguous, cuda), "vectorized");
  EXPECT_EQ(vector_loop_kind("1", contiguous, cuda), "unrolled");
  // Float math is vector code; strided stores and other calls are not.
  EXPECT_EQ(vector_loop_kind("4", "B[tx * 16 + v] = T.exp(A[tx * 16 + v])", vulkan), "vectorized");
  EXPECT_EQ(vector_loop_kind("4", "B[tx * 16 + v * 2] = A[tx * 16 + v]", cuda), "unrolled");
  EXPECT_EQ(vector_loop_kind("4",
                             "B[tx * 16 + v] = T.if_then_else(v < 2, A[tx * 16 + v], "
                             "T.float32(0))",
                             cuda),
            "unrolled");
}

}  // namespace
}  // namespace relaxc
