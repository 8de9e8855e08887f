// What the relaxc commands share: reading inputs and choosing targets.
#include "tools/cli.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "codegen/target_backend.h"
#include "driver/compile.h"
#include "runtime/input_file.h"
#include "runtime/vulkan/vulkan_device.h"

namespace relaxc::tools {

Source read_source(const std::string& input) {
  std::vector<uint8_t> bytes = runtime::read_input_file(input, runtime::kMaxTextFileBytes);
  return {input == "-" ? runtime::kStdinName : input, std::string(bytes.begin(), bytes.end())};
}

void write_file(const std::string& path, std::span<const uint8_t> bytes) {
  if (path == "-") {  // checked when the command flushes standard output at its end
    std::cout.write(reinterpret_cast<const char*>(bytes.data()),
                    static_cast<std::streamsize>(bytes.size()));
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FileError{path + ": cannot write: it is a directory"};
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw FileError{path + ": cannot write: " + std::strerror(errno)};
  file.write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) throw FileError{path + ": cannot write: " + std::strerror(errno)};
}

void write_output(const CommandLine& cl, const std::string& text) {
  if (!cl.output) {
    std::cout << text;
    return;
  }
  write_file(*cl.output, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

bool is_input_file(const std::string& output, const std::string& input) {
  if (input == "-") return false;
  std::error_code ec;
  return output == input || std::filesystem::equivalent(output, input, ec);
}

void check_output_is_not_input(const CommandLine& cl) {
  if (cl.output && is_input_file(*cl.output, cl.input)) {
    throw UsageError{"-o '" + *cl.output + "' is the input file; it would be overwritten"};
  }
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
