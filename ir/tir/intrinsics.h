// The registry of TensorIR intrinsics: name, arity, and how the result type follows.
#pragma once

#include <string>
#include <vector>

#include "ir/support/data_type.h"

namespace relaxc::tir {

struct Intrinsic {
  enum class ResultType : uint8_t {
    SameAsArg0,  // math functions: exp(x) has x's dtype
    SameAsArg1,  // if_then_else(c, a, b) has a's dtype
    Bool,        // isnan, isinf
    Explicit,    // given by the caller (call_extern, reinterpret)
    Void,        // a statement-like intrinsic evaluated for its effect (barriers)
    Arg0Alone,   // arg 0's dtype; the other args keep theirs (shuffle_down(x, delta))
  };
  enum class Arguments : uint8_t {
    Any,
    Float,          // math functions
    IntegerOrBool,  // bitwise_and/or/xor/not (on booleans, the logical operations)
    Integer,        // shift_left/right
  };
  std::string name;         // "tir.exp"
  std::string script_name;  // "exp", printed as T.exp
  int num_args;             // -1: any number
  ResultType result;
  Arguments arguments;  // what the arguments' dtypes must be
  bool pure;
};

// The intrinsic named `name` ("tir.exp") or nullptr.
const Intrinsic* find_intrinsic(const std::string& name);
// The intrinsic whose script name is `script_name` ("exp") or nullptr.
const Intrinsic* find_intrinsic_by_script_name(const std::string& script_name);
const std::vector<Intrinsic>& all_intrinsics();

}  // namespace relaxc::tir
