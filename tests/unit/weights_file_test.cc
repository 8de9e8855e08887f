// The weights side file: safetensors reading and writing, and a text module with large
// constants written as model.py + model.safetensors and read back bit-exactly; every
// kind of damaged side file gives its message.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "driver/module_files.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/support/safetensors.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"

namespace relaxc {
namespace {

// A float32 tensor whose elements include what a decimal round trip could lose: NaN
// with a payload, -0, a denormal, infinities, and values of every exponent.
HostTensor float_weights(int64_t n) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(n) * 4);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t bits = static_cast<uint32_t>(i) * 2654435761u;
    if (i == 0) bits = 0x7fc01234u;  // NaN with a payload
    if (i == 1) bits = 0x80000000u;  // -0
    if (i == 2) bits = 0x00000001u;  // the smallest denormal
    if (i == 3) bits = 0xff800000u;  // -inf
    std::memcpy(bytes->data() + i * 4, &bits, 4);
  }
  return {DataType::Float(32), {n / 8, 8}, std::move(bytes)};
}

HostTensor int64_weights(int64_t n) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(static_cast<size_t>(n) * 8);
  for (int64_t i = 0; i < n; ++i) {
    int64_t v = (i % 2 == 0 ? -1 : 1) * (int64_t{1} << (i % 63));
    std::memcpy(bytes->data() + i * 8, &v, 8);
  }
  return {DataType::Int(64), {n}, std::move(bytes)};
}

constexpr char kModule[] = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 8), dtype="float32")) -> R.Tuple(R.Tensor((16, 8), dtype="float32"), R.Tensor((100,), dtype="int64")):
        a: R.Tensor((16, 8), dtype="float32") = R.add(x, metadata["relax.expr.Constant"][0])
        b: R.Tensor((16, 8), dtype="float32") = R.multiply(a, metadata["relax.expr.Constant"][0])
        c: R.Tensor((2,), dtype="float32") = R.const([1.5, -2.0], "float32")
        return (b, metadata["relax.expr.Constant"][1])
)";

// The module above with its two constants (built through the metadata loader, as any
// caller of the parser may).
IRModule sample_module() {
  return text::parse_module(kModule, "sample.py", [] {
    return std::vector<HostTensor>{float_weights(128), int64_weights(100)};
  });
}

std::string temp_dir() {
  std::string dir = ::testing::TempDir() + "weights_file_test";
  std::filesystem::create_directories(dir);
  return dir;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const UserError& e) {
    return e.diagnostics().front().message;
  }
  return "no error";
}

TEST(WeightsFile, RoundTripIsBitExact) {
  const IRModule module = sample_module();
  const std::string py = temp_dir() + "/model.py";
  driver::write_module_with_weights(module, py);
  EXPECT_EQ(driver::weights_path(py), temp_dir() + "/model.safetensors");
  const std::string text = read_text(py);
  // The large constants by reference (the same node twice, one entry), the small one inline.
  EXPECT_NE(text.find("R.add(x, metadata[\"relax.expr.Constant\"][0])"), std::string::npos) << text;
  EXPECT_NE(text.find("R.multiply(a, metadata[\"relax.expr.Constant\"][0])"), std::string::npos);
  EXPECT_NE(text.find("metadata[\"relax.expr.Constant\"][1]"), std::string::npos);
  EXPECT_EQ(text.find("metadata[\"relax.expr.Constant\"][2]"), std::string::npos);
  EXPECT_NE(text.find("R.const([1.5, -2.0], \"float32\")"), std::string::npos);

  const IRModule back = driver::parse_module_with_weights(text, py);
  EXPECT_TRUE(structural_equal(module, back));
  // Structural equality compares elements; the bytes are compared too (NaN payloads).
  text::MetadataConstants before, after;
  text::print_module(module, &before);
  text::print_module(back, &after);
  ASSERT_EQ(after.tensors.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(*before.tensors[i].data, *after.tensors[i].data) << i;
    EXPECT_EQ(before.tensors[i].shape, after.tensors[i].shape);
  }
  // Printing again gives the same text and the same side file.
  const std::vector<uint8_t> side = [&] {
    const std::string s = read_text(driver::weights_path(py));
    return std::vector<uint8_t>(s.begin(), s.end());
  }();
  driver::write_module_with_weights(back, py);
  EXPECT_EQ(read_text(py), text);
  EXPECT_EQ(read_text(driver::weights_path(py)), std::string(side.begin(), side.end()));
}

