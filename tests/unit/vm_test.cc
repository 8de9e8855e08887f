// The VM on hand-built executables: calls between functions, recursion, closures,
// tuples, If on integers and on tensors, packed functions (plain and destination-
// passing), constants, the storage pool, errors that name the place and leave the VM
// usable, stack overflow; and a TensorIR kernel launched on Vulkan (lavapipe here)
// against a CPU reference, with its shape checks.
#include "runtime/vm/vm.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/text/parser.h"
#include "tests/support/device_harness.h"
#include "tests/support/kernel_suite.h"
#include "tests/unit/vm_test_support.h"

namespace relaxc::testing {
namespace {

using runtime::DType;
using runtime::RuntimeError;
using vm::Value;

std::vector<uint8_t> float_bytes(const std::vector<float>& v) {
  std::vector<uint8_t> out(v.size() * sizeof(float));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

std::vector<float> floats_of(const std::vector<uint8_t>& bytes) {
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

// Packed functions over integers used by the programs below.
void register_int_helpers() {
  vm::register_packed_func("test.positive", [](vm::VirtualMachine&, std::span<const Value> a) {
    return Value::boolean(a[0].as_int() > 0);
  });
  vm::register_packed_func("test.minus_one", [](vm::VirtualMachine&, std::span<const Value> a) {
    return Value::integer(a[0].as_int() - 1);
  });
  vm::register_packed_func("test.plus_one", [](vm::VirtualMachine&, std::span<const Value> a) {
    return Value::integer(a[0].as_int() + 1);
  });
}

TEST(VmTest, CallsBetweenFunctionsAndTuples) {
  ExecutableBuilder b;
  int64_t swap = b.function("swap", {"a", "b"}, 3, /*exported=*/false);
  b.call(2, "vm.builtin.make_tuple", {reg(1), reg(0)});
  b.ret(2);
  b.function("main", {"x", "y"}, 4);
  b.call_index(2, swap, {reg(0), reg(1)});
  b.call(3, "vm.builtin.tuple_getitem", {reg(2), imm(1)});
  b.call(3, "vm.builtin.make_tuple", {reg(2), reg(3)});
  b.ret(3);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  Value out = machine.call("main", {Value::integer(3), Value::string("four")});
  // ((y, x), x)
  ASSERT_EQ(out.as_tuple().size(), 2u);
  const auto& inner = out.as_tuple()[0].as_tuple();
  EXPECT_EQ(inner[0].as_string(), "four");
  EXPECT_EQ(inner[1].as_int(), 3);
  EXPECT_EQ(out.as_tuple()[1].as_int(), 3);
  EXPECT_NE(runtime_error_of([&] { machine.call("swap", {}); }).find("exports no function 'swap'"),
            std::string::npos);
}

// count(n) = n > 0 ? count(n - 1) + 1 : 0, through an If on an Int from a packed function.
std::shared_ptr<const vm::Executable> countdown_program() {
  ExecutableBuilder b;
  int64_t count = b.function("count", {"n"}, 5);
  b.call(1, "test.positive", {reg(0)});
  int64_t branch = b.branch(1, 0);
  b.call(2, "test.minus_one", {reg(0)});
  b.call_index(3, count, {reg(2)});
  b.call(4, "test.plus_one", {reg(3)});
  b.ret(4);
  b.patch_branch(branch, b.next_pc());
  b.call(4, "vm.builtin.copy", {imm(0)});
  b.ret(4);
  return b.finish();
}

TEST(VmTest, RecursionThroughIf) {
  register_int_helpers();
  HostMemoryDevice device;
  vm::VirtualMachine machine(countdown_program(), device);
  for (int64_t n : {0, 1, 7, 200}) {
    EXPECT_EQ(machine.call("count", {Value::integer(n)}).as_int(), n);
  }
}

TEST(VmTest, DeepRecursionIsAnErrorAndTheVmStaysUsable) {
  register_int_helpers();
  HostMemoryDevice device;
  vm::VirtualMachine machine(countdown_program(), device);
  std::string message = runtime_error_of([&] { machine.call("count", {Value::integer(100000)}); });
  EXPECT_NE(message.find("stack overflow: more than 1000 nested calls (calling 'count')"),
            std::string::npos)
      << message;
  EXPECT_EQ(message.rfind("in count, instruction 3: ", 0), 0u) << message;
  EXPECT_NE(message.find("more calls) ..."), std::string::npos) << message;
  EXPECT_EQ(machine.call("count", {Value::integer(5)}).as_int(), 5);
}

// A call from outside runs at most the step limit's instructions, its nested calls
// included; the next call starts counting again.
TEST(VmTest, TheStepLimitEndsACallAndTheVmStaysUsable) {
  register_int_helpers();
  HostMemoryDevice device;
  vm::VirtualMachine machine(countdown_program(), device);
  machine.set_step_limit(50);
  std::string message = runtime_error_of([&] { machine.call("count", {Value::integer(200)}); });
  EXPECT_NE(message.find("the step limit of 50 instructions is reached"), std::string::npos)
      << message;
  EXPECT_EQ(machine.call("count", {Value::integer(3)}).as_int(), 3);
  EXPECT_EQ(machine.call("count", {Value::integer(3)}).as_int(), 3);
  machine.set_step_limit(0);
  EXPECT_EQ(machine.call("count", {Value::integer(200)}).as_int(), 200);
}

// The load-time bound on alloc_shape_heap's size covers direct calls; reached through a
// closure with any size, the builtin has its own bound.
TEST(VmTest, AShapeHeapThroughAClosureIsBounded) {
  ExecutableBuilder b;
  const int64_t heap = b.entry("vm.builtin.alloc_shape_heap");
  b.function("main", {"n"}, 2);
  b.call(1, "vm.builtin.invoke_closure", {fn(heap), reg(0)});
  b.ret(1);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  for (int64_t size : {int64_t{200000000}, INT64_MAX, int64_t{-1}}) {
    std::string message = runtime_error_of([&] { machine.call("main", {Value::integer(size)}); });
    EXPECT_NE(message.find("vm.builtin.alloc_shape_heap: size " + std::to_string(size) +
                           " is outside 0 to 65536 slots"),
              std::string::npos)
        << message;
  }
  // (alloc_shape_heap's size is otherwise an immediate: tests/unit/executable_test.cc.)
  const runtime::vm::Tensor heap_tensor = machine.call("main", {Value::integer(4)}).as_tensor();
  EXPECT_EQ(heap_tensor.shape, std::vector<int64_t>{4});
  EXPECT_TRUE(heap_tensor.on_host());
  EXPECT_EQ(machine.to_host(heap_tensor), std::vector<uint8_t>(32, 0));
}

TEST(VmTest, ClosuresWithCaptures) {
  ExecutableBuilder b;
  int64_t pair = b.function("pair", {"captured", "x"}, 3, /*exported=*/false);
  b.call(2, "vm.builtin.make_tuple", {reg(0), reg(1)});
  b.ret(2);
  b.function("main", {"a", "b"}, 4);
  b.call(2, "vm.builtin.make_closure", {fn(pair), reg(0)});
  b.call(3, "vm.builtin.invoke_closure", {reg(2), reg(1)});
  b.ret(3);
  b.function("make", {"a"}, 2);
  b.call(1, "vm.builtin.make_closure", {fn(pair), reg(0)});
  b.ret(1);
  b.function("plain", {}, 1);
  b.call(0, "vm.builtin.copy", {fn(pair)});
  b.ret(0);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  Value out = machine.call("main", {Value::integer(1), Value::integer(2)});
  EXPECT_EQ(out.as_tuple()[0].as_int(), 1);
  EXPECT_EQ(out.as_tuple()[1].as_int(), 2);
  // A closure returned to the embedding program, invoked from there.
  Value closure = machine.call("make", {Value::string("c")});
  EXPECT_EQ(closure.as_closure().captures.size(), 1u);
  Value again = machine.invoke(closure, {Value::integer(9)});
  EXPECT_EQ(again.as_tuple()[0].as_string(), "c");
  EXPECT_EQ(again.as_tuple()[1].as_int(), 9);
  // Arg::Function: a closure without captures.
  Value plain = machine.call("plain", {});
  EXPECT_TRUE(plain.as_closure().captures.empty());
  Value both = machine.invoke(plain, {Value::integer(4), Value::integer(5)});
  EXPECT_EQ(both.as_tuple()[1].as_int(), 5);
  EXPECT_EQ(runtime_error_of([&] { machine.invoke(plain, {Value::integer(4)}); }),
            "function 'pair' takes 2 arguments (captured, x), got 1");
}

TEST(VmTest, IfOnATensorCondition) {
  ExecutableBuilder b;
  int64_t yes = b.string("yes"), no = b.string("no");
  b.function("main", {"cond"}, 2);
  int64_t branch = b.branch(0, 0);
  b.call(1, "vm.builtin.copy", {cst(yes)});
  b.ret(1);
  b.patch_branch(branch, b.next_pc());
  b.call(1, "vm.builtin.copy", {cst(no)});
  b.ret(1);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  auto run = [&](DType dtype, std::vector<int64_t> shape, const void* data) {
    vm::Tensor t = machine.from_host(dtype, shape, data);
    return machine.call("main", {Value::tensor(t)}).as_string();
  };
  uint8_t t = 1, f = 0;
  float half = 0.5f;
  int32_t zero = 0;
  int downloads = device.downloads;
  EXPECT_EQ(run(DType::Bool(), {1}, &t), "yes");
  EXPECT_EQ(run(DType::Bool(), {}, &f), "no");
  EXPECT_EQ(run(DType::Float(32), {1, 1}, &half), "yes");
  EXPECT_EQ(run(DType::Int(32), {1}, &zero), "no");
  EXPECT_EQ(device.downloads, downloads + 4);  // each condition read from the device
  EXPECT_EQ(machine.call("main", {Value::boolean(true)}).as_string(), "yes");
  EXPECT_EQ(machine.call("main", {Value::integer(0)}).as_string(), "no");
  float two[2] = {1, 1};
  EXPECT_EQ(runtime_error_of([&] { run(DType::Float(32), {2}, two); }),
            "in main, instruction 0: the condition of If is a tensor of shape (2,); expected one "
            "element");
  EXPECT_EQ(runtime_error_of([&] { machine.call("main", {Value::shape({1})}); }),
            "in main, instruction 0: the condition of If has kind shape; expected a boolean, an "
            "integer or a tensor of one element");
}

TEST(VmTest, UserAndDestinationPassingPackedFunctions) {
  // scale(x, k) returns a new tensor; double_into(x, out) writes 2x into out.
  vm::register_packed_func("test.scale", [](vm::VirtualMachine& m, std::span<const Value> a) {
    const vm::Tensor& x = a[0].as_tensor();
    std::vector<float> v = floats_of(m.to_host(x));
    for (float& e : v) e *= static_cast<float>(a[1].as_int());
    return Value::tensor(m.from_host(x.dtype, x.shape, v.data()));
  });
  vm::register_packed_func("test.double_into", [](vm::VirtualMachine& m, std::span<const Value> a) {
    std::vector<float> v = floats_of(m.to_host(a[0].as_tensor()));
    for (float& e : v) e *= 2;
    m.copy_from_host(a[1].as_tensor(), v.data());
    return Value();
  });
  ExecutableBuilder b;
  int64_t bytes = b.shape({16}), global = b.string("global");
  int64_t u8 = b.dtype(DType::UInt(8)), f32 = b.dtype(DType::Float(32));
  b.function("main", {"x"}, 6);
  b.call(1, "vm.builtin.alloc_storage", {cst(bytes), imm(0), cst(global), cst(u8)});
  b.call(2, "vm.builtin.shape_of", {reg(0)});
  b.call(3, "vm.builtin.alloc_tensor", {reg(1), imm(0), reg(2), cst(f32)});
  b.call(vm::kVoidRegister, "test.double_into", {reg(0), reg(3)});
  b.call(4, "test.scale", {reg(3), imm(3)});
  b.call(5, "vm.builtin.make_tuple", {reg(3), reg(4)});
  b.ret(5);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  std::vector<float> x = {1, -2, 3.5f, 0};
  Value out =
      machine.call("main", {Value::tensor(machine.from_host(DType::Float(32), {4}, x.data()))});
  std::vector<float> doubled = floats_of(machine.to_host(out.as_tuple()[0].as_tensor()));
  std::vector<float> scaled = floats_of(machine.to_host(out.as_tuple()[1].as_tensor()));
  EXPECT_EQ(doubled, (std::vector<float>{2, -4, 7, 0}));
  EXPECT_EQ(scaled, (std::vector<float>{6, -12, 21, 0}));
}

TEST(VmTest, MissingPackedFunctionThenRegistered) {
  ExecutableBuilder b;
  b.function("main", {"x"}, 2);
  b.call(1, "custom_add_vm_test", {reg(0), reg(0)});
  b.ret(1);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  EXPECT_EQ(runtime_error_of([&] { machine.call("main", {Value::integer(2)}); }),
            "in main, instruction 0: packed function 'custom_add_vm_test' is not registered "
            "(register it with vm::register_packed_func)");
  vm::register_packed_func("custom_add_vm_test", [](vm::VirtualMachine&, std::span<const Value> a) {
    return Value::integer(a[0].as_int() + a[1].as_int());
  });
  EXPECT_EQ(machine.call("main", {Value::integer(2)}).as_int(), 4);
  // Its errors name it and the place.
  EXPECT_EQ(runtime_error_of([&] { machine.call("main", {Value::string("s")}); }),
            "in main, instruction 0: packed function 'custom_add_vm_test': expected an int, got "
            "a string");
}

// main(v) calls inner(v), which fails for a negative v (test.fail_on_negative);
// `sources` gives main's and inner's instructions their source ranges.
std::shared_ptr<const vm::Executable> two_frames(std::vector<vm::SourceRange> main_sources = {},
                                                 std::vector<vm::SourceRange> inner_sources = {}) {
  vm::register_packed_func("test.fail_on_negative",
                           [](vm::VirtualMachine&, std::span<const Value> a) {
                             if (a[0].as_int() < 0) throw RuntimeError("negative input");
                             return a[0];
                           });
  ExecutableBuilder b;
  int64_t inner = b.function("inner", {"v"}, 2, /*exported=*/false);
  b.call(1, "test.fail_on_negative", {reg(0)});
  b.ret(1);
  int64_t main = b.function("main", {"v"}, 3);
  b.call(1, "vm.builtin.copy", {reg(0)});
  b.call_index(2, inner, {reg(1)});
  b.ret(2);
  b.exe.functions[static_cast<size_t>(inner)].sources = std::move(inner_sources);
  b.exe.functions[static_cast<size_t>(main)].sources = std::move(main_sources);
  return b.finish();
}

TEST(VmTest, ErrorsNameEachFrameAndTheVmStaysUsable) {
  HostMemoryDevice device;
  vm::VirtualMachine machine(two_frames(), device);
  EXPECT_EQ(runtime_error_of([&] { machine.call("main", {Value::integer(-1)}); }),
            "in main, instruction 1: in inner, instruction 0: packed function "
            "'test.fail_on_negative': negative input");
  EXPECT_EQ(machine.call("main", {Value::integer(5)}).as_int(), 5);
  EXPECT_EQ(runtime_error_of([&] { machine.call("main", {}); }),
            "function 'main' takes 1 arguments (v), got 0");
}

// A frame names the source of its instruction where the executable has one (the
// compiler records each binding's; here written by hand).
TEST(VmTest, ErrorFramesNameTheSourceOfTheirInstruction) {
  HostMemoryDevice device;
  vm::VirtualMachine machine(
      two_frames({{0, ""}, {1, "model.py:4:9"}}, {{0, "model.onnx, node 'f' (Abs, opset 13)"}}),
      device);
  EXPECT_EQ(runtime_error_of([&] { machine.call("main", {Value::integer(-1)}); }),
            "in main, instruction 1 (model.py:4:9): in inner, instruction 0 (model.onnx, node "
            "'f' (Abs, opset 13)): packed function 'test.fail_on_negative': negative input");
}

TEST(VmTest, ConstantsAreMadeOncePerVm) {
  ExecutableBuilder b;
  vm::Constant tensor;
  tensor.kind = vm::Constant::Kind::Tensor;
  tensor.dtype = DType::Float(32);
  tensor.shape = {3};
  tensor.bytes = vm::ConstantBytes(float_bytes({1, 2, 3}));
  int64_t t = b.constant(tensor);
  vm::Constant f;
  f.kind = vm::Constant::Kind::Float;
  f.dtype = DType::Float(32);
  f.float_value = 0.25;
  int64_t fc = b.constant(f);
  b.function("main", {}, 1);
  b.call(0, "vm.builtin.make_tuple", {cst(t), cst(fc)});
  b.ret(0);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  EXPECT_EQ(device.uploads, 0);  // uploaded on first use
  Value first = machine.call("main", {});
  Value second = machine.call("main", {});
  EXPECT_EQ(device.uploads, 1);
  const vm::Tensor& a = first.as_tuple()[0].as_tensor();
  EXPECT_EQ(a.storage, second.as_tuple()[0].as_tensor().storage);
  EXPECT_FALSE(a.on_host());
  EXPECT_EQ(floats_of(machine.to_host(a)), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(first.as_tuple()[1].as_float(), 0.25);
  EXPECT_EQ(first.as_tuple()[1].dtype(), DType::Float(32));
}

TEST(VmTest, TheStoragePoolReusesBlocks) {
  ExecutableBuilder b;
  int64_t bytes = b.shape({1000}), shape = b.shape({250}), global = b.string("global");
  int64_t u8 = b.dtype(DType::UInt(8)), f32 = b.dtype(DType::Float(32));
  b.function("main", {}, 3);
  b.call(0, "vm.builtin.alloc_storage", {cst(bytes), imm(0), cst(global), cst(u8)});
  b.call(1, "vm.builtin.alloc_tensor", {reg(0), imm(0), cst(shape), cst(f32)});
  b.call(2, "vm.builtin.shape_of", {reg(1)});
  b.ret(2);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  EXPECT_EQ(machine.call("main", {}).as_shape(), (std::vector<int64_t>{250}));
  vm::StoragePool::Stats stats = machine.device_pool().stats();
  EXPECT_EQ(stats.fresh_allocations, 1);
  EXPECT_EQ(stats.reuses, 0);
  EXPECT_EQ(stats.bytes_in_use, 0u);   // the frame's registers were the last holders
  EXPECT_EQ(stats.bytes_free, 1024u);  // rounded up to the granularity
  machine.call("main", {});
  stats = machine.device_pool().stats();
  EXPECT_EQ(stats.fresh_allocations, 1);
  EXPECT_EQ(stats.reuses, 1);
  EXPECT_EQ(device.allocations, 1);
  // A block held by the caller is not handed out again.
  vm::Tensor held = machine.empty(DType::Float(32), {250});
  machine.call("main", {});
  EXPECT_EQ(machine.device_pool().stats().fresh_allocations, 2);
  machine.device_pool().release_free_blocks();
  EXPECT_EQ(device.live_buffers(), 1u);  // only `held`
}

TEST(VmTest, HostTensorArgumentsAreCopiedToTheDevice) {
  ExecutableBuilder b;
  b.function("main", {"x"}, 1);
  b.ret(0);
  HostMemoryDevice device;
  vm::VirtualMachine machine(b.finish(), device);
  std::vector<float> x = {4, 5};
  vm::Tensor host = machine.host_tensor(DType::Float(32), {2}, x.data());
  EXPECT_TRUE(host.on_host());
  Value out = machine.call("main", {Value::tuple({Value::tensor(host), Value::integer(1)})});
  const vm::Tensor& t = out.as_tuple()[0].as_tensor();
  EXPECT_FALSE(t.on_host());
  EXPECT_EQ(floats_of(machine.to_host(t)), x);
}

TEST(VmTest, AnExecutableWithoutKernelsForTheDeviceIsRefused) {
  ExecutableBuilder b;
  b.exe.backends.push_back({});
  b.exe.backends.back().format = runtime::KernelFormat::Ptx;
  HostMemoryDevice device;
  EXPECT_EQ(runtime_error_of([&] { vm::VirtualMachine machine(b.finish(), device); }),
            "the executable has kernels for PTX; device 'host memory' runs SPIR-V");
}

// --- Kernels on a device ---

// A PrimExpr over the host vars as an IntProgram (what codegen/vm does for real).
void append_int_program(const tir::PrimExpr& e, const std::map<const tir::VarNode*, int>& slots,
                        vm::IntProgram& out) {
  if (const auto* imm = e.as<tir::IntImmNode>()) {
    out.code.push_back({vm::IntOp::Const, imm->value});
  } else if (const auto* v = e.as<tir::VarNode>()) {
    out.code.push_back({vm::IntOp::Load, slots.at(v)});
  } else if (const auto* c = e.as<tir::CastNode>()) {
    append_int_program(c->value, slots, out);
  } else {
    auto binary = [&](const auto* node, vm::IntOp op) {
      if (node == nullptr) return false;
      append_int_program(node->a, slots, out);
      append_int_program(node->b, slots, out);
      out.code.push_back({op, 0});
      return true;
    };
    bool done = binary(e.as<tir::AddNode>(), vm::IntOp::Add) ||
                binary(e.as<tir::SubNode>(), vm::IntOp::Sub) ||
                binary(e.as<tir::MulNode>(), vm::IntOp::Mul) ||
                binary(e.as<tir::FloorDivNode>(), vm::IntOp::FloorDiv) ||
                binary(e.as<tir::FloorModNode>(), vm::IntOp::FloorMod) ||
                binary(e.as<tir::DivNode>(), vm::IntOp::TruncDiv) ||
                binary(e.as<tir::ModNode>(), vm::IntOp::TruncMod) ||
                binary(e.as<tir::MinNode>(), vm::IntOp::Min) ||
                binary(e.as<tir::MaxNode>(), vm::IntOp::Max);
    ASSERT_TRUE(done) << "the test's converter does not handle this host expression";
  }
}

vm::IntProgram int_program(const tir::PrimExpr& e,
                           const std::map<const tir::VarNode*, int>& slots) {
  vm::IntProgram p;
  append_int_program(e, slots, p);
  return p;
}

DType runtime_dtype(const DataType& t) {
  return {
      static_cast<DType::Code>(t.code() == DataType::Code::BFloat ? 4 : static_cast<int>(t.code())),
      static_cast<uint8_t>(t.bits()), static_cast<uint16_t>(t.lanes())};
}

// The KernelFunc of a compiled PrimFunc without scalar params: a slot per shape variable,
// defined by the first buffer dimension that is that variable.
vm::KernelFunc kernel_func(const codegen::CompiledPrimFunc& compiled) {
  const tir::LoweredFunc& lowered = compiled.lowered;
  vm::KernelFunc kf;
  kf.name = lowered.name;
  std::map<const tir::VarNode*, int> slots;
  for (const tir::Buffer& buffer : lowered.params) {
    vm::KernelParam p;
    p.name = buffer->name;
    p.dtype = runtime_dtype(buffer->dtype);
    for (const tir::PrimExpr& dim : buffer->shape) {
      vm::KernelDim d;
      if (const auto* v = dim.as<tir::VarNode>(); v != nullptr && slots.count(v) == 0) {
        d.defines_slot = static_cast<int>(slots.size());
        slots[v] = d.defines_slot;
      }
      d.extent = int_program(dim, slots);
      p.shape.push_back(d);
    }
    kf.params.push_back(p);
  }
  kf.num_slots = static_cast<int>(slots.size());
  EXPECT_TRUE(lowered.workspaces.empty());
  for (size_t k = 0; k < lowered.launches.size(); ++k) {
    const tir::KernelLaunch& launch = lowered.launches[k];
    vm::KernelLaunchInfo info;
    info.kernel = static_cast<int64_t>(k);
    info.buffer_args.assign(launch.buffer_args.begin(), launch.buffer_args.end());
    for (const tir::PrimExpr& s : launch.scalar_args)
      info.scalar_args.push_back(int_program(s, slots));
    for (int axis = 0; axis < 3; ++axis) {
      info.grid[static_cast<size_t>(axis)] =
          int_program(launch.grid_size[static_cast<size_t>(axis)], slots);
    }
    kf.launches.push_back(info);
  }
  return kf;
}

// main(a, b): checks a and b against R.Tensor((n,), "float32") through the shape heap,
// allocates c of n * 4 bytes (the size computed by a host function), launches
// vector_add(a, b, c) and returns c. direct(a, b, c) launches it without checks.
std::shared_ptr<const vm::Executable> vector_add_program(
    const codegen::CompiledPrimFunc& compiled) {
  ExecutableBuilder b;
  vm::Backend backend;
  backend.format = runtime::KernelFormat::SpirV;
  backend.target = "vulkan";
  backend.kernel_funcs.push_back(kernel_func(compiled));
  backend.kernels = compiled.binaries;
  b.exe.backends.push_back(backend);
  vm::HostFunc shape_func;
  shape_func.name = "main_shape_func";
  shape_func.stores.push_back(
      {1, {{{vm::IntOp::Load, 0}, {vm::IntOp::Const, 4}, {vm::IntOp::Mul, 0}}}});
  b.exe.host_funcs.push_back(shape_func);
  int64_t kernel = b.entry("vector_add", vm::FunctionKind::Kernel, 0);
  int64_t host = b.entry("main_shape_func", vm::FunctionKind::Host, 0);
  int64_t f32 = b.dtype(DType::Float(32)), u8 = b.dtype(DType::UInt(8));
  int64_t global = b.string("global");
  int64_t ctx_a =
      b.string("main: argument 'a' (vm_test.py:3:9), expected R.Tensor((n,), dtype=\"float32\")");
  int64_t ctx_b =
      b.string("main: argument 'b' (vm_test.py:3:30), expected R.Tensor((n,), dtype=\"float32\")");
  b.function("main", {"a", "b"}, 7);
  b.call(2, "vm.builtin.alloc_shape_heap", {imm(2)});
  b.call(vm::kVoidRegister, "vm.builtin.check_tensor_info", {reg(0), imm(1), cst(f32), cst(ctx_a)});
  b.call(vm::kVoidRegister, "vm.builtin.check_tensor_info", {reg(1), imm(1), cst(f32), cst(ctx_b)});
  b.call(vm::kVoidRegister, "vm.builtin.match_shape",
         {reg(0), reg(2), imm(1), imm(1), imm(0), cst(ctx_a)});
  b.call(vm::kVoidRegister, "vm.builtin.match_shape",
         {reg(1), reg(2), imm(1), imm(3), imm(0), cst(ctx_b)});
  b.call_index(vm::kVoidRegister, host, {reg(2)});
  b.call(3, "vm.builtin.make_shape", {reg(2), imm(1), imm(1), imm(1)});
  b.call(4, "vm.builtin.alloc_storage", {reg(3), imm(0), cst(global), cst(u8)});
  b.call(5, "vm.builtin.make_shape", {reg(2), imm(1), imm(1), imm(0)});
  b.call(6, "vm.builtin.alloc_tensor", {reg(4), imm(0), reg(5), cst(f32)});
  b.call_index(vm::kVoidRegister, kernel, {reg(0), reg(1), reg(6)});
  b.ret(6);
  b.function("direct", {"a", "b", "c"}, 3);
  b.call_index(vm::kVoidRegister, kernel, {reg(0), reg(1), reg(2)});
  b.ret(2);
  b.function("on_host", {"a", "b", "c"}, 4);
  b.call(3, "test.host_copy", {reg(2)});
  b.call_index(vm::kVoidRegister, kernel, {reg(0), reg(1), reg(3)});
  b.ret(3);
  return b.finish();
}

class VmKernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why_not;
    device_ = test_device(TargetKind::Vulkan, &why_not);
    if (device_ == nullptr) GTEST_SKIP() << "no Vulkan device: " << why_not;
    Target target = driver::target_from_device(device_->limits(), TargetKind::Vulkan);
    const SuiteKernel& k = suite_kernel("vector_add");
    compiled_ = driver::compile_prim_func(scheduled_kernel(k, target), k.name, target);
  }
  void TearDown() override {
    if (device_ == nullptr) return;
    std::vector<std::string> messages = validation_messages(TargetKind::Vulkan);
    EXPECT_TRUE(messages.empty()) << "validation layer: " << messages.front();
  }
  std::vector<float> inputs(int64_t n, float scale) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
      v[static_cast<size_t>(i)] = scale * static_cast<float>(i % 97) - 3.0f;
    return v;
  }
  runtime::Device* device_ = nullptr;
  codegen::CompiledPrimFunc compiled_;
};

TEST_F(VmKernelTest, VectorAddMatchesTheCpu) {
  vm::VirtualMachine machine(vector_add_program(compiled_), *device_);
  for (int64_t n : {1, 7, 1024, 65537}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> a = inputs(n, 0.5f), b = inputs(n, -0.25f);
    Value c =
        machine.call("main", {Value::tensor(machine.from_host(DType::Float(32), {n}, a.data())),
                              Value::tensor(machine.from_host(DType::Float(32), {n}, b.data()))});
    EXPECT_EQ(c.as_tensor().shape, (std::vector<int64_t>{n}));
    std::vector<float> got = floats_of(machine.to_host(c.as_tensor()));
    ASSERT_EQ(got.size(), a.size());
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], a[i] + b[i]) << "element " << i;
  }
  // The second round of sizes takes its blocks from the pool.
  int64_t fresh = machine.device_pool().stats().fresh_allocations;
  std::vector<float> a = inputs(7, 1), b = inputs(7, 2);
  machine.call("main", {Value::tensor(machine.host_tensor(DType::Float(32), {7}, a.data())),
                        Value::tensor(machine.host_tensor(DType::Float(32), {7}, b.data()))});
  EXPECT_EQ(machine.device_pool().stats().fresh_allocations, fresh);
}

