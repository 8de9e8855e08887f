// NumPy .npy files: the magic, a version, a Python-literal header dict, then the data.
#include "runtime/npy.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

#include "runtime/device.h"
#include "runtime/input_file.h"

namespace relaxc::runtime {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// numpy aligns the data to 64 bytes (the header is padded with spaces before its '\n').
constexpr size_t kAlignment = 64;

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  runtime_error() << name << ": " << message;
}

// The element types .npy descriptors spell (without the byte-order character).
struct DescrEntry {
  std::string_view kind_size;
  DType dtype;
};
constexpr DescrEntry kDescrs[] = {
    {"b1", DType::Bool()},    {"i1", DType::Int(8)},    {"i2", DType::Int(16)},
    {"i4", DType::Int(32)},   {"i8", DType::Int(64)},   {"u1", DType::UInt(8)},
    {"u2", DType::UInt(16)},  {"u4", DType::UInt(32)},  {"u8", DType::UInt(64)},
    {"f2", DType::Float(16)}, {"f4", DType::Float(32)}, {"f8", DType::Float(64)},
};

// NumPy has no bfloat16: a bfloat16 array is the structured dtype of one uint16 field
// named bfloat16 holding each element's bits, as NumPy writes it (read back with
// np.load(path)["bfloat16"], written with bits.view([("bfloat16", "<u2")])).
constexpr std::string_view kBfloat16Descr = "[('bfloat16', '<u2')]";

DType dtype_from_descr(const std::string& descr, const std::string& name) {
  if (descr == kBfloat16Descr) return DType{DType::Code::BFloat, 16, 1};
  if (descr.size() < 2) fail(name, "unsupported dtype '" + descr + "'");
  char order = descr[0];
  std::string_view kind_size = std::string_view(descr).substr(1);
  if (order == '>') {
    // One-byte types carry no byte order; '>i1' is as good as '|i1'.
    bool one_byte = kind_size.size() == 2 && kind_size[1] == '1';
    if (!one_byte) fail(name, "'" + descr + "': big-endian data is not supported");
  } else if (order != '<' && order != '|' && order != '=') {
    fail(name, "unsupported dtype '" + descr + "'");
  }
  for (const DescrEntry& entry : kDescrs) {
    if (entry.kind_size == kind_size) return entry.dtype;
  }
  fail(name, "unsupported dtype '" + descr +
                 "'; supported: bool, int8-64, uint8-64, float16/32/64, bfloat16 as " +
                 std::string(kBfloat16Descr));
}

// The descr as the header spells it: a quoted string, or bfloat16's list.
std::string descr_from_dtype(DType dtype) {
  if (dtype == DType{DType::Code::BFloat, 16, 1}) return std::string(kBfloat16Descr);
  if (dtype.lanes == 1) {
    for (const DescrEntry& entry : kDescrs) {
      if (entry.dtype == dtype) {
        char order = dtype.bytes() == 1 ? '|' : '<';
        return "'" + (order + std::string(entry.kind_size)) + "'";
      }
    }
  }
  std::string code = dtype.code == DType::Code::Int     ? "int"
                     : dtype.code == DType::Code::UInt  ? "uint"
                     : dtype.code == DType::Code::Float ? "float"
                                                        : "bfloat";
  std::string spelled = code + std::to_string(dtype.bits) +
                        (dtype.lanes == 1 ? "" : "x" + std::to_string(dtype.lanes));
  runtime_error() << "a " << spelled
                  << " tensor cannot be written as .npy; supported: bool, int8-64, uint8-64, "
                     "float16/32/64, bfloat16";
}

// A reader of the header's Python dict literal: {'descr': '<f4', 'fortran_order':
// False, 'shape': (2, 3), }. Only strings, True/False and tuples of integers occur.
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

  NpyArray parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<int64_t>> shape;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      std::string key = parse_string();
      expect(':');
      if (key == "descr") {
        skip_space();
        descr = peek() == '[' ? parse_structured_descr() : parse_string();
      } else if (key == "fortran_order") {
        fortran_order = parse_bool();
      } else if (key == "shape") {
        shape = parse_shape();
      } else {
        error("unexpected key '" + key + "'");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') error("expected ',' or '}'");
    }
    if (!descr) error("no 'descr'");
    if (!fortran_order) error("no 'fortran_order'");
    if (!shape) error("no 'shape'");
    if (*fortran_order) fail(name_, "Fortran-order arrays are not supported; save in C order");
    NpyArray array;
    array.dtype = dtype_from_descr(*descr, name_);
    array.shape = std::move(*shape);
    return array;
  }

 private:
  [[noreturn]] void error(const std::string& what) {
    fail(name_, "bad header at offset " + std::to_string(pos_) + ": " + what + " in \"" +
                    std::string(text_) + "\"");
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void expect(char c) {
    skip_space();
    if (peek() != c) error(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string parse_string() {
    skip_space();
    char quote = peek();
    if (quote != '\'' && quote != '"') error("expected a string");
    size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) error("unterminated string");
    std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return value;
  }
  // A structured dtype's list, which only bfloat16's may be.
  std::string parse_structured_descr() {
    size_t end = text_.find(']', pos_);
    if (end == std::string_view::npos) error("unterminated list");
    std::string descr(text_.substr(pos_, end + 1 - pos_));
    if (descr != kBfloat16Descr) {
      fail(name_, "structured dtypes are not supported (but bfloat16 as " +
                      std::string(kBfloat16Descr) + ")");
    }
    pos_ = end + 1;
    return descr;
  }
  bool parse_bool() {
    skip_space();
    for (auto [word, value] : {std::pair{std::string_view("True"), true}, {"False", false}}) {
      if (text_.substr(pos_).starts_with(word)) {
        pos_ += word.size();
        return value;
      }
    }
    error("expected True or False");
  }
  int64_t parse_int() {
    skip_space();
    size_t begin = pos_;
    int64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      int digit = text_[pos_] - '0';
      if (value > (std::numeric_limits<int64_t>::max() - digit) / 10) {
        fail(name_, "shape dimension " + std::string(text_.substr(begin, pos_ - begin + 1)) +
                        "... is too large");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == begin) error("expected a non-negative integer");
    if (peek() == 'L') ++pos_;  // Python 2's long literals
    return value;
  }
  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> shape;
    expect('(');
    while (true) {
      skip_space();
      if (peek() == ')') break;
      shape.push_back(parse_int());
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != ')') error("expected ',' or ')' in the shape");
    }
    ++pos_;
    return shape;
  }

  std::string_view text_;
  const std::string& name_;
  size_t pos_ = 0;
};

