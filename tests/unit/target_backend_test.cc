// The back-end registry: each target kind finds its back end and kernel format, a kind
// or format without a back end fails loudly instead of falling to another back end, and
// the target of a device takes each kind's own fields from its back end.
#include "codegen/target_backend.h"

#include <gtest/gtest.h>

#include <string>

#include "driver/compile.h"
#include "ir/support/diagnostics.h"
#include "tests/support/errors.h"

namespace relaxc::codegen {
namespace {

TEST(TargetBackend, EachKindHasItsBackendAndFormat) {
  EXPECT_EQ(backend_for(TargetKind::Vulkan).format, runtime::KernelFormat::SpirV);
  EXPECT_EQ(std::string(backend_for(TargetKind::Vulkan).name), "vulkan");
  EXPECT_EQ(backend_for(TargetKind::Cuda).format, runtime::KernelFormat::Ptx);
  EXPECT_EQ(std::string(backend_for(TargetKind::Cuda).name), "cuda");
  EXPECT_EQ(backend_for(runtime::KernelFormat::Ptx).kind, TargetKind::Cuda);
  EXPECT_EQ(backend_for(runtime::KernelFormat::SpirV).kind, TargetKind::Vulkan);
  ASSERT_EQ(all_backends().size(), 2u);
}

TEST(TargetBackend, UnknownKindFailsLoudly) {
  auto unknown = static_cast<TargetKind>(7);
  EXPECT_EQ(error_of([&] { backend_for(unknown); }),
            "no back end is registered for target kind 7; registered back ends: cuda, vulkan");
  // Compiling for it fails the same way instead of producing SPIR-V.
  Target target;
  target.kind = unknown;
  EXPECT_EQ(error_of([&] { compile_kernel(tir::DeviceKernel{}, target); }),
            "no back end is registered for target kind 7; registered back ends: cuda, vulkan");
  EXPECT_EQ(error_of([&] { backend_for(static_cast<runtime::KernelFormat>(9)); }),
            "no back end produces kernel format 9; registered back ends: cuda, vulkan");
}

TEST(TargetBackend, DeviceTargetTakesEachKindsOwnFields) {
  runtime::DeviceLimits limits;
  limits.name = "test GPU";
  limits.compute_capability = 86;
  limits.max_threads_per_block = 512;
  limits.api_version_major = 1;
  limits.api_version_minor = 3;
  Target cuda = driver::target_from_device(limits, TargetKind::Cuda);
  EXPECT_EQ(cuda.str(), "cuda -arch=sm_86");
  EXPECT_EQ(cuda.max_threads_per_block, 512);
  EXPECT_EQ(cuda.device_name, "test GPU");
  Target vulkan = driver::target_from_device(limits, TargetKind::Vulkan);
  EXPECT_EQ(vulkan.kind, TargetKind::Vulkan);
  EXPECT_EQ(vulkan.profile, "device");
  EXPECT_EQ(vulkan.vulkan_version, 13);
  EXPECT_EQ(vulkan.max_threads_per_block, 512);
  limits.api_version_minor = 2;
  EXPECT_EQ(driver::target_from_device(limits, TargetKind::Vulkan).vulkan_version, 11);
}

}  // namespace
}  // namespace relaxc::codegen
