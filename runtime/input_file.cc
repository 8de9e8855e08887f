// read_input_file and map_input_file: stat first (so that a device such as /dev/zero, or
// a FIFO, which would block on open, is refused before it is opened), then read or map
// the size stat gave.
#include "runtime/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "runtime/runtime_error.h"

namespace relaxc::runtime {
namespace {

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void too_large(const std::string& name, uint64_t max_bytes) {
  runtime_error() << name << ": larger than the limit of " << max_bytes
                  << " bytes for an input file";
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

std::vector<uint8_t> read_stdin(uint64_t max_bytes) {
  std::vector<uint8_t> bytes;
  uint8_t chunk[1 << 16];
  while (true) {
    size_t n = std::fread(chunk, 1, sizeof(chunk), stdin);
    if (bytes.size() + n > max_bytes) too_large(kStdinName, max_bytes);
    bytes.insert(bytes.end(), chunk, chunk + n);
    if (n < sizeof(chunk)) break;
  }
  if (std::ferror(stdin)) {
    runtime_error() << kStdinName << ": cannot read: " << std::strerror(errno);
  }
  return bytes;
}

// The size of the regular file `path`, checked against `max_bytes`.
uint64_t regular_file_size(const std::string& path, uint64_t max_bytes) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    runtime_error() << path << ": cannot open: " << std::strerror(errno);
  }
  if (!S_ISREG(info.st_mode)) {
    runtime_error() << path << ": is " << file_kind(info.st_mode)
                    << "; expected a regular file, or '-' for standard input";
  }
  const uint64_t size = static_cast<uint64_t>(info.st_size);
  if (size > max_bytes) too_large(path, max_bytes);
  return size;
}

}  // namespace

std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes) {
  if (path == "-") return read_stdin(max_bytes);
  const uint64_t size = regular_file_size(path, max_bytes);
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) runtime_error() << path << ": cannot open: " << std::strerror(errno);
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  if (std::fread(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) {
    runtime_error() << path << ": cannot read: "
                    << (std::ferror(file.get()) ? std::strerror(errno) : "the file got shorter");
  }
  return bytes;
}

InputBytes::~InputBytes() {
  if (mapping_ != nullptr) munmap(mapping_, bytes_.size());
}

std::shared_ptr<const InputBytes> map_input_file(const std::string& path, uint64_t max_bytes) {
  std::shared_ptr<InputBytes> input(new InputBytes());
  if (path == "-") {
    input->owned_ = read_stdin(max_bytes);
    input->bytes_ = input->owned_;
    return input;
  }
  const uint64_t size = regular_file_size(path, max_bytes);
  if (size == 0) return input;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) runtime_error() << path << ": cannot open: " << std::strerror(errno);
  void* mapping = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  close(fd);  // the mapping keeps the file
  if (mapping == MAP_FAILED) {
    runtime_error() << path << ": cannot map: " << std::strerror(map_errno);
  }
  input->mapping_ = mapping;
  input->bytes_ = std::span(static_cast<const uint8_t*>(mapping), static_cast<size_t>(size));
  return input;
}

}  // namespace relaxc::runtime
