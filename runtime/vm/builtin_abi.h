// The builtin ABI that the compiler and the VM share: the names of the vm.builtin.*
// packed functions that compiled code calls, and the codes their arguments carry.
// Dependency-free, so that the compiler's lowering (passes/relax/vm_shape_lower.cc,
// codegen/vm/) includes it as the one spelling of each.
#pragma once
#include <cstdint>

namespace relaxc::runtime::vm::builtin {

// Memory and values.
inline constexpr char kAllocStorage[] = "vm.builtin.alloc_storage";
inline constexpr char kAllocTensor[] = "vm.builtin.alloc_tensor";
inline constexpr char kNullValue[] = "vm.builtin.null_value";
inline constexpr char kCopy[] = "vm.builtin.copy";
inline constexpr char kMakeTuple[] = "vm.builtin.make_tuple";
inline constexpr char kTupleGetitem[] = "vm.builtin.tuple_getitem";
inline constexpr char kShapeOf[] = "vm.builtin.shape_of";
inline constexpr char kTensorToShape[] = "vm.builtin.tensor_to_shape";
inline constexpr char kReshape[] = "vm.builtin.reshape";
inline constexpr char kFlatten[] = "vm.builtin.flatten";
inline constexpr char kMakeClosure[] = "vm.builtin.make_closure";
inline constexpr char kInvokeClosure[] = "vm.builtin.invoke_closure";
inline constexpr char kToDevice[] = "vm.builtin.to_device";
inline constexpr char kToHost[] = "vm.builtin.to_host";
inline constexpr char kPrint[] = "vm.builtin.print";

// The operators whose result shape depends on the data (builtins_data_dependent.cc).
inline constexpr char kNonzero[] = "vm.builtin.nonzero";
inline constexpr char kUnique[] = "vm.builtin.unique";

// The shape heap and the run-time StructInfo checks.
inline constexpr char kAllocShapeHeap[] = "vm.builtin.alloc_shape_heap";
inline constexpr char kMatchShape[] = "vm.builtin.match_shape";
inline constexpr char kMatchPrimValue[] = "vm.builtin.match_prim_value";
inline constexpr char kMakeShape[] = "vm.builtin.make_shape";
inline constexpr char kMakePrimValue[] = "vm.builtin.make_prim_value";
inline constexpr char kCheckTensorInfo[] = "vm.builtin.check_tensor_info";
inline constexpr char kCheckShapeInfo[] = "vm.builtin.check_shape_info";
inline constexpr char kCheckPrimValueInfo[] = "vm.builtin.check_prim_value_info";
inline constexpr char kCheckTupleInfo[] = "vm.builtin.check_tuple_info";
inline constexpr char kCheckFuncInfo[] = "vm.builtin.check_func_info";

// The code of each (code, value) pair that match_shape and match_prim_value take: what
// to do with one dimension (or the value) given the pair's value.
enum MatchCode : int64_t {
  kNoOp = 0,               // nothing: the dimension is unconstrained
  kStoreToHeap = 1,        // store the dimension into heap slot `value`
  kAssertEqualToImm = 2,   // check that the dimension equals `value`
  kAssertEqualToLoad = 3,  // check that the dimension equals heap slot `value`
};

// The code of each (code, value) pair that make_shape and make_prim_value take.
enum MakeCode : int64_t {
  kUseImm = 0,     // the dimension is `value`
  kLoadShape = 1,  // the dimension is heap slot `value`
};

}  // namespace relaxc::runtime::vm::builtin
