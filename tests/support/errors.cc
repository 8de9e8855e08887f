// The text of the error a piece of code throws, for tests that assert on messages.
#include "tests/support/errors.h"

#include "ir/support/diagnostics.h"
#include "runtime/runtime_error.h"

namespace relaxc {

namespace {

// What `action` throws, as the first diagnostic or a message without place.
std::string describe_user_error(const std::function<void()>& action, bool with_place) {
  try {
    action();
  } catch (const UserError& e) {
    if (e.diagnostics().empty()) return e.what();
    const Diagnostic& d = e.diagnostics().front();
    if (!with_place) return d.message;
    return std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message;
  }
  return "";
}

}  // namespace

std::string error_of(const std::function<void()>& action) {
  return describe_user_error(action, /*with_place=*/false);
}

std::string located_error_of(const std::function<void()>& action) {
  return describe_user_error(action, /*with_place=*/true);
}

std::string runtime_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const runtime::RuntimeError& e) {
    return e.what();
  }
  return "";
}

}  // namespace relaxc
