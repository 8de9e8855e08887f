// Writing and reading a text module with its weights side file. The text refers to
// constants by index; the side file names tensor i "relax.expr.Constant.<i>", so that a
// side file of another module (or a damaged one) is caught by its names and the
// normalizer's StructInfo checks rather than giving silently different weights.
#include "driver/module_files.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <span>

#include "ir/support/diagnostics.h"
#include "ir/support/safetensors.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "runtime/input_file.h"
#include "runtime/runtime_error.h"

namespace relaxc::driver {
namespace {

constexpr char kTensorPrefix[] = "relax.expr.Constant.";

void write_bytes(const std::string& path, std::span<const char> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) user_error() << path << ": cannot write: " << std::strerror(errno);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) user_error() << path << ": cannot write: " << std::strerror(errno);
}

// The side file's tensors by index; every name must be kTensorPrefix and an index, and
// the indices 0 .. n-1 all there.
std::vector<HostTensor> load_weights(const std::string& path) {
  std::shared_ptr<const runtime::InputBytes> file;
  try {
    file = runtime::map_input_file(path, runtime::kMaxDataFileBytes);
  } catch (const runtime::RuntimeError& e) {
    user_error() << e.what() << " (the weights side file of a module that refers to metadata)";
  }
  std::vector<NamedTensor> named = read_safetensors(file->bytes(), path);
  std::vector<HostTensor> tensors(named.size());
  std::vector<bool> given(named.size(), false);
  for (NamedTensor& t : named) {
    const std::string_view prefix = kTensorPrefix;
    size_t index = 0;
    const bool numbered = t.name.starts_with(prefix) && t.name.size() > prefix.size() &&
                          t.name.size() - prefix.size() <= 9 &&
                          std::all_of(t.name.begin() + static_cast<ptrdiff_t>(prefix.size()),
                                      t.name.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numbered) index = std::stoul(t.name.substr(prefix.size()));
    if (!numbered || index >= named.size() || given[index]) {
      user_error() << path << ": tensor '" << t.name << "': expected the names " << kTensorPrefix
                   << "0 to " << kTensorPrefix << named.size() - 1 << ", each once";
    }
    given[index] = true;
    tensors[index] = std::move(t.tensor);
  }
  return tensors;
}

}  // namespace

std::string weights_path(const std::string& py_path) {
  return std::filesystem::path(py_path).replace_extension(".safetensors").string();
}

void write_module_with_weights(const IRModule& module, const std::string& py_path) {
  text::MetadataConstants metadata;
  const std::string text = text::print_module(module, &metadata);
  if (!metadata.tensors.empty()) {
    std::vector<NamedTensor> named;
    for (size_t i = 0; i < metadata.tensors.size(); ++i) {
      named.push_back({kTensorPrefix + std::to_string(i), metadata.tensors[i]});
    }
    const std::string side = weights_path(py_path);
    const std::vector<uint8_t> bytes = write_safetensors(named, side);
    write_bytes(side, std::span(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  write_bytes(py_path, text);
}

IRModule parse_module_with_weights(std::string_view text, const std::string& path) {
  if (path == "-" || path == runtime::kStdinName) return text::parse_module(text, path);
  return text::parse_module(text, path, [&] { return load_weights(weights_path(path)); });
}

}  // namespace relaxc::driver
