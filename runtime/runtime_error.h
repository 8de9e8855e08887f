// RuntimeError, the one exception type of the runtime, and runtime_error(), which builds
// its message with <<. Part of the runtime: depends on nothing in the compiler.
#pragma once
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>

namespace relaxc::runtime {

// Every runtime failure: a driver that is missing, a device lost, out of memory, a
// kernel launched with arguments that do not match its ABI. The message names the call
// that failed and, where there is one, the driver's own message.
class RuntimeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Builds a RuntimeError's message with << and throws it at the end of the statement:
//   runtime_error() << "dimension " << i << " is " << n;
// Values print as an ostream prints them (integers as std::to_string does; floating
// point and char differently, so pass those through std::to_string where that is meant).
class RuntimeErrorBuilder {
 public:
  RuntimeErrorBuilder() = default;
  RuntimeErrorBuilder(const RuntimeErrorBuilder&) = delete;
  [[noreturn]] ~RuntimeErrorBuilder() noexcept(false) { throw RuntimeError(message_.str()); }
  template <typename T>
  RuntimeErrorBuilder& operator<<(const T& value) {
    message_ << value;
    return *this;
  }

 private:
  std::ostringstream message_;
};

inline RuntimeErrorBuilder runtime_error() { return RuntimeErrorBuilder(); }

// A 32-bit word as messages show it: "0x07230203".
inline std::string hex_word(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

}  // namespace relaxc::runtime
