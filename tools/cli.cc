// What the relaxc commands share: reading inputs and choosing targets.
#include "tools/cli.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include "codegen/target_backend.h"
#include "driver/compile.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::tools {

Source read_source(const std::string& input) {
  if (input == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (std::cin.bad()) throw FileError{"cannot read standard input"};
    return {"<stdin>", std::move(text)};
  }
  std::vector<uint8_t> bytes = read_bytes(input);
  return {input, std::string(bytes.begin(), bytes.end())};
}

std::vector<uint8_t> read_bytes(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FileError{"cannot read '" + path + "': it is a directory"};
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) throw FileError{"cannot read '" + path + "': " + std::strerror(errno)};
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                             std::istreambuf_iterator<char>());
  if (file.bad()) throw FileError{"cannot read '" + path + "': " + std::strerror(errno)};
  return bytes;
}

Target device_target(const runtime::Device& device, int max_vulkan_version) {
  TargetKind kind = codegen::backend_for(device.kernel_format()).kind;
  Target target = driver::target_from_device(device.limits(), kind);
  if (kind == TargetKind::Vulkan) {
    target.vulkan_version = std::min(target.vulkan_version, max_vulkan_version);
  }
  return target;
}

Target resolve_target(const std::string& text, std::string_view command) {
  Target target = parse_target(text);
  if (target.kind != TargetKind::Vulkan || text.find("-profile=") != std::string::npos) {
    return target;
  }
  try {
    std::unique_ptr<runtime::VulkanDevice> device = runtime::open_vulkan_device();
    bool version_given = text.find("-version=") != std::string::npos;
    return device_target(*device, version_given ? target.vulkan_version : 11);
  } catch (const runtime::RuntimeError& e) {
    std::cerr << "relaxc " << command << ": warning: no Vulkan device to read limits from ("
              << e.what() << "); using the desktop profile\n";
    return target;
  }
}

}  // namespace relaxc::tools
