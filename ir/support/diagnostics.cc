// Diagnostics: rendering with source line and caret, user and internal errors.
#include "ir/support/diagnostics.h"

#include "ir/support/source_scope.h"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <mutex>
#include <utility>

namespace relaxc {

std::string_view SourceFile::line(uint32_t line) const {
  if (line == 0 || line > line_starts.size()) return {};
  size_t begin = line_starts[line - 1];
  size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return std::string_view(text).substr(begin, end - begin);
}

namespace {
// The innermost SourceFileScope of this thread, or null: files then live forever.
thread_local SourceFileScope* current_scope = nullptr;
}  // namespace

SourceFileScope::SourceFileScope() : outer_(current_scope) { current_scope = this; }

SourceFileScope::~SourceFileScope() { current_scope = outer_; }

const SourceFile* SourceFile::add(std::string name, std::string text, bool labels) {
  static std::mutex mu;
  static std::deque<SourceFile> files;
  SourceFile file;
  file.name = std::move(name);
  file.text = std::move(text);
  file.labels = labels;
  file.line_starts.push_back(0);
  for (size_t i = 0; i < file.text.size(); ++i) {
    if (file.text[i] == '\n') file.line_starts.push_back(i + 1);
  }
  if (current_scope != nullptr) {
    current_scope->files_.push_back(std::move(file));
    return &current_scope->files_.back();
  }
  std::lock_guard<std::mutex> lock(mu);
  files.push_back(std::move(file));
  return &files.back();
}

std::string Span::location() const {
  if (!defined()) return "";
  if (file->labels) return file->name + ", " + std::string(file->line(line));
  return file->name + ":" + std::to_string(line) + ":" + std::to_string(col);
}

std::string Diagnostic::render() const {
  std::string out;
  if (span.defined()) out += span.location() + ": ";
  switch (severity) {
    case Severity::Error: out += "error: "; break;
    case Severity::Warning: out += "warning: "; break;
    case Severity::Note: out += "note: "; break;
  }
  out += message;
  out += "\n";
  if (span.defined() && !span.file->labels) {
    std::string_view text = span.file->line(span.line);
    if (!text.empty()) {
      out += text;
      out += "\n";
      std::string pad;
      for (uint32_t i = 1; i < span.col && i - 1 < text.size(); ++i) {
        pad += text[i - 1] == '\t' ? '\t' : ' ';
      }
      out += pad + "^\n";
    }
  }
  return out;
}

namespace {

std::string render_all(const std::vector<Diagnostic>& list) {
  std::string out;
  for (const Diagnostic& d : list) out += d.render();
  return out;
}

}  // namespace

UserError::UserError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(render_all(diagnostics)), diagnostics_(std::move(diagnostics)) {}

UserError::UserError(Span span, std::string message)
    : UserError(std::vector<Diagnostic>{Diagnostic{Severity::Error, span, std::move(message)}}) {}

void DiagnosticList::error(Span span, std::string message) {
  list_.push_back({Severity::Error, span, std::move(message)});
}
void DiagnosticList::warning(Span span, std::string message) {
  list_.push_back({Severity::Warning, span, std::move(message)});
}
bool DiagnosticList::has_errors() const {
  for (const Diagnostic& d : list_) {
    if (d.severity == Severity::Error) return true;
  }
  return false;
}
std::string DiagnosticList::render() const { return render_all(list_); }
void DiagnosticList::throw_if_errors() const {
  if (has_errors()) throw UserError(list_);
}

UserErrorBuilder::~UserErrorBuilder() noexcept(false) { throw UserError(span_, os_.str()); }

InternalError::InternalError(std::string file, int line, std::string condition, std::string message)
    : std::logic_error(file + ":" + std::to_string(line) + ": check failed: " + condition + ": " +
                       message),
      file_(std::move(file)),
      line_(line),
      condition_(std::move(condition)),
      message_(std::move(message)) {}

std::string render_bug_report(std::string_view program, const InternalError& error) {
  std::string prefix(program);
  return prefix + ": internal error: " + error.what() + "\n" + prefix +
         ": this is a bug in relaxc; please report it with the input and command that caused "
         "it\n";
}

InternalErrorBuilder::~InternalErrorBuilder() noexcept(false) {
  InternalError error(file_, line_, condition_, os_.str());
  if (std::uncaught_exceptions() > 0) {
    std::fprintf(stderr, "internal error: %s\n", error.what());
    std::abort();
  }
  throw error;
}

}  // namespace relaxc
