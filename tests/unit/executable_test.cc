// Tests of the executable: save/load round trips, every validation error with its
// message, truncated and damaged files, and the text that `relaxc inspect` prints.
#include "runtime/vm/executable.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "runtime/crc32c.h"
#include "tests/unit/executable_samples.h"

namespace relaxc::runtime::vm {
namespace {

using namespace testing;  // NOLINT: the samples' builders

std::string validation_error(const Executable& exe) {
  try {
    validate_executable(exe);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "<valid>";
}

std::string load_error(const std::vector<uint8_t>& bytes, Checksums checksums = Checksums::Verify) {
  try {
    load_executable(bytes, checksums);
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "<loaded>";
}

// Writes a little-endian uint64 at `pos`.
void put_u64(std::vector<uint8_t>& bytes, size_t pos, uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes[pos + i] = static_cast<uint8_t>(v >> (8 * i));
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(Executable, SampleIsValid) { EXPECT_EQ(validation_error(sample_executable()), "<valid>"); }

TEST(Executable, SaveThenLoadGivesAnEqualExecutable) {
  const Executable exe = sample_executable();
  const std::vector<uint8_t> bytes = save_executable(exe);
  const Executable loaded = load_executable(bytes);
  EXPECT_TRUE(loaded == exe);
  EXPECT_EQ(save_executable(loaded), bytes);
  // Field by field, so that a failure says where.
  EXPECT_EQ(loaded.functions, exe.functions);
  EXPECT_EQ(loaded.constants, exe.constants);
  EXPECT_EQ(loaded.host_funcs, exe.host_funcs);
  EXPECT_EQ(loaded.backends, exe.backends);
  EXPECT_EQ(loaded.exports, exe.exports);
}

TEST(Executable, EmptyExecutableRoundTrips) {
  const Executable empty;
  EXPECT_TRUE(load_executable(save_executable(empty)) == empty);
}

TEST(Executable, FileHeaderLayout) {
  const std::vector<uint8_t> bytes = save_executable(Executable{});
  // Magic, version 4, then each section: its tag, its length, the CRC-32C of its body,
  // the body (an array length of 0; the data section: zeros up to file offset 192, the
  // first multiple of kConstantAlignment after its header).
  std::vector<uint8_t> expected = {'R', 'L', 'X', 'C', 'V', 'M', 0, 1, 5, 0, 0, 0};
  auto section = [&](const char* tag, size_t length) {
    expected.insert(expected.end(), tag, tag + 4);
    for (int i = 0; i < 8; ++i) expected.push_back(static_cast<uint8_t>(length >> (8 * i)));
    const uint32_t crc = crc32c(std::vector<uint8_t>(length, 0));
    for (int i = 0; i < 4; ++i) expected.push_back(static_cast<uint8_t>(crc >> (8 * i)));
    expected.insert(expected.end(), length, 0);
  };
  for (const char* tag : {"FUNC", "CNST", "HOST", "BKND", "EXPT"}) section(tag, 8);
  section("DATA", 44);
  EXPECT_EQ(bytes.size(), 192u);
  EXPECT_EQ(bytes, expected);
}

TEST(Executable, SaveAndLoadAFile) {
  const std::string path = ::testing::TempDir() + "/executable_test.rxe";
  const Executable exe = sample_executable();
  save_executable_file(exe, path);
  EXPECT_TRUE(load_executable_file(path) == exe);
  std::remove(path.c_str());
}

TEST(Executable, FileErrorsNameThePath) {
  const std::string missing = ::testing::TempDir() + "/no_such_dir/model.rxe";
  try {
    load_executable_file(missing);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": cannot open: No such file or directory");
  }
  try {
    save_executable_file(sample_executable(), missing);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()), "executable file '" + missing +
                                         "': cannot open for writing: No such file or directory");
  }
  const std::string damaged = ::testing::TempDir() + "/damaged.rxe";
  {
    std::ofstream out(damaged, std::ios::binary);
    out << "RLXCVM";
  }
  try {
    load_executable_file(damaged);
    FAIL() << "no error";
  } catch (const RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "executable file '" + damaged +
                  "': truncated at byte 6 while reading the header: 1 bytes needed at byte 6, 0 "
                  "left");
  }
  std::remove(damaged.c_str());
}

TEST(Executable, FindExport) {
  const Executable exe = sample_executable();
  EXPECT_EQ(exe.find_export("main"), kMain);
  EXPECT_EQ(exe.find_export("helper"), kHelper);
  EXPECT_EQ(exe.find_export("vm.builtin.alloc_tensor"), -1);  // a function, not exported
  EXPECT_EQ(exe.find_export("nothing"), -1);
}

TEST(Executable, WrongMagicFormatAndVersion) {
  std::vector<uint8_t> bytes = save_executable(sample_executable());
  std::vector<uint8_t> wrong = bytes;
  wrong[0] = 'X';
  EXPECT_EQ(load_error(wrong),
            "executable: not a relaxc executable (it does not start with \"RLXCVM\")");
  EXPECT_EQ(load_error({}),
            "executable: not a relaxc executable (it does not start with \"RLXCVM\")");
  wrong = bytes;
  wrong[7] = 2;
  EXPECT_EQ(load_error(wrong), "executable: format bytes 0.2, this runtime reads 0.1");
  wrong = bytes;
  wrong[8] = 7;
  EXPECT_EQ(load_error(wrong), "executable: version 7, this runtime reads version 5");
}

TEST(Executable, DamagedSectionTagsAndTrailingBytes) {
  std::vector<uint8_t> bytes = save_executable(Executable{});
  std::vector<uint8_t> wrong = bytes;
  wrong[12 + 24] = 'X';  // the constants' tag, after the header and the functions section
  EXPECT_EQ(load_error(wrong),
            "executable: damaged at byte 36: expected the section tag 'CNST' while reading the "
            "constants");
  wrong = bytes;
  wrong.push_back(0);
  wrong.push_back(0);
  EXPECT_EQ(load_error(wrong), "executable: 2 unexpected bytes after the end, at byte 192");
}

// Lengths inside a section, past its checksum (as a fuzzer or a hostile writer gets).
TEST(Executable, HugeLengthsAreRefusedBeforeAllocating) {
  std::vector<uint8_t> bytes = save_executable(Executable{});
  put_u64(bytes, 28, uint64_t{1} << 62);  // the number of functions
  EXPECT_EQ(load_error(bytes, Checksums::Ignore),
            "executable: truncated at byte 36 while reading the functions: 4611686018427387904 "
            "elements of at least 57 bytes (length at byte 28) do not fit in the 0 bytes left");
  bytes = save_executable(Executable{});
  put_u64(bytes, 28, ~uint64_t{0});
  EXPECT_TRUE(contains(load_error(bytes, Checksums::Ignore),
                       "18446744073709551615 elements of at least 57 bytes"));
  bytes = save_executable(Executable{});
  put_u64(bytes, 16, ~uint64_t{0});  // the functions section's length
  EXPECT_EQ(load_error(bytes),
            "executable: truncated at byte 192 while reading the functions: section 'FUNC' of "
            "18446744073709551615 bytes (length at byte 16) does not fit in the 164 bytes left");
}

// The file's damage is found by the checksum of the section it is in, before the section
// is read: here a flipped bit in a kernel's SPIR-V, which once reached the driver.
TEST(Executable, DamagedSectionsAreRefusedByTheirChecksum) {
  const std::vector<uint8_t> bytes = save_executable(sample_executable());
  const std::vector<uint8_t> spirv = sample_executable().backends[0].kernels[0].code;
  const auto at = std::search(bytes.begin(), bytes.end(), spirv.begin(), spirv.end());
  ASSERT_NE(at, bytes.end());
  std::vector<uint8_t> damaged = bytes;
  damaged[static_cast<size_t>(at - bytes.begin()) + 40] ^= 0x10;
  const std::string error = load_error(damaged);
  EXPECT_TRUE(error.starts_with("executable: damaged: section 'BKND' (bytes ")) << error;
  EXPECT_TRUE(contains(error, ") has checksum 0x")) << error;
  EXPECT_TRUE(contains(error, ", the file says 0x")) << error;
  // Every single-byte change of every section is caught.
  for (size_t pos = 12; pos < bytes.size(); ++pos) {
    damaged = bytes;
    damaged[pos] ^= 0x01;
    EXPECT_NE(load_error(damaged), "<loaded>") << "byte " << pos;
  }
  // A section whose body is shorter than its length says (its checksum made to match).
  std::vector<uint8_t> empty = save_executable(Executable{});
  empty.insert(empty.begin() + 36, uint8_t{0});  // one more byte in the functions' body
  put_u64(empty, 16, 9);
  EXPECT_EQ(load_error(empty, Checksums::Ignore),
            "executable: damaged: section 'FUNC' has 1 unexpected bytes at its end, at byte 36");
}

TEST(Executable, Crc32c) {
  const std::string check = "123456789";
  EXPECT_EQ(crc32c(std::span(reinterpret_cast<const uint8_t*>(check.data()), check.size())),
            0xE3069283u);
  EXPECT_EQ(crc32c({}), 0u);
}

TEST(Executable, ValidationRunsOnLoad) {
  Executable exe = sample_executable();
  exe.exports = {kAllocTensor};
  EXPECT_EQ(load_error(save_executable(exe)),
            "executable: export 0: function 'vm.builtin.alloc_tensor' is not a Relax (bytecode) "
            "function");
}

// Every prefix of a valid file is refused with a message naming the end of the data.
TEST(Executable, EveryTruncationGivesACleanError) {
  const std::vector<uint8_t> bytes = save_executable(sample_executable());
  std::set<std::string> contexts;
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + n);
    const std::string error = load_error(prefix);
    if (n < 6) {
      EXPECT_EQ(error, "executable: not a relaxc executable (it does not start with \"RLXCVM\")");
      continue;
    }
    const std::string start =
        "executable: truncated at byte " + std::to_string(n) + " while reading ";
    ASSERT_EQ(error.substr(0, start.size()), start) << "prefix of " << n << " bytes";
    contexts.insert(error.substr(start.size(), error.find(':', start.size()) - start.size()));
  }
  // What was being read is named: the header or the section whose length runs past the
  // end. (Inside a section, only a length that its checksum vouches for is read.)
  for (const char* what : {"the header", "the functions", "the constants", "the host functions",
                           "the backends", "the exports", "the constants' data"}) {
    EXPECT_TRUE(contexts.count(what)) << what;
  }
  EXPECT_EQ(contexts.size(), 7u);
}