// Product of the dims times `element_bytes`, or nullopt on overflow.
std::optional<uint64_t> data_bytes(const std::vector<int64_t>& shape, int element_bytes) {
  uint64_t bytes = static_cast<uint64_t>(element_bytes);
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  for (int64_t dim : shape) {
    if (dim < 0) return std::nullopt;
    if (dim != 0 && bytes > kLimit / static_cast<uint64_t>(dim)) return std::nullopt;
    bytes *= static_cast<uint64_t>(dim);
  }
  return bytes;
}

uint64_t read_le(std::span<const uint8_t> bytes, size_t offset, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) value |= static_cast<uint64_t>(bytes[offset + i]) << (8 * i);
  return value;
}

}  // namespace

NpyArray parse_npy(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.size() < kMagic.size() + 2 ||
      std::memcmp(bytes.data(), kMagic.data(), kMagic.size()) != 0) {
    fail(name, "not a .npy file (it does not start with \"\\x93NUMPY\")");
  }
  int major = bytes[6];
  int minor = bytes[7];
  if (major < 1 || major > 3 || minor != 0) {
    fail(name, "unsupported .npy version " + std::to_string(major) + "." +
                   std::to_string(minor) + "; this reader knows 1.0, 2.0 and 3.0");
  }
  int length_width = major == 1 ? 2 : 4;
  size_t prefix = 8 + static_cast<size_t>(length_width);
  if (bytes.size() < prefix) fail(name, "truncated: the file ends inside its header length");
  uint64_t header_length = read_le(bytes, 8, length_width);
  if (header_length > bytes.size() - prefix) {
    fail(name, "truncated: the header says " + std::to_string(header_length) +
                   " bytes, the file has " + std::to_string(bytes.size() - prefix) +
                   " after the prefix");
  }
  std::string_view header(reinterpret_cast<const char*>(bytes.data()) + prefix, header_length);
  // Padding: spaces, then the newline that ends the header.
  while (!header.empty() && (header.back() == '\n' || header.back() == ' ')) {
    header.remove_suffix(1);
  }
  NpyArray array = HeaderParser(header, name).parse();

  std::optional<uint64_t> expected = data_bytes(array.shape, array.dtype.bytes());
  if (!expected) fail(name, "the shape's size overflows");
  size_t data_offset = prefix + header_length;
  uint64_t actual = bytes.size() - data_offset;
  if (actual != *expected) {
    fail(name, std::string(actual < *expected ? "truncated" : "trailing bytes") + ": the shape " +
                   "needs " + std::to_string(*expected) + " bytes of data, the file has " +
                   std::to_string(actual));
  }
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(data_offset), bytes.end());
  return array;
}

NpyArray read_npy(const std::string& path) {
  return parse_npy(read_input_file(path, kMaxDataFileBytes), path == "-" ? kStdinName : path);
}

std::vector<uint8_t> format_npy(const NpyArray& array) {
  std::string descr = descr_from_dtype(array.dtype);
  std::optional<uint64_t> expected = data_bytes(array.shape, array.dtype.bytes());
  if (!expected || *expected != array.data.size()) {
    runtime_error() << "format_npy: " << array.data.size()
                    << " bytes of data do not match the shape";
  }
  std::string header = "{'descr': " + descr + ", 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < array.shape.size(); ++i) {
    header += std::to_string(array.shape[i]);
    if (i + 1 < array.shape.size() || array.shape.size() == 1) header += ",";
    if (i + 1 < array.shape.size()) header += " ";
  }
  header += "), }";
  // Version 1.0 unless the header needs more than its 16-bit length.
  size_t prefix = 10;
  size_t total = (prefix + header.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
  int major = 1;
  if (total - prefix > 0xffff) {
    major = 2;
    prefix = 12;
    total = (prefix + header.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
  }
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';

  std::vector<uint8_t> bytes(kMagic.begin(), kMagic.end());
  bytes.push_back(static_cast<uint8_t>(major));
  bytes.push_back(0);
  uint64_t length = header.size();
  for (size_t i = 0; i < prefix - 8; ++i) bytes.push_back(static_cast<uint8_t>(length >> (8 * i)));
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), array.data.begin(), array.data.end());
  return bytes;
}

void write_npy(const std::string& path, const NpyArray& array) {
  std::vector<uint8_t> bytes = format_npy(array);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) runtime_error() << path << ": cannot write: " << std::strerror(errno);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  file.close();
  if (!file) runtime_error() << path << ": cannot write: " << std::strerror(errno);
}

}  // namespace relaxc::runtime
