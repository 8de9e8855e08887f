// Tests of open_device: the spec strings the tools accept, the device each one opens
// where it is present, and the message for each spec that cannot be satisfied.
#include "runtime/open_device.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_device.h"
#include "runtime/device_registry.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::runtime {
namespace {

std::string open_error(const std::string& spec) {
  try {
    open_device(spec);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "(no error)";
}

bool has_vulkan() {
  try {
    return !list_vulkan_devices().empty();
  } catch (const RuntimeError&) {
    return false;
  }
}

bool has_cuda() {
  try {
    return !list_cuda_devices().empty();
  } catch (const RuntimeError&) {
    return false;
  }
}

TEST(OpenDevice, UnknownKinds) {
  EXPECT_EQ(open_error("metal"),
            "device 'metal': unknown device kind 'metal'; expected 'auto', 'vulkan', "
            "'vulkan:INDEX', 'vulkan:NAME', 'cuda' or 'cuda:INDEX'");
  EXPECT_EQ(open_error("vulkan:"),
            "device 'vulkan:': nothing after ':'; expected 'auto', 'vulkan', 'vulkan:INDEX', "
            "'vulkan:NAME', 'cuda' or 'cuda:INDEX'");
  EXPECT_EQ(open_error("cuda:first"),
            "device 'cuda:first': 'first' is not a CUDA device index (0, 1, ...)");
  EXPECT_EQ(open_error("cuda:-1"), "device 'cuda:-1': '-1' is not a CUDA device index (0, 1, ...)");
}

std::vector<std::string> names_of(std::span<const DeviceKind* const> kinds) {
  std::vector<std::string> names;
  for (const DeviceKind* kind : kinds) names.emplace_back(kind->name);
  return names;
}

TEST(DeviceRegistry, ListsTheKindsAndFindsThemByName) {
  EXPECT_EQ(names_of(device_kinds()), (std::vector<std::string>{"vulkan", "cuda"}));
  EXPECT_EQ(names_of(device_kinds_by_preference()), (std::vector<std::string>{"cuda", "vulkan"}));
  ASSERT_NE(find_device_kind("vulkan"), nullptr);
  EXPECT_EQ(find_device_kind("vulkan")->display_name, "Vulkan");
  EXPECT_EQ(find_device_kind("vulkan")->kernel_format, KernelFormat::SpirV);
  ASSERT_NE(find_device_kind("cuda"), nullptr);
  EXPECT_EQ(find_device_kind("cuda")->display_name, "CUDA");
  EXPECT_EQ(find_device_kind("cuda")->kernel_format, KernelFormat::Ptx);
  EXPECT_EQ(find_device_kind("metal"), nullptr);
  EXPECT_EQ(find_device_kind("Vulkan"), nullptr);  // names are exact
  EXPECT_EQ(find_device_kind(""), nullptr);
}

TEST(DeviceRegistry, UnknownKindNamesEveryRegisteredKind) {
  std::string error = open_error("webgpu:0");
  EXPECT_TRUE(error.starts_with("device 'webgpu:0': unknown device kind 'webgpu'; expected "))
      << error;
  for (const DeviceKind* kind : device_kinds()) {
    EXPECT_NE(error.find("'" + std::string(kind->name) + "'"), std::string::npos) << error;
    for (std::string_view form : kind->selector_forms) {
      std::string spec = "'" + std::string(kind->name) + ":" + std::string(form) + "'";
      EXPECT_NE(error.find(spec), std::string::npos) << error;
    }
  }
}

TEST(OpenDevice, Vulkan) {
  if (!has_vulkan()) GTEST_SKIP() << "no Vulkan device";
  std::vector<DeviceLimits> devices = list_vulkan_devices();
  std::unique_ptr<Device> by_kind = open_device("vulkan");
  EXPECT_EQ(by_kind->kernel_format(), KernelFormat::SpirV);
  std::unique_ptr<Device> by_index = open_device("vulkan:0");
  EXPECT_EQ(by_index->limits().name, devices[0].name);
  // A substring of the name, in any case.
  std::string name = devices[0].name;
  std::string word = name.substr(0, std::min<size_t>(name.size(), 4));
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  std::unique_ptr<Device> by_name = open_device("vulkan:" + word);
  EXPECT_EQ(by_name->limits().name, devices[0].name);
}

TEST(OpenDevice, VulkanNoMatchListsTheDevices) {
  if (!has_vulkan()) GTEST_SKIP() << "no Vulkan device";
  std::vector<DeviceLimits> devices = list_vulkan_devices();
  std::string out_of_range = open_error("vulkan:" + std::to_string(devices.size()));
  EXPECT_TRUE(out_of_range.starts_with("device 'vulkan:" + std::to_string(devices.size()) +
                                       "': Vulkan device index"))
      << out_of_range;
  EXPECT_NE(out_of_range.find(devices[0].name), std::string::npos) << out_of_range;
  std::string no_match = open_error("vulkan:no-such-gpu");
  EXPECT_TRUE(no_match.starts_with("device 'vulkan:no-such-gpu': no Vulkan device matches "
                                   "\"no-such-gpu\""))
      << no_match;
  EXPECT_NE(no_match.find(devices[0].name), std::string::npos) << no_match;
}

TEST(OpenDevice, CudaAbsentSaysWhy) {
  if (has_cuda()) GTEST_SKIP() << "a CUDA device is present";
  std::string error = open_error("cuda");
  EXPECT_TRUE(error.starts_with("device 'cuda': CUDA is not available")) << error;
  EXPECT_TRUE(open_error("cuda:0").starts_with("device 'cuda:0': CUDA is not available"));
}

TEST(OpenDevice, CudaPresent) {
  if (!has_cuda()) GTEST_SKIP() << "no CUDA device";
  EXPECT_EQ(open_device("cuda")->kernel_format(), KernelFormat::Ptx);
  EXPECT_EQ(open_device("cuda:0")->kernel_format(), KernelFormat::Ptx);
  int count = static_cast<int>(list_cuda_devices().size());
  std::string error = open_error("cuda:" + std::to_string(count));
  EXPECT_TRUE(error.starts_with("device 'cuda:" + std::to_string(count) + "': ")) << error;
}

TEST(OpenDevice, AutoPrefersCudaThenVulkan) {
  if (!has_cuda() && !has_vulkan()) {
    std::string error = open_error("auto");
    EXPECT_TRUE(error.starts_with("device 'auto': no device present. CUDA: ")) << error;
    return;
  }
  KernelFormat expected = has_cuda() ? KernelFormat::Ptx : KernelFormat::SpirV;
  EXPECT_EQ(open_device("auto")->kernel_format(), expected);
  EXPECT_EQ(open_device("")->kernel_format(), expected);
}

}  // namespace
}  // namespace relaxc::runtime