// The file offset of the data fields (offset, then length) of constant `i`'s record in
// `bytes`, a saved sample_executable(): after the functions section, the constants
// section's header and count, and the records before it (kind, dtype, shape, data
// offset and length, string, int, float).
size_t data_record_at(const std::vector<uint8_t>& bytes, size_t i) {
  auto u64_at = [&](size_t at) {
    uint64_t v = 0;
    for (int b = 0; b < 8; ++b) v |= uint64_t{bytes[at + b]} << (8 * b);
    return static_cast<size_t>(v);
  };
  const Executable exe = sample_executable();
  size_t at = 12 + 16 + u64_at(12 + 4) + 16 + 8;
  for (size_t j = 0;; ++j) {
    const size_t fields = at + 1 + 4 + 8 + 8 * exe.constants[j].shape.size();
    if (j == i) return fields;
    at = fields + 16 + 8 + exe.constants[j].str.size() + 8 + 8;
  }
}

TEST(Executable, TensorBytesAreAlignedInTheFileAndViewTheMapping) {
  const std::string path = ::testing::TempDir() + "/aligned_test.rxe";
  const Executable exe = sample_executable();
  save_executable_file(exe, path);
  const std::vector<uint8_t> bytes = save_executable(exe);
  const Executable loaded = load_executable_file(path);
  EXPECT_TRUE(loaded == exe);
  // A mapping starts at a page, so an aligned file offset is an aligned address: the
  // constant views the file, not a copy.
  for (const Constant& c : loaded.constants) {
    if (c.bytes.size() == 0) continue;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(c.bytes.data()) % kConstantAlignment, 0u);
  }
  std::remove(path.c_str());
}

