// The VM dispatches instructions without heap allocation: this binary counts heap
// allocations (tests/support/allocation_counter.h), then runs a warm call of a hand-built
// function whose instructions make no new values (builtin calls with register,
// immediate, constant and function arguments; shape and StructInfo checks; a call
// between bytecode functions; If and Goto) and expects no allocation at all.
#include <gtest/gtest.h>

#include <vector>

#include "runtime/vm/builtin_abi.h"
#include "tests/support/allocation_counter.h"
#include "tests/unit/vm_test_support.h"

namespace relaxc::testing {
namespace {

using runtime::DType;
using vm::Value;
namespace builtin = runtime::vm::builtin;

TEST(VmDispatchAllocTest, WarmCallAllocatesNothing) {
  ExecutableBuilder b;
  // A string constant longer than any small-string buffer: copying it would allocate.
  int64_t err_ctx =
      b.string("main: argument 'x' (test.py:1:1), expected R.Tensor((n, 4), dtype=\"float32\")");
  int64_t f32 = b.dtype(DType::Float(32));
  int64_t id = b.function("id", {"a"}, 1, /*exported=*/false);
  b.ret(0);
  b.function("main", {"x", "flag"}, 5);
  b.call(2, "test.shape_heap", {});  // a host tensor made outside the call
  b.call(3, builtin::kCopy, {reg(0)});
  b.call(vm::kVoidRegister, builtin::kMatchShape,
         {reg(0), reg(2), imm(2), imm(builtin::kStoreToHeap), imm(0),
          imm(builtin::kAssertEqualToImm), imm(4), cst(err_ctx)});
  b.call(vm::kVoidRegister, builtin::kCheckTensorInfo, {reg(3), imm(2), cst(f32), cst(err_ctx)});
  b.call_index(4, id, {reg(3)});
  b.call(vm::kVoidRegister, builtin::kCheckFuncInfo, {fn(id), cst(err_ctx)});
  b.call(vm::kVoidRegister, builtin::kMatchPrimValue,
         {reg(1), reg(2), imm(builtin::kAssertEqualToImm), imm(1), cst(err_ctx)});
  int64_t branch = b.branch(1, 0);
  b.go(1);
  b.patch_branch(branch, b.next_pc());
  b.ret(4);
  auto exe = b.finish();

  HostMemoryDevice device;
  vm::VirtualMachine machine(exe, device);
  std::vector<float> data(8, 1.0f);
  std::vector<int64_t> heap_data(1, 0);
  Value x = Value::tensor(machine.from_host(DType::Float(32), {2, 4}, data.data()));
  Value heap = Value::tensor(machine.host_tensor(DType::Int(64), {1}, heap_data.data()));
  vm::register_packed_func("test.shape_heap",
                           [heap](vm::VirtualMachine&, std::span<const Value>) { return heap; });
  Value flag = Value::integer(1);
  const std::string name = "main";
  for (int warm = 0; warm < 2; ++warm) machine.call(name, {x, flag});

  std::vector<Value> args = {x, flag};
  int64_t before = heap_allocations();
  Value result = machine.call(name, std::move(args));
  int64_t allocations = heap_allocations() - before;
  EXPECT_EQ(allocations, 0);
  // The call ran: the heap holds x's first dimension, and the result is x's copy.
  EXPECT_EQ(static_cast<const int64_t*>(
                static_cast<const void*>(heap.as_tensor().storage->host.data()))[0],
            2);
  EXPECT_EQ(result.as_tensor().storage, x.as_tensor().storage);
}

}  // namespace
}  // namespace relaxc::testing
