// libFuzzer harness for the .npy reader that `relaxc run --input` and embedding
// programs use.
//
// The oracle: an input either parses or throws a RuntimeError whose message starts with
// the file's name; an array that parses holds exactly its shape's bytes, and writing it
// out reads back to the same array. Anything else is a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "runtime/npy.h"
#include "runtime/runtime_error.h"

namespace relaxc::runtime {
namespace {

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_npy: %s\n", what.c_str());
  std::abort();
}

void check_array(const NpyArray& array) {
  size_t elements = 1;
  for (int64_t dim : array.shape) {
    if (dim < 0) fail("a negative dimension was accepted");
    elements *= static_cast<size_t>(dim);
  }
  if (array.data.size() != elements * static_cast<size_t>(array.dtype.bytes())) {
    fail("the data is " + std::to_string(array.data.size()) + " bytes, the shape needs " +
         std::to_string(elements * static_cast<size_t>(array.dtype.bytes())));
  }
  std::vector<uint8_t> written = format_npy(array);
  NpyArray reread;
  try {
    reread = parse_npy(written, "written.npy");
  } catch (const RuntimeError& e) {
    fail(std::string("what format_npy wrote does not parse: ") + e.what());
  }
  if (!(reread.dtype == array.dtype) || reread.shape != array.shape || reread.data != array.data) {
    fail("what format_npy wrote reads back different");
  }
}

}  // namespace
}  // namespace relaxc::runtime

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace relaxc::runtime;
  NpyArray array;
  try {
    array = parse_npy(std::span<const uint8_t>(data, size), "fuzz.npy");
  } catch (const RuntimeError& e) {
    if (std::string(e.what()).rfind("fuzz.npy: ", 0) != 0) {
      fail(std::string("an error that does not name the file: ") + e.what());
    }
    return 0;
  }
  check_array(array);
  return 0;
}