TEST(Executable, DamagedConstantDataIsAClearError) {
  const std::vector<uint8_t> bytes = save_executable(sample_executable());
  // The float32 [2, 3] constant 0 and the int8 [3] constant 7.
  const size_t record0 = data_record_at(bytes, 0);
  const size_t record7 = data_record_at(bytes, 7);
  std::vector<uint8_t> wrong = bytes;
  put_u64(wrong, record7, uint64_t{1} << 40);
  EXPECT_EQ(load_error(wrong, Checksums::Ignore),
            "executable: damaged: constant 7 (record at byte " + std::to_string(record7) +
                ") has 3 bytes at offset 1099511627776 of the data section, which holds 67 "
                "bytes");
  wrong = bytes;
  put_u64(wrong, record0, 8);
  EXPECT_EQ(load_error(wrong, Checksums::Ignore),
            "executable: damaged: constant 0 (record at byte " + std::to_string(record0) +
                ") starts at byte " + std::to_string(bytes.size() - 67 + 8) +
                ", not a multiple of 64");
  // A flipped bit in a weight is caught by the data section's checksum.
  wrong = bytes;
  wrong[bytes.size() - 67] ^= 1;
  EXPECT_EQ(load_error(wrong).substr(0, 39), "executable: damaged: section 'DATA' (by");
  // A truncated file: the data section's length runs past the end.
  wrong.assign(bytes.begin(), bytes.end() - 1);
  EXPECT_TRUE(load_error(wrong).starts_with(
      "executable: truncated at byte " + std::to_string(bytes.size() - 1) +
      " while reading the constants' data: section 'DATA' of "))
      << load_error(wrong);
}

// A mutation of the sample and the message validation gives for it.
struct BadCase {
  std::function<void(Executable&)> mutate;
  std::string message;
};

