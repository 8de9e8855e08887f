// Reading an input file (a text module, an executable, a .npy array) with the checks every
// command and loader makes: a regular file (or standard input, "-"), no larger than a
// limit, its problems reported as "FILE: what is wrong".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace relaxc::runtime {

// The largest text module and the largest binary input (an executable with its
// constants, a .npy array) that are read; a larger file is refused before it is read.
inline constexpr uint64_t kMaxTextFileBytes = uint64_t{256} << 20;  // 256 MiB
inline constexpr uint64_t kMaxDataFileBytes = uint64_t{16} << 30;   // 16 GiB

// The name of standard input in messages.
inline constexpr char kStdinName[] = "<stdin>";

// The bytes of `path`, or of standard input when `path` is "-". A RuntimeError whose
// message starts with the file's name when it does not exist or cannot be read, is not a
// regular file ("x: is a directory; expected a regular file, or '-' for standard input"),
// or holds more than `max_bytes` (standard input is read up to that many bytes).
std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes);

}  // namespace relaxc::runtime
