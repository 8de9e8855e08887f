// Source locations, user diagnostics (file:line:col: error: ... with a caret) and
// internal-error checks.
#pragma once

#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace relaxc {

// A source text that spans point into. Files live as long as the process (or as their
// SourceFileScope, source_scope.h), so a Span can hold a plain pointer.
struct SourceFile {
  std::string name;
  std::string text;
  std::vector<size_t> line_starts;  // offset of the first character of each line
  // Each line labels a part of a file that is not text (an ONNX model: line k names
  // its k-th node, "node 'split' (Split, opset 13)"): spans show the label, not a
  // line and column.
  bool labels = false;

  // The text of 1-based `line`, without its newline; empty if out of range.
  std::string_view line(uint32_t line) const;
  // Registers a source text and returns its stable address.
  static const SourceFile* add(std::string name, std::string text, bool labels = false);
};

// A position in a source file (1-based line and column); default is "no location".
struct Span {
  const SourceFile* file = nullptr;
  uint32_t line = 0;
  uint32_t col = 0;

  bool defined() const { return file != nullptr && line != 0; }
  // "model.py:12:9", or "model.onnx, node 'split' (Split, opset 13)" in a file of
  // labels; empty when not defined.
  std::string location() const;
};

enum class Severity { Error, Warning, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  Span span;
  std::string message;

  // "file:line:col: error: message", then the source line and a caret under the
  // column when the span is known.
  std::string render() const;
};

// An error the user caused; what a user-facing command reports and exits 1 on.
class UserError : public std::runtime_error {
 public:
  explicit UserError(std::vector<Diagnostic> diagnostics);
  UserError(Span span, std::string message);

  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }

 private:
  std::vector<Diagnostic> diagnostics_;
};

// Collects diagnostics from a pass that reports several at once (the well-formedness
// checker); throw_if_errors() turns them into one UserError.
class DiagnosticList {
 public:
  void error(Span span, std::string message);
  void warning(Span span, std::string message);
  bool has_errors() const;
  const std::vector<Diagnostic>& all() const { return list_; }
  std::string render() const;
  void throw_if_errors() const;

 private:
  std::vector<Diagnostic> list_;
};

// Builds a message with <<: user_error(span) << "expected " << n;  throws on destruction.
class UserErrorBuilder {
 public:
  explicit UserErrorBuilder(Span span) : span_(span) {}
  UserErrorBuilder(const UserErrorBuilder&) = delete;
  [[noreturn]] ~UserErrorBuilder() noexcept(false);
  template <typename T>
  UserErrorBuilder& operator<<(const T& v) {
    os_ << v;
    return *this;
  }

 private:
  Span span_;
  std::ostringstream os_;
};

inline UserErrorBuilder user_error(Span span = {}) { return UserErrorBuilder(span); }

// A bug in relaxc: a check of an invariant failed. Thrown rather than aborting so that a
// program embedding the compiler can recover; the relaxc CLI reports it as a bug.
// what() is "file:line: check failed: condition: message".
class InternalError : public std::logic_error {
 public:
  InternalError(std::string file, int line, std::string condition, std::string message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& condition() const { return condition_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  std::string condition_;
  std::string message_;
};

// How a tool tells its user about an internal error: "<program>: internal error: " and
// the error, then a line asking to report the bug. `program` names the tool and command
// ("relaxc build").
std::string render_bug_report(std::string_view program, const InternalError& error);

// Builds an internal error's message with << and throws it on destruction. A check
// that fails while another exception unwinds the stack cannot throw (that would
// terminate without a word), so it prints the error and aborts instead.
class InternalErrorBuilder {
 public:
  InternalErrorBuilder(const char* file, int line, const char* condition)
      : file_(file), line_(line), condition_(condition) {}
  InternalErrorBuilder(const InternalErrorBuilder&) = delete;
  [[noreturn]] ~InternalErrorBuilder() noexcept(false);
  template <typename T>
  InternalErrorBuilder& operator<<(const T& v) {
    os_ << v;
    return *this;
  }

 private:
  const char* file_;
  int line_;
  const char* condition_;
  std::ostringstream os_;
};

#define RELAXC_ICHECK(cond) \
  if (cond) {               \
  } else                    \
    ::relaxc::InternalErrorBuilder(__FILE__, __LINE__, #cond)

#define RELAXC_UNREACHABLE() ::relaxc::InternalErrorBuilder(__FILE__, __LINE__, "unreachable")

}  // namespace relaxc