void expect_errors(const std::vector<BadCase>& cases) {
  for (size_t i = 0; i < cases.size(); ++i) {
    Executable exe = sample_executable();
    cases[i].mutate(exe);
    EXPECT_EQ(validation_error(exe), cases[i].message) << "case " << i;
    // The same message when the file is loaded.
    EXPECT_EQ(load_error(save_executable(exe)), cases[i].message) << "case " << i;
  }
}

FunctionEntry& main_of(Executable& exe) { return exe.functions[kMain]; }

TEST(ExecutableValidation, Instructions) {
  const std::string at = "executable: function 'main', instruction ";
  expect_errors({
      {[](Executable& e) { main_of(e).code[0].func = 99; },
       at + "0 (call): calls function 99, the executable has 7 functions"},
      {[](Executable& e) { main_of(e).code[0].func = -1; },
       at + "0 (call): calls function -1, the executable has 7 functions"},
      {[](Executable& e) { main_of(e).code[0].dst = 6; },
       at + "0 (call): the destination register 6 is outside the function's 6 registers"},
      {[](Executable& e) { main_of(e).code[1].args[0] = reg(-2); },
       at + "1 (call): argument 0: register -2 is outside the function's 6 registers"},
      {[](Executable& e) { main_of(e).code[2].args[2] = constant(8); },
       at + "2 (call): argument 2: constant 8, the executable has 8 constants"},
      {[](Executable& e) { main_of(e).code[7].args[0] = function(7); },
       at + "7 (call): argument 0: function 7, the executable has 7 functions"},
      {[](Executable& e) { main_of(e).code[7].args[1].kind = static_cast<Arg::Kind>(4); },
       at + "7 (call): argument 1: unknown kind 4"},
      {[](Executable& e) { main_of(e).code[5].reg = 6; },
       at + "5 (ret): the returned register 6 is outside the function's 6 registers"},
      {[](Executable& e) { main_of(e).code[8].offset = 2; },
       at + "8 (goto): the offset 2 jumps outside the function's 10 instructions"},
      // Jumps go forward only: a loop would never end.
      {[](Executable& e) { main_of(e).code[8].offset = 0; },
       at + "8 (goto): the offset 0 does not jump forward (jumps only go forward: a loop "
            "would never end)"},
      {[](Executable& e) { main_of(e).code[8].offset = -3; },
       at + "8 (goto): the offset -3 does not jump forward (jumps only go forward: a loop "
            "would never end)"},
      {[](Executable& e) { main_of(e).code[8].offset = INT64_MIN; },
       at + "8 (goto): the offset -9223372036854775808 does not jump forward (jumps only go "
            "forward: a loop would never end)"},
      {[](Executable& e) { main_of(e).code[4].offset = -4; },
       at + "4 (if): the false branch's offset -4 does not jump forward (jumps only go "
            "forward: a loop would never end)"},
      {[](Executable& e) { main_of(e).code[4].offset = 6; },
       at + "4 (if): the false branch's offset 6 jumps outside the function's 10 instructions"},
      // The shape heap: an immediate size, no more than the function can name.
      {[](Executable& e) { main_of(e).code[0].args[0] = imm(4); },
       at + "0 (call): a shape heap of 4 slots; the function's calls and the host functions "
            "name at most 3"},
      {[](Executable& e) { main_of(e).code[0].args[0] = imm(200000000); },
       at + "0 (call): a shape heap of 200000000 slots; the function's calls and the host "
            "functions name at most 3"},
      {[](Executable& e) { main_of(e).code[0].args[0] = imm(INT64_MAX); },
       at + "0 (call): a shape heap of 9223372036854775807 slots; the function's calls and the "
            "host functions name at most 3"},
      {[](Executable& e) { main_of(e).code[0].args[0] = reg(1); },
       at + "0 (call): vm.builtin.alloc_shape_heap takes one immediate size"},
      {[](Executable& e) { main_of(e).code[4].reg = 100; },
       at + "4 (if): the condition register 100 is outside the function's 6 registers"},
      {[](Executable& e) { main_of(e).code[3].opcode = static_cast<Opcode>(9); },
       at + "3: unknown opcode 9"},
      // Arguments against the callee's ABI.
      {[](Executable& e) { main_of(e).code[6].args.push_back(imm(1)); },
       at + "6 (call): calls 'helper' with 2 arguments, it takes 1 (its parameters)"},
      {[](Executable& e) { main_of(e).code[3].args.pop_back(); },
       at + "3 (call): calls 'dense' with 2 arguments, it takes 3 (its buffers and a shape)"},
      {[](Executable& e) { main_of(e).code[1].args.clear(); },
       at + "1 (call): calls 'main_shape_func' with 0 arguments, it takes 1 (the shape heap)"},
  });
}

