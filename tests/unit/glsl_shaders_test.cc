// The hand-written GLSL shaders of bench/glsl/ against relaxc's kernels for the same
// operations, on the Vulkan device with its validation layer, at small sizes that leave
// partial workgroups and tiles: each shader must agree with relaxc, so that the GLSL
// benchmark compares correct kernels. Skipped without glslc or a Vulkan device.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "tests/support/device_harness.h"
#include "tests/support/glsl_ops.h"

namespace relaxc::testing {
namespace {

struct ShaderCase {
  std::string shader;
  std::vector<int64_t> dims;
};

// "softmax 5x300": what a failure prints for its case.
void PrintTo(const ShaderCase& c, std::ostream* os) {
  *os << c.shader;
  for (size_t i = 0; i < c.dims.size(); ++i) *os << (i == 0 ? " " : "x") << c.dims[i];
}

class GlslShadersTest : public ::testing::TestWithParam<ShaderCase> {};

TEST_P(GlslShadersTest, AgreesWithRelaxc) {
  if (glsl_spirv_dir().empty()) GTEST_SKIP() << "glslc was not found when the build was configured";
  std::string why_not;
  runtime::Device* device = test_device(TargetKind::Vulkan, &why_not);
  if (device == nullptr) GTEST_SKIP() << why_not;
  GlslOpRun run(*device, glsl_op(GetParam().shader, GetParam().dims));
  run.launch_relaxc();
  run.launch_glsl();
  EXPECT_LE(run.output_error(), 1.0);
  EXPECT_TRUE(validation_messages(TargetKind::Vulkan).empty());
}

INSTANTIATE_TEST_SUITE_P(
    Shaders, GlslShadersTest,
    ::testing::Values(ShaderCase{"elementwise_chain", {7, 300}}, ShaderCase{"softmax", {5, 300}},
                      ShaderCase{"softmax", {3, 1000}}, ShaderCase{"layer_norm", {5, 300}},
                      ShaderCase{"short_layer_norm", {300, 32}}, ShaderCase{"sgemm", {37, 50, 23}},
                      ShaderCase{"gemv", {100, 300}}, ShaderCase{"column_sum", {37, 300}},
                      ShaderCase{"conv2d", {2, 3, 7, 9, 5}},
                      ShaderCase{"depthwise_conv2d", {2, 3, 7, 9}}),
    [](const ::testing::TestParamInfo<ShaderCase>& info) {
      std::string name = info.param.shader;
      for (int64_t d : info.param.dims) name += "_" + std::to_string(d);
      return name;
    });

}  // namespace
}  // namespace relaxc::testing
