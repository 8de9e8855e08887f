// Tests of the .npy reader and writer: files as numpy writes them (bytes spelled out
// here), round trips of every supported dtype, and every way a file can be bad.
#include "runtime/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "tests/support/errors.h"

namespace relaxc::runtime {
namespace {

// A .npy file: the magic, version `major`.0, the header padded to `pad_to` bytes, data.
std::vector<uint8_t> npy_bytes(const std::string& dict, const std::vector<uint8_t>& data,
                               int major = 1, size_t pad_to = 64) {
  std::vector<uint8_t> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<uint8_t>(major), 0};
  size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  while ((prefix + header.size() + 1) % pad_to != 0) header += ' ';
  header += '\n';
  for (size_t i = 0; i < prefix - 8; ++i) {
    bytes.push_back(static_cast<uint8_t>(header.size() >> (8 * i)));
  }
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

std::vector<uint8_t> float_bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::string parse_error(const std::vector<uint8_t>& bytes) {
  try {
    parse_npy(bytes, "in.npy");
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Npy, ReadsWhatNumpyWrites) {
  // numpy.save of np.arange(6, dtype=np.float32).reshape(2, 3): header padded to 64.
  std::vector<uint8_t> data = float_bytes({0, 1, 2, 3, 4, 5});
  NpyArray a =
      parse_npy(npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", data),
                "a.npy");
  EXPECT_EQ(a.dtype, DType::Float(32));
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a.data, data);
}

TEST(Npy, HeaderVariants) {
  // Keys in another order, double quotes, 16-byte padding (old numpy), version 2.0 and
  // 3.0, a one-dimensional shape "(4,)", a scalar "()", Python 2's "3L".
  std::vector<uint8_t> four = float_bytes({1, 2, 3, 4});
  NpyArray a = parse_npy(
      npy_bytes("{\"shape\": (4,), \"fortran_order\": False, \"descr\": \"<f4\"}", four, 1, 16),
      "a.npy");
  EXPECT_EQ(a.shape, (std::vector<int64_t>{4}));
  NpyArray b = parse_npy(
      npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four, 2), "b.npy");
  EXPECT_EQ(b.shape, (std::vector<int64_t>{4}));
  NpyArray c = parse_npy(
      npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", four, 3), "c.npy");
  EXPECT_EQ(c.shape, (std::vector<int64_t>{2, 2}));
  NpyArray scalar = parse_npy(
      npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (), }", std::vector<uint8_t>(8)),
      "s.npy");
  EXPECT_TRUE(scalar.shape.empty());
  EXPECT_EQ(scalar.dtype, DType::Int(64));
  NpyArray py2 = parse_npy(
      npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (3L,), }", {1, 2, 3}), "p.npy");
  EXPECT_EQ(py2.shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(py2.dtype, DType::UInt(8));
  NpyArray empty = parse_npy(
      npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 5), }", {}), "e.npy");
  EXPECT_EQ(empty.shape, (std::vector<int64_t>{0, 5}));
  EXPECT_TRUE(empty.data.empty());
}

TEST(Npy, Descriptors) {
  struct Case {
    const char* descr;
    DType dtype;
  };
  for (Case c : {Case{"|b1", DType::Bool()}, {"|i1", DType::Int(8)}, {"<i2", DType::Int(16)},
                 {"<i4", DType::Int(32)}, {"<i8", DType::Int(64)}, {"|u1", DType::UInt(8)},
                 {"<u2", DType::UInt(16)}, {"<u4", DType::UInt(32)}, {"<u8", DType::UInt(64)},
                 {"<f2", DType::Float(16)}, {"<f4", DType::Float(32)}, {"<f8", DType::Float(64)},
                 {"=f4", DType::Float(32)}, {">u1", DType::UInt(8)}}) {
    std::vector<uint8_t> data(static_cast<size_t>(c.dtype.bytes()) * 2);
    std::string dict =
        std::string("{'descr': '") + c.descr + "', 'fortran_order': False, 'shape': (2,), }";
    NpyArray a = parse_npy(npy_bytes(dict, data), "d.npy");
    EXPECT_EQ(a.dtype, c.dtype) << c.descr;
  }
}

TEST(Npy, RoundTripsEveryDtype) {
  for (DType dtype :
       {DType::Bool(), DType::Int(8), DType::Int(16), DType::Int(32), DType::Int(64),
        DType::UInt(8), DType::UInt(16), DType::UInt(32), DType::UInt(64), DType::Float(16),
        DType::Float(32), DType::Float(64), DType{DType::Code::BFloat, 16, 1}}) {
    NpyArray a;
    a.dtype = dtype;
    a.shape = {3, 1, 2};
    for (int i = 0; i < 6 * dtype.bytes(); ++i) a.data.push_back(static_cast<uint8_t>(i * 7 + 1));
    std::vector<uint8_t> bytes = format_npy(a);
    // The data starts 64-byte aligned, after a header that ends in '\n'.
    size_t data_offset = bytes.size() - a.data.size();
    EXPECT_EQ(data_offset % 64, 0u);
    EXPECT_EQ(bytes[data_offset - 1], '\n');
    NpyArray b = parse_npy(bytes, "rt.npy");
    EXPECT_EQ(b.dtype, a.dtype);
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.data, a.data);
  }
}

