// The TensorIR intrinsic table.
#include "ir/tir/intrinsics.h"

namespace relaxc::tir {

const std::vector<Intrinsic>& all_intrinsics() {
  using R = Intrinsic::ResultType;
  using A = Intrinsic::Arguments;
  static const std::vector<Intrinsic> table = {
      {"tir.exp", "exp", 1, R::SameAsArg0, A::Float, true},
      {"tir.exp2", "exp2", 1, R::SameAsArg0, A::Float, true},
      {"tir.exp10", "exp10", 1, R::SameAsArg0, A::Float, true},
      {"tir.log", "log", 1, R::SameAsArg0, A::Float, true},
      {"tir.log2", "log2", 1, R::SameAsArg0, A::Float, true},
      {"tir.log10", "log10", 1, R::SameAsArg0, A::Float, true},
      {"tir.log1p", "log1p", 1, R::SameAsArg0, A::Float, true},
      {"tir.sqrt", "sqrt", 1, R::SameAsArg0, A::Float, true},
      {"tir.rsqrt", "rsqrt", 1, R::SameAsArg0, A::Float, true},
      {"tir.tanh", "tanh", 1, R::SameAsArg0, A::Float, true},
      {"tir.sigmoid", "sigmoid", 1, R::SameAsArg0, A::Float, true},
      {"tir.sin", "sin", 1, R::SameAsArg0, A::Float, true},
      {"tir.cos", "cos", 1, R::SameAsArg0, A::Float, true},
      {"tir.tan", "tan", 1, R::SameAsArg0, A::Float, true},
      {"tir.erf", "erf", 1, R::SameAsArg0, A::Float, true},
      {"tir.asin", "asin", 1, R::SameAsArg0, A::Float, true},
      {"tir.acos", "acos", 1, R::SameAsArg0, A::Float, true},
      {"tir.atan", "atan", 1, R::SameAsArg0, A::Float, true},
      {"tir.sinh", "sinh", 1, R::SameAsArg0, A::Float, true},
      {"tir.cosh", "cosh", 1, R::SameAsArg0, A::Float, true},
      {"tir.asinh", "asinh", 1, R::SameAsArg0, A::Float, true},
      {"tir.acosh", "acosh", 1, R::SameAsArg0, A::Float, true},
      {"tir.atanh", "atanh", 1, R::SameAsArg0, A::Float, true},
      {"tir.pow", "pow", 2, R::SameAsArg0, A::Float, true},
      {"tir.fabs", "fabs", 1, R::SameAsArg0, A::Float, true},
      {"tir.floor", "floor", 1, R::SameAsArg0, A::Float, true},
      {"tir.ceil", "ceil", 1, R::SameAsArg0, A::Float, true},
      {"tir.round", "round", 1, R::SameAsArg0, A::Float, true},
      {"tir.trunc", "trunc", 1, R::SameAsArg0, A::Float, true},
      {"tir.nearbyint", "nearbyint", 1, R::SameAsArg0, A::Float, true},
      {"tir.fmod", "fmod", 2, R::SameAsArg0, A::Float, true},
      {"tir.isnan", "isnan", 1, R::Bool, A::Float, true},
      {"tir.isinf", "isinf", 1, R::Bool, A::Float, true},
      {"tir.if_then_else", "if_then_else", 3, R::SameAsArg1, A::Any, true},
      // T.likely(cond): a hint that `cond` is usually true; its value is `cond`.
      {"tir.likely", "likely", 1, R::SameAsArg0, A::Any, true},
      // Bit operations, as TVM's operators & | ^ ~ << >> build them. A right shift is
      // arithmetic on signed types, logical on unsigned ones; a shift by the width or
      // more is undefined (as in C and TVM).
      {"tir.bitwise_and", "bitwise_and", 2, R::SameAsArg0, A::IntegerOrBool, true},
      {"tir.bitwise_or", "bitwise_or", 2, R::SameAsArg0, A::IntegerOrBool, true},
      {"tir.bitwise_xor", "bitwise_xor", 2, R::SameAsArg0, A::IntegerOrBool, true},
      {"tir.bitwise_not", "bitwise_not", 1, R::SameAsArg0, A::IntegerOrBool, true},
      {"tir.shift_left", "shift_left", 2, R::SameAsArg0, A::Integer, true},
      {"tir.shift_right", "shift_right", 2, R::SameAsArg0, A::Integer, true},
      {"tir.call_extern", "call_extern", -1, R::Explicit, A::Any, false},
      {"tir.call_pure_extern", "call_pure_extern", -1, R::Explicit, A::Any, true},
      {"tir.reinterpret", "reinterpret", 1, R::Explicit, A::Any, true},
      // T.tvm_storage_sync("shared"): a barrier of the threads of a block that also
      // orders their accesses to shared memory.
      {"tir.tvm_storage_sync", "tvm_storage_sync", 1, R::Void, A::Any, false},
      // T.shuffle_down(value, delta): `value` as the thread `delta` lanes above holds it in
      // the same warp of 32 (CUDA shfl.sync.down over the full warp); a thread whose
      // partner lies past the warp gets its own value. Every thread of the warp must
      // evaluate it. Only the CUDA back end has it; the kernel lowering emits it for CUDA
      // cross-thread reductions. Not pure: its value depends on the other threads.
      {"tir.shuffle_down", "shuffle_down", 2, R::Arg0Alone, A::Any, false},
  };
  return table;
}

const Intrinsic* find_intrinsic(const std::string& name) {
  for (const Intrinsic& i : all_intrinsics()) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

const Intrinsic* find_intrinsic_by_script_name(const std::string& script_name) {
  for (const Intrinsic& i : all_intrinsics()) {
    if (i.script_name == script_name) return &i;
  }
  return nullptr;
}

}  // namespace relaxc::tir