TEST(ExecutableValidation, Functions) {
  expect_errors({
      {[](Executable& e) { main_of(e).code.back() = call(kVoidRegister, kAllocTensor, {}); },
       "executable: function 'main': the last instruction is call: execution would run past "
       "the end (expected ret)"},
      {[](Executable& e) { main_of(e).code.resize(9); },
       "executable: function 'main', instruction 8 (goto): the offset 1 jumps outside the "
       "function's 9 instructions"},
      {[](Executable& e) {
         main_of(e).code[4] = branch(1, 2);
         main_of(e).code.resize(5);
       },
       "executable: function 'main', instruction 4 (if): the true branch's offset 1 jumps "
       "outside the function's 5 instructions"},
      {[](Executable& e) { e.functions[kHelper].code = {jump(0)}; },
       "executable: function 'helper', instruction 0 (goto): the offset 0 does not jump "
       "forward (jumps only go forward: a loop would never end)"},
      {[](Executable& e) { e.functions[kHelper].code.clear(); },
       "executable: function 'helper': has no code"},
      {[](Executable& e) { e.functions[kHelper].num_registers = 0; },
       "executable: function 'helper': 1 parameters but only 0 registers"},
      {[](Executable& e) { e.functions[kHelper].num_registers = kMaxRegisters + 1; },
       "executable: function 'helper': 1048577 registers, expected 0 to 1048576"},
      {[](Executable& e) { e.functions[kHelper].num_registers = -1; },
       "executable: function 'helper': -1 registers, expected 0 to 1048576"},
      {[](Executable& e) { e.functions[kDense].index = 1; },
       "executable: function 'dense': kernel function index 1, the backends have 1 kernel "
       "function"},
      {[](Executable& e) { e.functions[kShapeFunc].index = -1; },
       "executable: function 'main_shape_func': host function index -1, the executable has 1 "
       "host function"},
      {[](Executable& e) { e.backends.clear(); },
       "executable: function 'dense': is a kernel function, but there is no backend"},
      {[](Executable& e) { e.functions[kAllocTensor].name = ""; },
       "executable: function 3: a packed function needs a name"},
      {[](Executable& e) { e.functions[kAllocTensor].code = {ret(0)}; },
       "executable: function 'vm.builtin.alloc_tensor': only a bytecode function has code, "
       "parameters, registers, a memory plan or sources"},
      {[](Executable& e) { e.functions[kAllocTensor].memory_plan = {"peak: 0 bytes"}; },
       "executable: function 'vm.builtin.alloc_tensor': only a bytecode function has code, "
       "parameters, registers, a memory plan or sources"},
      {[](Executable& e) {
         e.functions[kAllocTensor].sources = {{0, "model.py:1:1"}};
       },
       "executable: function 'vm.builtin.alloc_tensor': only a bytecode function has code, "
       "parameters, registers, a memory plan or sources"},
      {[](Executable& e) { e.functions[kMain].sources[1].first_instruction = 2; },
       "executable: function 'main': source range 1 starts at instruction 2, expected one "
       "from 3 to 9"},
      {[](Executable& e) { e.functions[kMain].sources[2].first_instruction = 10; },
       "executable: function 'main': source range 2 starts at instruction 10, expected one "
       "from 5 to 9"},
      {[](Executable& e) { e.functions[kMain].sources[0].first_instruction = -1; },
       "executable: function 'main': source range 0 starts at instruction -1, expected one "
       "from 0 to 9"},
      {[](Executable& e) { e.functions[kAllocTensor].kind = static_cast<FunctionKind>(9); },
       "executable: function 'vm.builtin.alloc_tensor': unknown function kind 9"},
  });
}

TEST(ExecutableValidation, ConstantsAndHostFunctions) {
  expect_errors({
      {[](Executable& e) {
         std::span<const uint8_t> bytes = e.constants[0].bytes.span();
         e.constants[0].bytes = ConstantBytes(std::vector<uint8_t>(bytes.begin(), bytes.end() - 1));
       },
       "executable: constant 0: a float32 tensor of 6 elements has 23 bytes of data"},
      {[](Executable& e) {
         e.constants[0].shape = {int64_t{1} << 40, int64_t{1} << 40};
       },
       "executable: constant 0: the element count overflows"},
      {[](Executable& e) {
         e.constants[0].shape = {int64_t{1} << 31, int64_t{1} << 31};
       },
       "executable: constant 0: a float32 tensor of 4611686018427387904 elements has 24 bytes "
       "of data"},
      {[](Executable& e) { e.constants[0].dtype = DType::Void(); },
       "executable: constant 0: unknown dtype (code 0, bits 0, lanes 0)"},
      {[](Executable& e) {
         e.constants[1].shape = {4, -64};
       },
       "executable: constant 1: dimension 1 is -64"},
      {[](Executable& e) { e.constants[3].dtype = DType::Float(32); },
       "executable: constant 3: an integer constant of dtype float32"},
      {[](Executable& e) { e.constants[4].dtype = DType::Int(64); },
       "executable: constant 4: a float constant of dtype int64"},
      {[](Executable& e) { e.constants[5].dtype = DType::Int(7); },
       "executable: constant 5: unknown dtype (code 0, bits 7, lanes 1)"},
      {[](Executable& e) { e.constants[5].kind = static_cast<Constant::Kind>(6); },
       "executable: constant 5: unknown constant kind 6"},
      {[](Executable& e) { e.host_funcs[0].stores[0].first = -1; },
       "executable: host function 'main_shape_func', store 0: stores to slot -1"},
      {[](Executable& e) {
         e.host_funcs[0].stores[1].second.code.erase(e.host_funcs[0].stores[1].second.code.begin());
       },
       "executable: host function 'main_shape_func', store 1: instruction 1 (Add) needs 2 "
       "operands, the stack has 1"},
  });
}

