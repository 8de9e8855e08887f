// Tests of the kernel report: device presets, --report-shape values, the report's text
// for a built module (counts as expressions, at shapes, roofline on a preset), registers
// from ptxas where it is installed, and the errors.
#include "driver/kernel_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/external_tool.h"
#include "ir/relax/block_builder.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"

namespace relaxc {
namespace {

constexpr const char* kAdd = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            gv: R.Tensor((n,), dtype="float32") = R.add(x, y)
            R.output(gv)
        return gv
)";

codegen::CompiledKernels compiled_for(const std::string& source, const std::string& target) {
  IRModule module = relax::normalize_module(text::parse_module(source, "report_test.py"));
  std::vector<codegen::CompiledKernels> compiled;
  driver::build(module, {parse_target(target)}, {}, &compiled);
  EXPECT_EQ(compiled.size(), 1u);
  return compiled.at(0);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(KernelReport, Presets) {
  const driver::DevicePreset* h100 = driver::find_device_preset("h100");
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->bytes_per_second, 3.35e12);
  EXPECT_EQ(h100->fp32_flops_per_second, 67e12);
  EXPECT_EQ(h100->fp16_tensor_flops_per_second, 990e12);
  const driver::DevicePreset* mobile = driver::find_device_preset("mobile");
  ASSERT_NE(mobile, nullptr);
  EXPECT_EQ(mobile->bytes_per_second, 51.2e9);
  EXPECT_EQ(driver::find_device_preset("a100"), nullptr);
  EXPECT_EQ(driver::known_device_presets(), "h100, mobile");
}

TEST(KernelReport, ShapeValues) {
  driver::ShapeValues values;
  EXPECT_EQ(driver::parse_shape_values("n=4096", values), "");
  EXPECT_EQ(driver::parse_shape_values("m=8,k=0", values), "");
  EXPECT_EQ(values, (driver::ShapeValues{{"n", 4096}, {"m", 8}, {"k", 0}}));
  EXPECT_EQ(driver::parse_shape_values("n", values), "expected NAME=VALUE (e.g. n=4096), got 'n'");
  EXPECT_EQ(driver::parse_shape_values("=4", values),
            "expected NAME=VALUE (e.g. n=4096), got '=4'");
  EXPECT_EQ(driver::parse_shape_values("n=-1", values),
            "the value of 'n' must be a non-negative integer below 10^18, got '-1'");
  EXPECT_EQ(driver::parse_shape_values("n=4k", values),
            "the value of 'n' must be a non-negative integer below 10^18, got '4k'");
  EXPECT_EQ(driver::parse_shape_values("n=1,", values),
            "expected NAME=VALUE (e.g. n=4096), got ''");
}

// Without shapes the counts are expressions; the ratio of traffic to compulsory traffic
// is 1 where they are provably equal.
TEST(KernelReport, SymbolicReport) {
  std::string report = driver::kernel_report(compiled_for(kAdd, "vulkan -profile=desktop"), {});
  EXPECT_TRUE(contains(report, "kernel report: target \"vulkan -profile=desktop\"\n")) << report;
  EXPECT_TRUE(contains(report, "function 'add': 1 kernel\n")) << report;
  EXPECT_TRUE(contains(report,
                       "  kernel 'add_kernel': grid [min((n + 255) // 256, 65535), ((n + 255) // "
                       "256 + 65534) // 65535, 1], "
                       "block [256, 1, 1], shared 0 B, registers: not reported for SPIR-V\n"))
      << report;
  EXPECT_TRUE(contains(report, "    read n * 8 B, written n * 4 B, flops n\n")) << report;
  EXPECT_TRUE(contains(report,
                       "  traffic n * 12 B, compulsory n * 12 B (read n * 8, written n * "
                       "4), ratio 1.00\n"))
      << report;
  EXPECT_FALSE(contains(report, "roofline")) << report;
}

// n = 4096 on the H100 preset: 49152 bytes at 3.35 TB/s is 14.7 ns, far above 4096 FLOPs
// at 67 TFLOP/s (0.06 ns): memory-bound.
TEST(KernelReport, RooflineOnPreset) {
  driver::ReportOptions options{driver::find_device_preset("h100"), {{"n", 4096}}};
  std::string report = driver::kernel_report(compiled_for(kAdd, "cuda"), options);
  EXPECT_TRUE(contains(report, "kernel report: target \"cuda -arch=sm_80\", device h100, n=4096\n"))
      << report;
  // 49152 bytes at 3.35 TB/s take 14.7 ns, but the 16 thread blocks of 256 threads
  // occupy 16 of the 132 SMs: 14.7 ns * 132 / 16.
  EXPECT_TRUE(contains(report,
                       "    at these shapes: read 32768 B, written 16384 B, flops 4096, "
                       "roofline 121 ns (memory, 16 thread blocks for 132 multiprocessors)\n"))
      << report;
  EXPECT_TRUE(contains(report, "ratio 1.00\n  roofline 121 ns\n")) << report;
  EXPECT_TRUE(contains(report, "total roofline (each function once): 121 ns\n")) << report;
  // At n = 65536 the 256 thread blocks fill the GPU: 786432 bytes at 3.35 TB/s.
  options.shapes = {{"n", 65536}};
  report = driver::kernel_report(compiled_for(kAdd, "cuda"), options);
  EXPECT_TRUE(contains(report, "flops 65536, roofline 235 ns (memory)\n")) << report;
  options.shapes = {{"n", 4096}};
  // Registers where ptxas is installed.
  if (driver::find_tool("ptxas", "/usr/local/cuda/bin")) {
    EXPECT_TRUE(contains(report, "registers ")) << report;
    EXPECT_TRUE(contains(report, ", spills 0 B\n")) << report;
  } else {
    EXPECT_TRUE(contains(report, "registers: ptxas is not installed")) << report;
  }
  // The mobile preset: 49152 bytes at 51.2 GB/s.
  options.device = driver::find_device_preset("mobile");
  report = driver::kernel_report(compiled_for(kAdd, "vulkan -profile=mobile"), options);
  EXPECT_TRUE(contains(report, "roofline 960 ns (memory)\n")) << report;
}

TEST(KernelReport, ShapeNamingNoVariable) {
  driver::ReportOptions options{nullptr, {{"q", 3}}};
  try {
    driver::kernel_report(compiled_for(kAdd, "cuda"), options);
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    EXPECT_EQ(e.diagnostics().front().message,
              "--report-shape: 'q' names no shape variable of the kernels (their variables: n)");
  }
}

}  // namespace
}  // namespace relaxc