TEST(WeightsFile, SmallConstantsNeedNoSideFile) {
  const std::string py = temp_dir() + "/small.py";
  std::filesystem::remove(driver::weights_path(py));
  const IRModule module = text::parse_module(
      "@I.ir_module\nclass Module:\n    @R.function\n    def main() -> R.Tensor((2,), "
      "dtype=\"float32\"):\n        return R.const([1.0, 2.0], \"float32\")\n",
      "small.py");
  driver::write_module_with_weights(module, py);
  EXPECT_FALSE(std::filesystem::exists(driver::weights_path(py)));
  EXPECT_TRUE(structural_equal(module, driver::parse_module_with_weights(read_text(py), py)));
}

TEST(WeightsFile, MetadataNeedsAFile) {
  EXPECT_EQ(error_of([] { text::parse_module(kModule, "sample.py"); }),
            "metadata[\"relax.expr.Constant\"][0] refers to a weights side file, which is read "
            "only for a module read from a file (model.py's is model.safetensors)");
  EXPECT_EQ(error_of([] { driver::parse_module_with_weights(kModule, "-"); }),
            "metadata[\"relax.expr.Constant\"][0] refers to a weights side file, which is read "
            "only for a module read from a file (model.py's is model.safetensors)");
  EXPECT_EQ(error_of([] {
              text::parse_module(kModule, "sample.py",
                                 [] { return std::vector<HostTensor>{float_weights(128)}; });
            }),
            "metadata[\"relax.expr.Constant\"][1]: the weights side file holds 1 constants");
}

// The side file of the sample written next to `name`.py, then `damage` applied to its bytes;
// the message of reading it back.
std::string damaged(const std::string& name,
                    const std::function<void(std::vector<uint8_t>&)>& damage) {
  const std::string py = temp_dir() + "/" + name + ".py";
  driver::write_module_with_weights(sample_module(), py);
  const std::string side = driver::weights_path(py);
  std::string s = read_text(side);
  std::vector<uint8_t> bytes(s.begin(), s.end());
  damage(bytes);
  write_text(side, std::string(bytes.begin(), bytes.end()));
  return error_of([&] { driver::parse_module_with_weights(read_text(py), py); });
}

// Replaces `from` by `to` (the same length) in the header.
void edit_header(std::vector<uint8_t>& bytes, const std::string& from, const std::string& to) {
  std::string s(bytes.begin(), bytes.end());
  const size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  ASSERT_EQ(from.size(), to.size());
  std::memcpy(bytes.data() + at, to.data(), to.size());
}

TEST(WeightsFile, DamagedSideFilesAreClearErrors) {
  const std::string dir = temp_dir();
  {
    const std::string py = dir + "/missing.py";
    driver::write_module_with_weights(sample_module(), py);
    std::filesystem::remove(driver::weights_path(py));
    EXPECT_EQ(error_of([&] { driver::parse_module_with_weights(read_text(py), py); }),
              dir +
                  "/missing.safetensors: cannot open: No such file or directory (the weights "
                  "side file of a module that refers to metadata)");
  }
  EXPECT_EQ(damaged("truncated", [](std::vector<uint8_t>& b) { b.resize(b.size() - 1); }),
            dir +
                "/truncated.safetensors: tensor 'relax.expr.Constant.1': data_offsets [512, "
                "1312] lie outside the 1311 bytes of data (truncated?)");
  EXPECT_EQ(damaged("short", [](std::vector<uint8_t>& b) { b.resize(5); }),
            dir + "/short.safetensors: truncated: 5 bytes, not even the 8-byte header length");
  EXPECT_EQ(damaged("long_header", [](std::vector<uint8_t>& b) { b[5] = 1; }),
            dir +
                "/long_header.safetensors: truncated: a header of 1099511627936 bytes does not "
                "fit in the 1472 bytes after its length");
  // A well-formed side file whose types or shapes disagree with the text: the StructInfo
  // the text annotates catches it.
  EXPECT_EQ(damaged("dtype", [](std::vector<uint8_t>& b) { edit_header(b, "\"I64\"", "\"F64\""); }),
            "the function's return annotation R.Tuple(R.Tensor((16, 8), dtype=\"float32\"), "
            "R.Tensor((100,), dtype=\"int64\")) does not fit its body's StructInfo "
            "R.Tuple(R.Tensor((16, 8), dtype=\"float32\"), R.Tensor((100,), dtype=\"float64\"))");
  EXPECT_EQ(
      damaged("bad_dtype", [](std::vector<uint8_t>& b) { edit_header(b, "\"I64\"", "\"X64\""); }),
      dir +
          "/bad_dtype.safetensors: tensor 'relax.expr.Constant.1': unsupported dtype "
          "'X64' (expected F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8 or "
          "BOOL)");
  EXPECT_EQ(damaged("shape", [](std::vector<uint8_t>& b) { edit_header(b, "[16, 8]", "[8, 16]"); }),
            "R.add: cannot broadcast dimension 1 of the operands: 8 (x1) vs 16 (x2)");
  EXPECT_EQ(damaged("lie", [](std::vector<uint8_t>& b) { edit_header(b, "[16, 8]", "[16, 9]"); }),
            dir +
                "/lie.safetensors: tensor 'relax.expr.Constant.0': data_offsets [0, 512] hold "
                "512 bytes; a float32 tensor of shape [16, 9] has 576");
  EXPECT_EQ(
      damaged("json", [](std::vector<uint8_t>& b) { edit_header(b, "\"shape\":", "\"shape\" "); }),
      dir + "/json.safetensors: damaged header: expected ':' at byte 56 of the file");
  EXPECT_EQ(damaged("name",
                    [](std::vector<uint8_t>& b) {
                      edit_header(b, "relax.expr.Constant.1", "relax.expr.Constant.7");
                    }),
            dir +
                "/name.safetensors: tensor 'relax.expr.Constant.7': expected the names "
                "relax.expr.Constant.0 to relax.expr.Constant.1, each once");
}