TEST(ExecutableValidation, Kernels) {
  const std::string vk = "executable: backend 0 (vulkan -profile=desktop), ";
  const std::string kf = vk + "kernel function 'dense', ";
  auto kfunc = [](Executable& e) -> KernelFunc& { return e.backends[0].kernel_funcs[0]; };
  auto kbin = [](Executable& e) -> KernelBinary& { return e.backends[0].kernels[0]; };
  expect_errors({
      {[&](Executable& e) { kbin(e).code.resize(18); },
       vk + "kernel 0 'dense_kernel0': the SPIR-V code is 18 bytes, not a whole number of "
            "32-bit words"},
      {[&](Executable& e) { kbin(e).code[0] = 0; },
       vk + "kernel 0 'dense_kernel0': the code does not start with the SPIR-V magic number "
            "0x07230203 (found 0x07230200)"},
      {[&](Executable& e) { kbin(e).code.clear(); },
       vk + "kernel 0 'dense_kernel0': the SPIR-V code is 0 bytes, shorter than the 5-word "
            "SPIR-V header"},
      // What the loader checks of the SPIR-V: header, lengths, entry point, bindings.
      {[&](Executable& e) { kbin(e).code[6] = 2; },
       vk + "kernel 0 'dense_kernel0': the SPIR-V version word 0x00020300 is not a version 1.x"},
      {[&](Executable& e) { kbin(e).code[12] = 0; },
       vk + "kernel 0 'dense_kernel0': the SPIR-V id bound 0 is outside 1 to 4194303"},
      {[&](Executable& e) { kbin(e).code[15] = 1; },
       vk + "kernel 0 'dense_kernel0': the SPIR-V id bound 16777225 is outside 1 to 4194303"},
      {[&](Executable& e) { kbin(e).code[22] = 0x40; },
       vk + "kernel 0 'dense_kernel0': the SPIR-V module is damaged (the instruction at word 5 "
            "has a bad length)"},
      {[&](Executable& e) { kbin(e).code.resize(kbin(e).code.size() - 4); },
       vk + "kernel 0 'dense_kernel0': the SPIR-V module is damaged (it does not end with "
            "OpFunctionEnd)"},
      {[&](Executable& e) { kbin(e).name = "dense_kernel1"; },
       vk + "kernel 0 'dense_kernel1': the SPIR-V module has no GLCompute entry point named "
            "'dense_kernel1' (it has 'dense_kernel0')"},
      {[&](Executable& e) {
         kbin(e).code = sample_spirv("dense_kernel0", {64, 1, 1}, 3);
       },
       vk + "kernel 0 'dense_kernel0': the SPIR-V module declares binding 3; the kernel ABI "
            "has 3 buffers (bindings 0 to 2)"},
      {[&](Executable& e) {
         kbin(e).code = sample_spirv("dense_kernel0", {32, 1, 1}, 0);
       },
       vk + "kernel 0 'dense_kernel0': the block size (64, 1, 1) differs from the SPIR-V "
            "module's LocalSize (32, 1, 1)"},
      {[&](Executable& e) { kbin(e).format = KernelFormat::Ptx; },
       vk + "kernel 0 'dense_kernel0': is PTX in a SPIR-V backend"},
      {[&](Executable& e) { kbin(e).block_size[2] = 0; },
       vk + "kernel 0 'dense_kernel0': block size 2 is 0"},
      {[&](Executable& e) { kbin(e).scalars[0] = static_cast<ScalarType>(5); },
       vk + "kernel 0 'dense_kernel0': scalar 0 has an unknown type"},
      {[&](Executable& e) { kbin(e).name.clear(); }, vk + "kernel 0 '': has no entry point name"},
      {[&](Executable& e) { e.backends[0].format = static_cast<KernelFormat>(3); },
       "executable: backend 0 (vulkan -profile=desktop): unknown kernel format 3"},
      {[&](Executable& e) { kfunc(e).num_slots = kMaxKernelSlots + 1; },
       vk + "kernel function 'dense': 65537 slots, expected 0 to 65536"},
      {[&](Executable& e) { kfunc(e).params[0].shape[0].defines_slot = 2; },
       kf + "parameter 'A', dimension 0: defines slot 2, there are 2 slots"},
      {[&](Executable& e) { kfunc(e).params[1].shape[1].extent = int_load(5); },
       kf + "parameter 'B', dimension 1: loads slot 5, there are 2 slots"},
      {[&](Executable& e) { kfunc(e).params[1].dtype = DType::Void(); },
       kf + "parameter 'B': unknown dtype (code 0, bits 0, lanes 0)"},
      {[&](Executable& e) { kfunc(e).scalar_param_slots[0] = 2; },
       vk + "kernel function 'dense': scalar parameter 0 goes to slot 2, there are 2 slots"},
      {[&](Executable& e) { kfunc(e).workspaces[0].bytes.code.clear(); },
       kf + "workspace 'W': the program ends with 0 values on the stack, expected 1"},
      {[&](Executable& e) { kfunc(e).launches[0].kernel = 1; },
       kf + "launch 0: kernel 1, the backend has 1 kernel"},
      {[&](Executable& e) { kfunc(e).launches[0].buffer_args.pop_back(); },
       kf + "launch 0: 2 buffer arguments, kernel 'dense_kernel0' takes 3"},
      {[&](Executable& e) { kfunc(e).launches[0].buffer_args[2] = 3; },
       kf + "launch 0: buffer argument 2 is 3, the function has 2 parameters and 1 workspace"},
      {[&](Executable& e) { kfunc(e).launches[0].scalar_args.push_back(int_constant(1)); },
       kf + "launch 0: 2 scalar arguments, kernel 'dense_kernel0' takes 1"},
      {[&](Executable& e) { kfunc(e).launches[0].scalar_args[0] = int_load(2); },
       kf + "launch 0, scalar argument 0: loads slot 2, there are 2 slots"},
      {[&](Executable& e) {
         kfunc(e).launches[0].grid[1].code.push_back({IntOp::Add, 0});
       },
       kf + "launch 0, grid dimension 1: instruction 1 (Add) needs 2 operands, the stack has 1"},
  });
}