TEST_F(VmKernelTest, ShapeMismatchesNameTheArgumentAndTheKernelBuffer) {
  vm::VirtualMachine machine(vector_add_program(compiled_), *device_);
  std::vector<float> a = inputs(8, 1);
  auto tensor = [&](int64_t n) {
    return Value::tensor(machine.from_host(DType::Float(32), {n}, a.data()));
  };
  EXPECT_EQ(runtime_error_of([&] {
              machine.call("main", {tensor(7), tensor(6)});
            }),
            "in main, instruction 4: main: argument 'b' (vm_test.py:3:30), expected "
            "R.Tensor((n,), dtype=\"float32\"): dimension 0 is 6, expected 7 (the value of n "
            "bound earlier)");
  EXPECT_EQ(runtime_error_of([&] {
              machine.call("direct", {tensor(7), tensor(7), tensor(6)});
            }),
            "in direct, instruction 0: kernel function 'vector_add': buffer 'C', dimension 0 is "
            "6, expected 7 (the tensor has shape (6,))");
  int32_t ints[7] = {};
  Value int_tensor = Value::tensor(machine.from_host(DType::Int(32), {7}, ints));
  EXPECT_EQ(runtime_error_of([&] {
              machine.call("direct", {tensor(7), int_tensor, tensor(7)});
            }),
            "in direct, instruction 0: kernel function 'vector_add': buffer 'B' has dtype "
            "float32, the tensor has dtype int32");
  // Host tensors reach kernels only through vm.builtin.to_device (call() copies only the
  // caller's arguments); a packed function may return one.
  vm::register_packed_func("test.host_copy", [](vm::VirtualMachine& m, std::span<const Value> in) {
    const vm::Tensor& t = in[0].as_tensor();
    return Value::tensor(m.host_tensor(t.dtype, t.shape, m.to_host(t).data()));
  });
  EXPECT_EQ(runtime_error_of([&] {
              machine.call("on_host", {tensor(7), tensor(7), tensor(7)});
            }),
            "in on_host, instruction 1: kernel function 'vector_add': buffer 'C' is given a "
            "tensor in host memory; kernels read tensors on device '" +
                device_->limits().name + "' (copy it with vm.builtin.to_device)");
  EXPECT_NE(runtime_error_of([&] {
              machine.call("direct", {tensor(7), tensor(7), Value::tuple({})});
            }).find("buffer 'C' (argument 2) is given a tuple, expected a tensor"),
            std::string::npos);
  // The VM works after the failures.
  Value c = machine.call("main", {tensor(8), tensor(8)});
  std::vector<float> got = floats_of(machine.to_host(c.as_tensor()));
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], a[i] + a[i]);
}

}  // namespace
}  // namespace relaxc::testing
