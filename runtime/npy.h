// NumPy .npy files (format versions 1.0-3.0): the inputs and outputs of `relaxc run`.
// Little-endian, C order; bool, int8-64, uint8-64, float16/32/64, and bfloat16 as the
// structured dtype [('bfloat16', '<u2')] of its bits (NumPy has no bfloat16).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/dtype.h"

namespace relaxc::runtime {

struct NpyArray {
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // row-major, num_elements * dtype.bytes()
};

// Parses a .npy file's bytes; `name` (the path) starts every error message. Throws
// RuntimeError for a bad magic, an unsupported version, dtype ("'>f4': big-endian data
// is not supported") or order (Fortran), a header that does not parse, a shape whose
// size overflows, or data shorter or longer than the shape says.
NpyArray parse_npy(std::span<const uint8_t> bytes, const std::string& name);
NpyArray read_npy(const std::string& path);
std::vector<uint8_t> format_npy(const NpyArray& array);
void write_npy(const std::string& path, const NpyArray& array);

}  // namespace relaxc::runtime
