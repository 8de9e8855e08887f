// Reading an input file (a text module, an executable, a .npy array) with the checks every
// command and loader makes: a regular file (or standard input, "-"), no larger than a
// limit, its problems reported as "FILE: what is wrong".
#pragma once
#include <cstdint>
#include <memory>
#include <span>
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

// An input file's bytes, kept for as long as something refers to them: a read-only
// private memory mapping of a regular file (its pages are read when touched, and never
// copied), or standard input read into memory. A file truncated by another process while
// it is mapped makes the next access to the lost pages a SIGBUS: map only files that stay
// as they are while they are used (what a build writes and a program loads).
class InputBytes {
 public:
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;
  ~InputBytes();
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  friend std::shared_ptr<const InputBytes> map_input_file(const std::string&, uint64_t);
  InputBytes() = default;
  std::vector<uint8_t> owned_;  // standard input
  void* mapping_ = nullptr;     // a mapped file
  std::span<const uint8_t> bytes_;
};

// The bytes of `path` mapped (an empty file has no mapping and no bytes), or of standard
// input when `path` is "-", with read_input_file's checks and messages.
std::shared_ptr<const InputBytes> map_input_file(const std::string& path, uint64_t max_bytes);

}  // namespace relaxc::runtime