// What the loader checks of PTX: text with a .entry of the kernel's name, its
// parameters the ABI's.
TEST(ExecutableValidation, PtxKernels) {
  const std::string cuda = "executable: backend 1 (cuda -arch=sm_90), kernel 0 'dense_kernel0': ";
  auto ptx = [](Executable& e, const std::string& text) {
    e.backends[1].kernels[0].code.assign(text.begin(), text.end());
  };
  expect_errors({
      {[&](Executable& e) { ptx(e, ".version 8.0\n.target sm_90\n"); },
       cuda + "the PTX module has no .entry named 'dense_kernel0' (it has none)"},
      {[&](Executable& e) { ptx(e, ".visible .entry dense_kernel01(\n)\n"); },
       cuda + "the PTX module has no .entry named 'dense_kernel0' (it has 'dense_kernel01')"},
      {[&](Executable& e) { ptx(e, "// .entry dense_kernel0(\n"); },
       cuda + "the PTX module has no .entry named 'dense_kernel0' (it has none)"},
      {[&](Executable& e) { ptx(e, std::string(1, '\0')); }, cuda + "the PTX text is empty"},
      {[&](Executable& e) { e.backends[1].kernels[0].code[3] = 1; },
       cuda + "the PTX text has byte 1 at offset 3; PTX is text"},
      {[&](Executable& e) { e.backends[1].kernels[0].scalars[0] = ScalarType::Int32; },
       cuda + "PTX parameter 3 is 8 bytes, but the ABI passes scalar argument 0 (int32) there, "
              "4 bytes"},
      {[&](Executable& e) { ptx(e, ".entry dense_kernel0(\n.param .u64 A\n)\n"); },
       cuda + "the PTX entry takes 1 parameter(s), but its ABI has 3 buffer(s) and 1 scalar(s)"},
  });
  Executable exe = sample_executable();
  std::vector<uint8_t>& code = exe.backends[1].kernels[0].code;
  code.push_back('\0');  // a C string's end is fine
  EXPECT_EQ(validation_error(exe), "<valid>");
}

