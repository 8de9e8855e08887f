// check_kernel_code: a light scan of a kernel's SPIR-V (header, instruction lengths, the
// entry point, its LocalSize, the descriptor decorations) or PTX (text, the .entry and
// its parameters, through the CUDA device's scan_ptx_entries), the checks that keep
// damaged code away from a driver.
#include <cstring>
#include <optional>
#include <string_view>
#include <utility>

#include "runtime/cuda/cuda_kernels.h"
#include "runtime/kernel_checks.h"
#include "runtime/runtime_error.h"

namespace relaxc::runtime {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kMaxSpirvIdBound = 4194303;  // SPIR-V's universal limit
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpFunction = 54;
constexpr uint32_t kOpFunctionEnd = 56;
constexpr uint32_t kOpDecorate = 71;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;

// The literal string starting at `words[begin]`, up to its terminating zero byte.
std::string literal_string(const std::vector<uint32_t>& words, size_t begin, size_t end) {
  std::string text;
  for (size_t i = begin; i < end; ++i) {
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[i] >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

void check_spirv(const KernelBinary& binary) {
  const std::string where = "kernel '" + binary.name + "': ";
  if (binary.code.size() % 4 != 0) {
    runtime_error() << where << "the SPIR-V code is " << binary.code.size()
                    << " bytes, not a whole number of 32-bit words";
  }
  if (binary.code.size() < 20) {
    runtime_error() << where << "the SPIR-V code is " << binary.code.size()
                    << " bytes, shorter than the 5-word SPIR-V header";
  }
  std::vector<uint32_t> words(binary.code.size() / 4);
  std::memcpy(words.data(), binary.code.data(), binary.code.size());
  if (words[0] != kSpirvMagic) {
    runtime_error() << where << "the code does not start with the SPIR-V magic number "
                    << hex_word(kSpirvMagic) << " (found " << hex_word(words[0]) << ")";
  }
  if ((words[1] >> 16) != 1 || (words[1] & 0xff) != 0) {
    runtime_error() << where << "the SPIR-V version word " << hex_word(words[1])
                    << " is not a version 1.x";
  }
  const uint32_t bound = words[3];
  if (bound == 0 || bound > kMaxSpirvIdBound) {
    runtime_error() << where << "the SPIR-V id bound " << bound << " is outside 1 to "
                    << kMaxSpirvIdBound;
  }
  if (words[4] != 0)
    runtime_error() << where << "the SPIR-V schema word is " << words[4] << ", not 0";

  std::optional<uint32_t> entry_id;
  std::vector<std::string> compute_entry_points;
  std::vector<std::pair<uint32_t, std::array<uint32_t, 3>>> local_sizes;
  uint32_t last_opcode = 0;
  bool in_functions = false;  // entry points, modes and decorations come before functions
  for (size_t at = 5; at < words.size();) {
    const uint32_t word_count = words[at] >> 16;
    const uint32_t opcode = words[at] & 0xffff;
    if (word_count == 0 || word_count > words.size() - at) {
      runtime_error() << where << "the SPIR-V module is damaged (the instruction at word " << at
                      << " has a bad length)";
    }
    last_opcode = opcode;
    in_functions = in_functions || opcode == kOpFunction;
    if (!in_functions) {
      if (opcode == kOpEntryPoint && word_count >= 4 && words[at + 1] == kExecutionModelGLCompute) {
        std::string entry = literal_string(words, at + 3, at + word_count);
        if (entry == binary.name) entry_id = words[at + 2];
        compute_entry_points.push_back(std::move(entry));
      }
      if (opcode == kOpExecutionMode && word_count >= 6 &&
          words[at + 2] == kExecutionModeLocalSize) {
        local_sizes.push_back({words[at + 1], {words[at + 3], words[at + 4], words[at + 5]}});
      }
      if (opcode == kOpDecorate && word_count >= 4) {
        const uint32_t value = words[at + 3];
        if (words[at + 2] == kDecorationDescriptorSet && value != 0) {
          runtime_error() << where << "the SPIR-V module declares descriptor set " << value
                          << "; the kernel ABI binds its buffers in set 0";
        }
        if (words[at + 2] == kDecorationBinding &&
            (binary.num_buffers < 0 || value >= static_cast<uint32_t>(binary.num_buffers))) {
          runtime_error() << where << "the SPIR-V module declares binding " << value
                          << "; the kernel ABI has " << binary.num_buffers
                          << " buffers (bindings 0 to " << binary.num_buffers - 1 << ")";
        }
      }
    }
    at += word_count;
  }
  if (last_opcode != kOpFunctionEnd) {
    runtime_error() << where << "the SPIR-V module is damaged (it does not end with OpFunctionEnd)";
  }
  if (!entry_id) {
    std::string found;
    for (const std::string& name : compute_entry_points) {
      found += (found.empty() ? "'" : ", '") + name + "'";
    }
    runtime_error() << where << "the SPIR-V module has no GLCompute entry point named '"
                    << binary.name << "' (it has " << (found.empty() ? "none" : found) << ")";
  }
  for (const auto& [id, size] : local_sizes) {
    if (id == *entry_id && size != binary.block_size) {
      runtime_error() << where << "the block size " << size_text(binary.block_size)
                      << " differs from the SPIR-V module's LocalSize " << size_text(size);
    }
  }
}

// The entry's parameters against the ABI: 8-byte pointers for the buffers, then 4- or
// 8-byte integers for the scalars.
void check_ptx_parameters(const KernelBinary& binary, const std::vector<size_t>& sizes) {
  const std::string where = "kernel '" + binary.name + "': ";
  size_t expected = static_cast<size_t>(binary.num_buffers) + binary.scalars.size();
  if (sizes.size() != expected) {
    runtime_error() << where << "the PTX entry takes " << sizes.size()
                    << " parameter(s), but its ABI has " << binary.num_buffers << " buffer(s) and "
                    << binary.scalars.size() << " scalar(s)";
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    bool is_buffer = i < static_cast<size_t>(binary.num_buffers);
    size_t want = 8;
    std::string what = "buffer argument " + std::to_string(i) + " (a 64-bit pointer)";
    if (!is_buffer) {
      size_t scalar = i - binary.num_buffers;
      bool wide = binary.scalars[scalar] == ScalarType::Int64;
      want = wide ? 8 : 4;
      what = "scalar argument " + std::to_string(scalar) + (wide ? " (int64)" : " (int32)");
    }
    if (sizes[i] != want) {
      runtime_error() << where << "PTX parameter " << i << " is " << sizes[i]
                      << " bytes, but the ABI passes " << what << " there, " << want << " bytes";
    }
  }
}

void check_ptx(const KernelBinary& binary) {
  const std::string where = "kernel '" + binary.name + "': ";
  std::string_view text(reinterpret_cast<const char*>(binary.code.data()), binary.code.size());
  while (!text.empty() && text.back() == '\0') text.remove_suffix(1);  // a C string's end
  if (text.empty()) runtime_error() << where << "the PTX text is empty";
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
      runtime_error() << where << "the PTX text has byte " << int{c} << " at offset " << i
                      << "; PTX is text";
    }
  }
  const std::vector<PtxEntry> entries = scan_ptx_entries(text);
  for (const PtxEntry& entry : entries) {
    if (entry.name != binary.name) continue;
    if (entry.param_sizes) check_ptx_parameters(binary, *entry.param_sizes);
    return;
  }
  std::string names;
  for (const PtxEntry& entry : entries) names += (names.empty() ? "'" : ", '") + entry.name + "'";
  runtime_error() << where << "the PTX module has no .entry named '" << binary.name << "' (it has "
                  << (names.empty() ? "none" : names) << ")";
}

}  // namespace

void check_kernel_code(const KernelBinary& binary) {
  switch (binary.format) {
    case KernelFormat::SpirV:
      check_spirv(binary);
      return;
    case KernelFormat::Ptx:
      check_ptx(binary);
      return;
  }
  runtime_error() << "kernel '" << binary.name << "': unknown kernel format "
                  << static_cast<int>(binary.format);
}

}  // namespace relaxc::runtime
