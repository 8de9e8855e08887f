// The TensorIR intrinsic table.
#include "ir/tir/intrinsics.h"

namespace relaxc::tir {

const std::vector<Intrinsic>& all_intrinsics() {
  using R = Intrinsic::ResultType;
  static const std::vector<Intrinsic> table = {
      {"tir.exp", "exp", 1, R::SameAsArg0, true, true},
      {"tir.exp2", "exp2", 1, R::SameAsArg0, true, true},
      {"tir.exp10", "exp10", 1, R::SameAsArg0, true, true},
      {"tir.log", "log", 1, R::SameAsArg0, true, true},
      {"tir.log2", "log2", 1, R::SameAsArg0, true, true},
      {"tir.log10", "log10", 1, R::SameAsArg0, true, true},
      {"tir.log1p", "log1p", 1, R::SameAsArg0, true, true},
      {"tir.sqrt", "sqrt", 1, R::SameAsArg0, true, true},
      {"tir.rsqrt", "rsqrt", 1, R::SameAsArg0, true, true},
      {"tir.tanh", "tanh", 1, R::SameAsArg0, true, true},
      {"tir.sigmoid", "sigmoid", 1, R::SameAsArg0, true, true},
      {"tir.sin", "sin", 1, R::SameAsArg0, true, true},
      {"tir.cos", "cos", 1, R::SameAsArg0, true, true},
      {"tir.tan", "tan", 1, R::SameAsArg0, true, true},
      {"tir.erf", "erf", 1, R::SameAsArg0, true, true},
      {"tir.pow", "pow", 2, R::SameAsArg0, true, true},
      {"tir.fabs", "fabs", 1, R::SameAsArg0, true, true},
      {"tir.floor", "floor", 1, R::SameAsArg0, true, true},
      {"tir.ceil", "ceil", 1, R::SameAsArg0, true, true},
      {"tir.round", "round", 1, R::SameAsArg0, true, true},
      {"tir.trunc", "trunc", 1, R::SameAsArg0, true, true},
      {"tir.nearbyint", "nearbyint", 1, R::SameAsArg0, true, true},
      {"tir.fmod", "fmod", 2, R::SameAsArg0, true, true},
      {"tir.isnan", "isnan", 1, R::Bool, true, true},
      {"tir.isinf", "isinf", 1, R::Bool, true, true},
      {"tir.if_then_else", "if_then_else", 3, R::SameAsArg1, false, true},
      {"tir.call_extern", "call_extern", -1, R::Explicit, false, false},
      {"tir.call_pure_extern", "call_pure_extern", -1, R::Explicit, false, true},
      {"tir.reinterpret", "reinterpret", 1, R::Explicit, false, true},
      // T.tvm_storage_sync("shared"): a barrier of the threads of a block that also
      // orders their accesses to shared memory.
      {"tir.tvm_storage_sync", "tvm_storage_sync", 1, R::Void, false, false},
      // T.shuffle_down(value, delta): `value` as the thread `delta` lanes above holds it in
      // the same warp of 32 (CUDA shfl.sync.down over the full warp); a thread whose
      // partner lies past the warp gets its own value. Every thread of the warp must
      // evaluate it. Only the CUDA back end has it; the kernel lowering emits it for CUDA
      // cross-thread reductions. Not pure: its value depends on the other threads.
      {"tir.shuffle_down", "shuffle_down", 2, R::Arg0Alone, false, false},
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
