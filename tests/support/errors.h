// The text of the error a piece of code throws (a compiler UserError, a runtime
// RuntimeError), for tests that assert on messages.
#pragma once

#include <functional>
#include <string>

namespace relaxc {

// The message of the first diagnostic of the UserError that `action` throws (its what()
// when it carries no diagnostic), or "" when it throws none.
std::string error_of(const std::function<void()>& action);

// The same, with the place of the diagnostic first: "line:col: message".
std::string located_error_of(const std::function<void()>& action);

// The message of the runtime::RuntimeError that `action` throws, or "" when it throws none.
std::string runtime_error_of(const std::function<void()>& action);

}  // namespace relaxc
