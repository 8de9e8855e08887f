// Operator calls in tests: one call of an operator in a function of given parameters,
// parsed as a module, for tests of StructInfo inference and its errors.
#pragma once

#include <string>

namespace relaxc::testing {

// The function `main(params)` that binds `call` and returns it; the shape variables n
// and m are declared (T.int64()), so parameters may use them.
std::string op_call_module(const std::string& params, const std::string& call);

// The StructInfo that `call` infers, and the call as the module prints it back, as the
// text format writes them.
std::string inferred_struct_info(const std::string& params, const std::string& call);
std::string printed_op_call(const std::string& params, const std::string& call);

// The message of the error that parsing `call` gives ("" if none).
std::string op_call_error(const std::string& params, const std::string& call);

}  // namespace relaxc::testing
