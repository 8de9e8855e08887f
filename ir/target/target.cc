// Targets: parsing target strings and the named device profiles.
#include "ir/target/target.h"

#include <sstream>
#include <vector>

#include "ir/support/diagnostics.h"

namespace relaxc {
namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// "-name=value" -> {name, value}; a word without '=' has an empty value.
std::pair<std::string, std::string> option_of(const std::string& word) {
  size_t eq = word.find('=');
  if (eq == std::string::npos) return {word, ""};
  return {word.substr(0, eq), word.substr(eq + 1)};
}

[[noreturn]] void bad_target(const std::string& text, const std::string& why) {
  throw UserError(Span{}, "invalid target '" + text + "': " + why);
}

int parse_cuda_arch(const std::string& text, const std::string& value) {
  if (value.size() < 4 || value.rfind("sm_", 0) != 0) {
    bad_target(text, "-arch expects sm_70 ... sm_90, got '" + value + "'");
  }
  int arch = 0;
  for (size_t i = 3; i < value.size(); ++i) {
    char c = value[i];
    if (c < '0' || c > '9' || arch > 1000) {
      bad_target(text, "-arch expects sm_70 ... sm_90, got '" + value + "'");
    }
    arch = arch * 10 + (c - '0');
  }
  if (arch < 70 || arch > 90) {
    bad_target(text, "-arch " + value + " is not supported; expected sm_70 ... sm_90");
  }
  return arch;
}

}  // namespace

std::string Target::str() const {
  if (kind == TargetKind::Cuda) return "cuda -arch=sm_" + std::to_string(cuda_arch);
  std::string s = "vulkan -profile=" + profile;
  if (vulkan_version != 11) s += " -version=1." + std::to_string(vulkan_version % 10);
  return s;
}

bool Target::supports(DataType dtype) const {
  if (dtype.is_handle()) return true;
  if (dtype.is_bool()) return true;
  switch (dtype.bits()) {
    case 8:
      return dtype.is_int() || dtype.is_uint() ? supports_int8 : false;
    case 16:
      if (dtype.is_bfloat()) return kind == TargetKind::Cuda && cuda_arch >= 80;
      if (dtype.is_float()) return supports_fp16;
      return supports_int16;
    case 32:
      return true;
    case 64:
      return dtype.is_float() ? supports_fp64 : supports_int64;
    default:
      return false;
  }
}

bool Target::emulates_bfloat16() const { return kind == TargetKind::Vulkan && supports_int16; }

Target vulkan_profile(const std::string& name) {
  Target t;
  t.kind = TargetKind::Vulkan;
  t.profile = name;
  if (name == "desktop") {
    t.max_threads_per_block = 1024;
    t.max_block_size = {1024, 1024, 64};
    t.max_grid_size = {65535, 65535, 65535};
    t.max_shared_memory_bytes = 48 * 1024;
    t.max_push_constant_bytes = 128;
    t.subgroup_size = 32;
    t.supports_fp16 = t.supports_int8 = t.supports_int16 = t.supports_int64 = true;
    t.supports_subgroup_arithmetic = true;
    return t;
  }
  if (name == "mobile") {
    t.max_threads_per_block = 128;
    t.max_block_size = {128, 128, 64};
    t.max_grid_size = {65535, 65535, 65535};
    t.max_shared_memory_bytes = 16 * 1024;
    t.max_push_constant_bytes = 128;
    t.subgroup_size = 0;
    return t;
  }
  throw UserError(Span{}, "unknown Vulkan profile '" + name + "'; expected 'desktop' or 'mobile'");
}

Target cuda_target(int arch) {
  Target t;
  t.kind = TargetKind::Cuda;
  t.profile = "sm_" + std::to_string(arch);
  t.cuda_arch = arch;
  t.max_threads_per_block = 1024;
  t.max_block_size = {1024, 1024, 64};
  t.max_grid_size = {2147483647, 65535, 65535};
  t.max_shared_memory_bytes = 48 * 1024;
  t.max_local_memory_bytes = 512 * 1024;
  t.max_push_constant_bytes = 4096;  // kernel parameter space
  t.subgroup_size = 32;
  t.max_vector_lanes = 16;
  t.supports_fp16 = arch >= 53;
  t.supports_fp64 = t.supports_int8 = t.supports_int16 = t.supports_int64 = true;
  t.supports_subgroup_arithmetic = true;
  return t;
}

Target parse_target(const std::string& text) {
  std::vector<std::string> words = split_words(text);
  if (words.empty()) bad_target(text, "expected 'vulkan' or 'cuda'");
  if (words[0] == "vulkan") {
    std::string profile = "desktop";
    int version = 11;
    for (size_t i = 1; i < words.size(); ++i) {
      auto [name, value] = option_of(words[i]);
      if (name == "-profile") {
        profile = value;
      } else if (name == "-version") {
        if (value == "1.1") {
          version = 11;
        } else if (value == "1.3") {
          version = 13;
        } else {
          bad_target(text, "-version expects 1.1 or 1.3, got '" + value + "'");
        }
      } else {
        bad_target(text, "unknown option '" + words[i] +
                             "' for vulkan; expected -profile=NAME or "
                             "-version=1.1|1.3");
      }
    }
    if (profile != "desktop" && profile != "mobile") {
      bad_target(text, "unknown profile '" + profile + "'; expected 'desktop' or 'mobile'");
    }
    Target t = vulkan_profile(profile);
    t.vulkan_version = version;
    return t;
  }
  if (words[0] == "cuda") {
    int arch = 80;
    for (size_t i = 1; i < words.size(); ++i) {
      auto [name, value] = option_of(words[i]);
      if (name != "-arch")
        bad_target(text, "unknown option '" + words[i] + "' for cuda; expected -arch=sm_NN");
      arch = parse_cuda_arch(text, value);
    }
    return cuda_target(arch);
  }
  bad_target(text, "unknown target kind '" + words[0] + "'; expected 'vulkan' or 'cuda'");
}

}  // namespace relaxc
