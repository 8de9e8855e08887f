// The safetensors reader and writer. The header is read by a small JSON parser that
// knows the shapes safetensors uses (objects, arrays, strings, non-negative integers)
// and nests at most a few levels; anything else in the header is damage.
#include "ir/support/safetensors.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <set>

#include "ir/support/diagnostics.h"
#include "ir/support/json_text.h"

namespace relaxc {
namespace {

// The safetensors name of each data type a side file holds.
const std::vector<std::pair<std::string, DataType>>& dtype_names() {
  static const std::vector<std::pair<std::string, DataType>> names = {
      {"F64", DataType::Float(64)},   {"F32", DataType::Float(32)}, {"F16", DataType::Float(16)},
      {"BF16", DataType::BFloat(16)}, {"I64", DataType::Int(64)},   {"I32", DataType::Int(32)},
      {"I16", DataType::Int(16)},     {"I8", DataType::Int(8)},     {"U64", DataType::UInt(64)},
      {"U32", DataType::UInt(32)},    {"U16", DataType::UInt(16)},  {"U8", DataType::UInt(8)},
      {"BOOL", DataType::Bool()}};
  return names;
}

// The header never needs more: name -> {dtype, shape, data_offsets} is three levels.
constexpr int kMaxJsonDepth = 4;

struct Json {
  enum class Kind { Object, Array, String, Integer };
  Kind kind = Kind::Integer;
  std::vector<std::string> keys;  // Object, in file order, with `items` their values
  std::vector<Json> items;        // Array; Object: the values
  std::string text;               // String
  uint64_t integer = 0;           // Integer
};

class JsonReader {
 public:
  JsonReader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Json document() {
    Json value = parse(0);
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the header's object");
    return value;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    user_error() << file_ << ": damaged header: " << what << " at byte " << 8 + pos_
                 << " of the file";
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\t')) {
      ++pos_;
    }
  }
  bool eat(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  Json parse(int depth) {
    if (depth > kMaxJsonDepth) fail("nested too deeply");
    skip_space();
    if (pos_ >= text_.size()) fail("unexpected end");
    Json v;
    const char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = Json::Kind::Object;
      if (eat('}')) return v;
      do {
        skip_space();
        std::string key = string();
        expect(':');
        v.keys.push_back(std::move(key));
        v.items.push_back(parse(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.kind = Json::Kind::Array;
      if (eat(']')) return v;
      do v.items.push_back(parse(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Kind::String;
      v.text = string();
    } else if (c >= '0' && c <= '9') {
      v.kind = Json::Kind::Integer;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        const uint64_t digit = static_cast<uint64_t>(text_[pos_] - '0');
        if (v.integer > (UINT64_MAX - digit) / 10) fail("an integer too large");
        v.integer = v.integer * 10 + digit;
        ++pos_;
      }
    } else {
      fail("expected an object, an array, a string or a non-negative integer");
    }
    return v;
  }
  // A string; escapes of the ASCII range only (names and dtypes are ASCII in practice).
  std::string string() {
    if (pos_ >= text_.size() || text_[pos_] != '"') fail("expected a string");
    ++pos_;
    std::string out;
    while (true) {
      if (pos_ >= text_.size()) fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("a control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) fail("unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (text_.size() - pos_ < 4) fail("a short \\u escape");
          unsigned code = 0;
          for (int i = 0; i < 4; ++i) {
            const char h = text_[pos_++];
            const int digit = h >= '0' && h <= '9'   ? h - '0'
                              : h >= 'a' && h <= 'f' ? h - 'a' + 10
                              : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                     : -1;
            if (digit < 0) fail("a bad \\u escape");
            code = code * 16 + static_cast<unsigned>(digit);
          }
          if (code >= 0x80) fail("a \\u escape outside ASCII");
          out += static_cast<char>(code);
          break;
        }
        default:
          fail(std::string("an unknown escape '\\") + e + "'");
      }
    }
  }

  std::string_view text_;
  const std::string& file_;
  size_t pos_ = 0;
};

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

// The bytes a tensor of `dtype` and `shape` holds, or nullopt when the count overflows.
std::optional<uint64_t> tensor_bytes(DataType dtype, const std::vector<int64_t>& shape) {
  uint64_t n = static_cast<uint64_t>(dtype.bytes());
  for (int64_t d : shape) {
    if (d < 0 || __builtin_mul_overflow(n, static_cast<uint64_t>(d), &n)) return std::nullopt;
  }
  return n;
}

// One header entry, checked, with its data copied out of `data`.
NamedTensor read_entry(const std::string& name, const Json& entry, std::span<const uint8_t> data,
                       const std::string& file) {
  const std::string where = file + ": tensor '" + name + "'";
  if (entry.kind != Json::Kind::Object) user_error() << where << ": expected an object";
  const Json* dtype = nullptr;
  const Json* shape = nullptr;
  const Json* offsets = nullptr;
  for (size_t i = 0; i < entry.keys.size(); ++i) {
    const std::string& key = entry.keys[i];
    const Json** slot = key == "dtype"          ? &dtype
                        : key == "shape"        ? &shape
                        : key == "data_offsets" ? &offsets
                                                : nullptr;
    if (slot == nullptr) user_error() << where << ": unknown field '" << key << "'";
    if (*slot != nullptr) user_error() << where << ": field '" << key << "' given twice";
    *slot = &entry.items[i];
  }
  if (dtype == nullptr || shape == nullptr || offsets == nullptr) {
    user_error() << where << ": expected the fields dtype, shape and data_offsets";
  }
  NamedTensor out;
  out.name = name;
  if (dtype->kind != Json::Kind::String) user_error() << where << ": dtype is not a string";
  auto known = std::find_if(dtype_names().begin(), dtype_names().end(),
                            [&](const auto& p) { return p.first == dtype->text; });
  if (known == dtype_names().end()) {
    user_error() << where << ": unsupported dtype '" << dtype->text
                 << "' (expected F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8 or "
                    "BOOL)";
  }
  out.tensor.dtype = known->second;
  if (shape->kind != Json::Kind::Array) user_error() << where << ": shape is not an array";
  for (const Json& d : shape->items) {
    if (d.kind != Json::Kind::Integer || d.integer > static_cast<uint64_t>(INT64_MAX)) {
      user_error() << where << ": shape holds something other than a dimension";
    }
    out.tensor.shape.push_back(static_cast<int64_t>(d.integer));
  }
  if (offsets->kind != Json::Kind::Array || offsets->items.size() != 2 ||
      offsets->items[0].kind != Json::Kind::Integer ||
      offsets->items[1].kind != Json::Kind::Integer) {
    user_error() << where << ": data_offsets is not [begin, end]";
  }
  const uint64_t begin = offsets->items[0].integer;
  const uint64_t end = offsets->items[1].integer;
  if (begin > end || end > data.size()) {
    user_error() << where << ": data_offsets [" << begin << ", " << end << "] lie outside the "
                 << data.size() << " bytes of data (truncated?)";
  }
  const std::optional<uint64_t> want = tensor_bytes(out.tensor.dtype, out.tensor.shape);
  if (!want || *want != end - begin) {
    user_error() << where << ": data_offsets [" << begin << ", " << end << "] hold " << end - begin
                 << " bytes; a " << out.tensor.dtype.str() << " tensor of shape "
                 << shape_text(out.tensor.shape) << " has "
                 << (want ? std::to_string(*want) : std::string("more than 2^64"));
  }
  const auto first = data.begin() + static_cast<ptrdiff_t>(begin);
  out.tensor.data = std::make_shared<const std::vector<uint8_t>>(
      first, first + static_cast<ptrdiff_t>(end - begin));
  return out;
}

}  // namespace

std::vector<uint8_t> write_safetensors(const std::vector<NamedTensor>& tensors,
                                       const std::string& file) {
  std::string header = "{";
  uint64_t at = 0;
  for (const NamedTensor& t : tensors) {
    auto known = std::find_if(dtype_names().begin(), dtype_names().end(),
                              [&](const auto& p) { return p.second == t.tensor.dtype; });
    if (known == dtype_names().end()) {
      user_error() << file << ": tensor '" << t.name << "': data type " << t.tensor.dtype.str()
                   << " has no safetensors name";
    }
    const std::optional<uint64_t> bytes = tensor_bytes(t.tensor.dtype, t.tensor.shape);
    const uint64_t held = t.tensor.data == nullptr ? 0 : t.tensor.data->size();
    if (!bytes || *bytes != held) {
      user_error() << file << ": tensor '" << t.name << "': " << held << " bytes of data for a "
                   << t.tensor.dtype.str() << " tensor of shape " << shape_text(t.tensor.shape);
    }
    if (header.size() > 1) header += ",";
    header += json_string(t.name) + ":{\"dtype\":\"" + known->first +
              "\",\"shape\":" + shape_text(t.tensor.shape) + ",\"data_offsets\":[" +
              std::to_string(at) + "," + std::to_string(at + *bytes) + "]}";
    at += *bytes;
  }
  header += "}";
  header.resize((header.size() + 7) / 8 * 8, ' ');
  std::vector<uint8_t> out;
  out.reserve(8 + header.size() + static_cast<size_t>(at));
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<uint8_t>(uint64_t{header.size()} >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  for (const NamedTensor& t : tensors) {
    if (t.tensor.data != nullptr)
      out.insert(out.end(), t.tensor.data->begin(), t.tensor.data->end());
  }
  return out;
}

std::vector<NamedTensor> read_safetensors(std::span<const uint8_t> bytes, const std::string& file) {
  if (bytes.size() < 8) {
    user_error() << file << ": truncated: " << bytes.size()
                 << " bytes, not even the 8-byte header length";
  }
  uint64_t header_bytes = 0;
  for (int i = 0; i < 8; ++i) header_bytes |= uint64_t{bytes[static_cast<size_t>(i)]} << (8 * i);
  if (header_bytes > bytes.size() - 8) {
    user_error() << file << ": truncated: a header of " << header_bytes
                 << " bytes does not fit in the " << bytes.size() - 8 << " bytes after its length";
  }
  const std::string_view header(reinterpret_cast<const char*>(bytes.data()) + 8,
                                static_cast<size_t>(header_bytes));
  const std::span<const uint8_t> data = bytes.subspan(8 + static_cast<size_t>(header_bytes));
  Json root = JsonReader(header, file).document();
  if (root.kind != Json::Kind::Object) user_error() << file << ": the header is not an object";
  std::vector<NamedTensor> tensors;
  std::set<std::string> seen;
  for (size_t i = 0; i < root.keys.size(); ++i) {
    const std::string& name = root.keys[i];
    const Json& entry = root.items[i];
    if (!seen.insert(name).second) user_error() << file << ": tensor '" << name << "' given twice";
    if (name == "__metadata__") {
      if (entry.kind != Json::Kind::Object)
        user_error() << file << ": __metadata__ is not an object";
      continue;
    }
    tensors.push_back(read_entry(name, entry, data, file));
  }
  return tensors;
}

}  // namespace relaxc