TEST(Safetensors, ReaderChecksEveryField) {
  auto file = [](const std::string& header, size_t data) {
    std::vector<uint8_t> b(8, 0);
    for (int i = 0; i < 8; ++i)
      b[static_cast<size_t>(i)] = static_cast<uint8_t>(header.size() >> (8 * i));
    b.insert(b.end(), header.begin(), header.end());
    b.resize(b.size() + data, 0);
    return b;
  };
  auto error = [](const std::vector<uint8_t>& b) {
    return error_of([&] { read_safetensors(b, "w.safetensors"); });
  };
  EXPECT_EQ(error(file("{}", 0)), "no error");
  EXPECT_EQ(error(file("{\"__metadata__\":{\"format\":\"pt\"}}", 0)), "no error");
  EXPECT_EQ(error(file("[]", 0)), "w.safetensors: the header is not an object");
  EXPECT_EQ(error(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                       "\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}",
                       4)),
            "w.safetensors: tensor 'a' given twice");
  EXPECT_EQ(error(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", 4)),
            "w.safetensors: tensor 'a': expected the fields dtype, shape and data_offsets");
  EXPECT_EQ(error(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}", 4)),
            "w.safetensors: tensor 'a': data_offsets [4, 0] lie outside the 4 bytes of data "
            "(truncated?)");
  EXPECT_EQ(error(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", 4)),
            "w.safetensors: damaged header: expected an object, an array, a string or a "
            "non-negative integer at byte 37 of the file");
  EXPECT_EQ(error(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,16],"
                       "\"data_offsets\":[0,4]}}",
                       4)),
            "w.safetensors: tensor 'a': data_offsets [0, 4] hold 4 bytes; a float32 tensor of "
            "shape [4294967296, 4294967296, 16] has more than 2^64");
  EXPECT_EQ(
      error(file("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4],\"x\":1}}", 4)),
      "w.safetensors: tensor 'a': unknown field 'x'");
  EXPECT_EQ(error(file("{\"a\":[[[[[[1]]]]]]}", 0)),
            "w.safetensors: damaged header: nested too deeply at byte 17 of the file");
  EXPECT_EQ(
      error(file(
          "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,99999999999999999999]}}",
          4)),
      "w.safetensors: damaged header: an integer too large at byte 77 of the file");
}

TEST(Safetensors, WriterRefusesWhatItCannotName) {
  HostTensor vector{DataType::Float(32, 4), {1}, std::make_shared<std::vector<uint8_t>>(16)};
  EXPECT_EQ(error_of([&] {
              write_safetensors({{"v", vector}}, "w.safetensors");
            }),
            "w.safetensors: tensor 'v': data type float32x4 has no safetensors name");
  HostTensor short_data{DataType::Float(32), {2}, std::make_shared<std::vector<uint8_t>>(4)};
  EXPECT_EQ(error_of([&] {
              write_safetensors({{"s", short_data}}, "w.safetensors");
            }),
            "w.safetensors: tensor 's': 4 bytes of data for a float32 tensor of shape [2]");
}

}  // namespace
}  // namespace relaxc