TEST(ExecutableValidation, BackendsAgree) {
  const std::string cuda = "executable: backend 1 (cuda -arch=sm_90): ";
  expect_errors({
      {[](Executable& e) { e.backends[1].kernel_funcs[0].name = "other"; },
       cuda + "kernel function 0 'other' does not match backend 0's 'dense' (name, parameters "
              "and scalar parameters must agree)"},
      {[](Executable& e) { e.backends[1].kernel_funcs[0].scalar_param_slots.clear(); },
       cuda + "kernel function 0 'dense' does not match backend 0's 'dense' (name, parameters "
              "and scalar parameters must agree)"},
      {[](Executable& e) { e.backends[1].kernel_funcs.push_back(e.backends[1].kernel_funcs[0]); },
       cuda + "has 2 kernel functions, backend 0 has 1"},
  });
}

TEST(ExecutableValidation, Exports) {
  expect_errors({
      {[](Executable& e) { e.exports.push_back(7); },
       "executable: export 2: function 7, the executable has 7 functions"},
      {[](Executable& e) { e.exports.push_back(kDense); },
       "executable: export 2: function 'dense' is not a Relax (bytecode) function"},
      {[](Executable& e) { e.exports.push_back(kMain); },
       "executable: export 2: function 'main' is exported twice"},
  });
}

TEST(Executable, SourceLocationOfEachInstruction) {
  const Executable exe = sample_executable();
  const FunctionEntry& main = exe.functions[kMain];
  std::vector<std::string> got;
  for (int64_t pc = 0; pc < static_cast<int64_t>(main.code.size()); ++pc) {
    const std::string* location = source_location(main, pc);
    got.push_back(location != nullptr ? *location : "-");
  }
  // Ranges from 2 ("model.py:4:9"), 4 (none) and 6 ("model.py:7:13").
  EXPECT_EQ(got, (std::vector<std::string>{"-", "-", "model.py:4:9", "model.py:4:9", "-", "-",
                                           "model.py:7:13", "model.py:7:13", "model.py:7:13",
                                           "model.py:7:13"}));
  EXPECT_EQ(source_location(exe.functions[kHelper], 0), nullptr);
}

TEST(Executable, Text) {
  const std::string text = executable_to_text(sample_executable());
  for (const char* line : {
           "exports: main, helper\n",
           "  function 0 'main': bytecode, params (x, flag), 6 registers\n",
           "    0: %2 = call vm.builtin.alloc_shape_heap(i3)\n",
           "    1: call main_shape_func(%2)\n",
           "    2: %3 = call vm.builtin.alloc_tensor(c0, i0, c1, c5)  # model.py:4:9\n",
           "    3: call dense(%0, %3, c1)\n",
           "    4: if %1 else goto 6\n",
           "    5: ret %3\n",
           "    6: %4 = call helper(%0)  # model.py:7:13\n",
           "    7: %5 = call vm.builtin.make_closure(@helper, %4)\n",
           "    8: goto 9\n",
           "    9: ret %5\n",
           "    memory plan:\n      storage 0: 24 bytes: y\n      peak: 24 bytes\n",
           "  function 2 'vm.builtin.alloc_shape_heap': packed\n",
           "  function 4 'main_shape_func': host function 0\n",
           "  function 5 'dense': kernel function 0\n",
           "  c0: tensor float32 [2, 3] = [1, 2, 3, 4, 5, 6.5]\n",
           "  c1: shape [4, 64]\n",
           "  c2: string \"global\"\n",
           "  c3: int32 -7\n",
           "  c4: float32 1.5\n",
           "  c5: dtype float16\n",
           "  c6: dtype void\n",
           "  c7: tensor int8 [3] = [-1, 2, 127]\n",
           "  heap[1] = s0 * 4\n",
           "  heap[2] = floordiv(s1 + 3, 4)\n",
           "backend 0: SPIR-V, target \"vulkan -profile=desktop\"\n",
           "backend 1: PTX, target \"cuda -arch=sm_90\"\n",
           "  kernel function 0 'dense': 2 slots\n",
           "    param A: float32 [s0, 64], dimension 0 defines s0\n",
           "    param B: float32 [s0, 64]\n",
           "    scalar params: s1\n",
           "    workspace W: s0 * 256 bytes\n",
           "    launch kernel 0 'dense_kernel0': grid (floordiv(s0 + 63, 64), 1, 1), buffers (A, "
           "B, "
           "W), scalars (s0)\n",
           "  kernel 0 'dense_kernel0': SPIR-V, block (64, 1, 1), 3 buffers, scalars (int32), "
           "shared memory 0 bytes, 128 bytes of code\n",
           "  kernel 0 'dense_kernel0': PTX, block (64, 1, 1), 3 buffers, scalars (int64), shared "
           "memory 1024 bytes, 145 bytes of code\n",
       }) {
    EXPECT_TRUE(contains(text, line)) << "missing: " << line << "in:\n" << text;
  }
}

}  // namespace
}  // namespace relaxc::runtime::vm