TEST(Npy, WritesNumpysHeader) {
  NpyArray a;
  a.dtype = DType::Float(32);
  a.shape = {5};
  a.data = float_bytes({1, 2, 3, 4, 5});
  std::vector<uint8_t> bytes = format_npy(a);
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), std::string("\x93NUMPY\x01\x00", 8));
  std::string header(bytes.begin() + 10, bytes.end() - 20);
  EXPECT_TRUE(header.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"))
      << header;
  a.shape = {};
  a.data = float_bytes({7});
  std::vector<uint8_t> scalar_bytes = format_npy(a);
  std::string scalar(scalar_bytes.begin() + 10, scalar_bytes.end() - 4);
  EXPECT_TRUE(scalar.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (), }"));
}

// NumPy has no bfloat16: np.save of bits.view([("bfloat16", "<u2")]), bytes spelled out.
TEST(Npy, Bfloat16AsNumpysStructuredBits) {
  std::vector<uint8_t> data = {0x80, 0x3f, 0xc0, 0x7f};  // 1.0, NaN
  NpyArray a = parse_npy(
      npy_bytes("{'descr': [('bfloat16', '<u2')], 'fortran_order': False, 'shape': (2,), }", data),
      "bf16.npy");
  EXPECT_EQ(a.dtype, (DType{DType::Code::BFloat, 16, 1}));
  EXPECT_EQ(a.shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(a.data, data);
  std::vector<uint8_t> bytes = format_npy(a);
  std::string header(bytes.begin() + 10, bytes.end() - 4);
  EXPECT_TRUE(header.starts_with(
      "{'descr': [('bfloat16', '<u2')], 'fortran_order': False, 'shape': (2,), }"))
      << header;
}

TEST(Npy, FileRoundTrip) {
  std::filesystem::path path = std::filesystem::temp_directory_path() / "relaxc_npy_test.npy";
  NpyArray a;
  a.dtype = DType::Int(32);
  a.shape = {2, 2};
  a.data = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};
  write_npy(path.string(), a);
  NpyArray b = read_npy(path.string());
  EXPECT_EQ(b.shape, a.shape);
  EXPECT_EQ(b.data, a.data);
  std::filesystem::remove(path);
}

TEST(Npy, MissingFile) {
  try {
    read_npy("/nonexistent/x.npy");
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/x.npy: cannot open: No such file or directory");
  }
}

// A device or a directory is refused before it is read (/dev/zero would never end).
TEST(Npy, NotARegularFile) {
  EXPECT_EQ(runtime_error_of([] { read_npy("/dev/zero"); }),
            "/dev/zero: is a character device; expected a regular file, or '-' for standard input");
  EXPECT_EQ(runtime_error_of([] { read_npy("/"); }),
            "/: is a directory; expected a regular file, or '-' for standard input");
}

TEST(Npy, BadFiles) {
  std::vector<uint8_t> four = float_bytes({1, 2, 3, 4});
  auto with_dict = [&](const std::string& dict) { return parse_error(npy_bytes(dict, four)); };
  EXPECT_EQ(parse_error({'P', 'K', 3, 4}),
            "in.npy: not a .npy file (it does not start with \"\\x93NUMPY\")");
  std::vector<uint8_t> v4 = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
                                      four);
  v4[6] = 4;
  EXPECT_EQ(parse_error(v4),
            "in.npy: unsupported .npy version 4.0; this reader knows 1.0, 2.0 and 3.0");
  EXPECT_EQ(with_dict("{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }"),
            "in.npy: '>f4': big-endian data is not supported");
  EXPECT_EQ(with_dict("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }"),
            "in.npy: unsupported dtype '<c8'; supported: bool, int8-64, uint8-64, float16/32/64, "
            "bfloat16 as [('bfloat16', '<u2')]");
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }"),
            "in.npy: Fortran-order arrays are not supported; save in C order");
  EXPECT_EQ(with_dict("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,), }"),
            "in.npy: structured dtypes are not supported (but bfloat16 as [('bfloat16', "
            "'<u2')])");
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, }"),
            "in.npy: bad header at offset 41: no 'shape' in "
            "\"{'descr': '<f4', 'fortran_order': False, }\"");
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }"),
            "in.npy: bad header at offset 51: expected a non-negative integer in "
            "\"{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }\"");
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,), }"),
            "in.npy: bad header at offset 34: expected True or False in "
            "\"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,), }\"");
  EXPECT_EQ(
      with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
      "in.npy: shape dimension 9999999999999999999... is too large");
  EXPECT_EQ(
      with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
      "in.npy: the shape's size overflows");
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }"),
            "in.npy: truncated: the shape needs 20 bytes of data, the file has 16");
  EXPECT_EQ(with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"),
            "in.npy: trailing bytes: the shape needs 12 bytes of data, the file has 16");
  std::vector<uint8_t> cut = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }",
                                       four);
  cut.resize(30);
  EXPECT_EQ(parse_error(cut), "in.npy: truncated: the header says 118 bytes, the file has 20 "
                              "after the prefix");
  EXPECT_EQ(parse_error({0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 1}),
            "in.npy: truncated: the file ends inside its header length");
}

TEST(Npy, RefusesToWriteWhatNpyCannotHold) {
  NpyArray a;
  a.dtype = DType{DType::Code::Float, 32, 4};
  a.shape = {1};
  a.data = std::vector<uint8_t>(16);
  try {
    format_npy(a);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_STREQ(e.what(),
                 "a float32x4 tensor cannot be written as .npy; supported: bool, int8-64, "
                 "uint8-64, float16/32/64, bfloat16");
  }
}

}  // namespace
}  // namespace relaxc::runtime
