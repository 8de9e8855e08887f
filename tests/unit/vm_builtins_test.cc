// The vm.builtin.* functions, each run through bytecode as vm_codegen emits it: the
// shape heap (store, check, make), the StructInfo checks and their messages, storage
// and tensors, views, tuples, host shape functions, copies, print; and the argument
// checks every builtin makes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "runtime/vm/vm.h"
#include "tests/unit/vm_test_support.h"

namespace relaxc::testing {
namespace {

using runtime::DType;
using vm::Value;

// Runs one builtin on `args` in a function of its own.
class BuiltinTest : public ::testing::Test {
 protected:
  // The result of `builtin` called with `args`. The arguments come from a packed
  // function rather than from call(), which would copy host tensors (the shape heap)
  // to the device.
  Value run(const std::string& builtin, std::vector<Value> args) {
    ExecutableBuilder b;
    auto n = static_cast<int64_t>(args.size());
    b.function("main", {}, n + 2);
    b.call(0, "test.builtin_args", {});
    std::vector<vm::Arg> call_args;
    for (int64_t i = 0; i < n; ++i) {
      b.call(i + 1, "vm.builtin.tuple_getitem", {reg(0), imm(i)});
      call_args.push_back(reg(i + 1));
    }
    b.call(n + 1, builtin, call_args);
    b.ret(n + 1);
    machines_.push_back(std::make_unique<vm::VirtualMachine>(b.finish(), device_));
    machines_.back()->set_print_stream(&printed_);
    Value tuple = Value::tuple(std::move(args));
    vm::register_packed_func(
        "test.builtin_args",
        [tuple](vm::VirtualMachine&, std::span<const Value>) { return tuple; });
    return machines_.back()->call("main", {});
  }
  // The message of the error `builtin` throws, after the frame it names (the builtin's
  // call, after the argument unpacking).
  std::string error(const std::string& builtin, std::vector<Value> args) {
    std::string frame = "in main, instruction " + std::to_string(args.size() + 1) + ": ";
    std::string message = runtime_error_of([&] { run(builtin, std::move(args)); });
    EXPECT_EQ(message.rfind(frame, 0), 0u) << message;
    return message.substr(std::min(frame.size(), message.size()));
  }
  vm::VirtualMachine& machine() {
    if (machines_.empty()) run("vm.builtin.null_value", {});
    return *machines_.back();
  }
  Value floats(std::vector<int64_t> shape, const std::vector<float>& v) {
    return Value::tensor(machine().from_host(DType::Float(32), std::move(shape), v.data()));
  }
  Value heap(std::vector<int64_t> slots) {
    return Value::tensor(
        machine().host_tensor(DType::Int(64), {static_cast<int64_t>(slots.size())}, slots.data()));
  }
  static std::vector<int64_t> heap_slots(const Value& heap) {
    const vm::Tensor& t = heap.as_tensor();
    std::vector<int64_t> out(static_cast<size_t>(t.shape[0]));
    std::memcpy(out.data(), t.storage->host.data(), out.size() * sizeof(int64_t));
    return out;
  }

  HostMemoryDevice device_;
  std::vector<std::unique_ptr<vm::VirtualMachine>> machines_;
  std::ostringstream printed_;
};

const char* kCtx = "main: argument 'x' (m.py:4:15), expected R.Tensor((n, 64), dtype=\"float32\")";

TEST_F(BuiltinTest, MatchShapeStoresAndChecks) {
  Value h = heap({0, 0, 12});
  Value x = floats({5, 64}, std::vector<float>(5 * 64));
  // dim 0 stored into slot 0, dim 1 must be 64.
  run("vm.builtin.match_shape", {x, h, Value::integer(2), Value::integer(1), Value::integer(0),
                                 Value::integer(2), Value::integer(64), Value::string(kCtx)});
  EXPECT_EQ(heap_slots(h), (std::vector<int64_t>{5, 0, 12}));
  EXPECT_EQ(
      error("vm.builtin.match_shape",
            {floats({5, 63}, std::vector<float>(5 * 63)), h, Value::integer(2), Value::integer(0),
             Value::integer(0), Value::integer(2), Value::integer(64), Value::string(kCtx)}),
      std::string(kCtx) + ": dimension 1 is 63, expected 64");
  EXPECT_EQ(error("vm.builtin.match_shape",
                  {Value::shape({4, 64}), h, Value::integer(2), Value::integer(3),
                   Value::integer(0), Value::integer(0), Value::integer(0), Value::string(kCtx)}),
            std::string(kCtx) + ": dimension 0 is 4, expected 5 (the value of n bound earlier)");
  EXPECT_EQ(error("vm.builtin.match_shape",
                  {Value::shape({4, 64, 1}), h, Value::integer(2), Value::integer(0),
                   Value::integer(0), Value::integer(0), Value::integer(0), Value::string(kCtx)}),
            std::string(kCtx) + ": ndim is 3, expected 2");
  // An expression dimension computed into slot 2 earlier.
  const char* expr_ctx = "main: match_cast 'y' (m.py:9:8), expected R.Shape([n * 2 + 2])";
  EXPECT_EQ(
      error("vm.builtin.match_shape", {Value::shape({11}), h, Value::integer(1), Value::integer(3),
                                       Value::integer(2), Value::string(expr_ctx)}),
      std::string(expr_ctx) + ": dimension 0 is 11, expected 12 (the value of n * 2 + 2)");
  EXPECT_EQ(
      error("vm.builtin.match_shape", {Value::shape({11}), h, Value::integer(1), Value::integer(1),
                                       Value::integer(3), Value::string(expr_ctx)}),
      "vm.builtin.match_shape: heap slot 3 is outside the shape "
      "heap of 3 slots");
  EXPECT_EQ(error("vm.builtin.match_shape",
                  {Value::shape({11}), h, Value::integer(1), Value::string(expr_ctx)}),
            "vm.builtin.match_shape: takes 4 + 2 * ndim arguments (ndim "
            "1), got 4");
}

TEST_F(BuiltinTest, MatchPrimValueAndMakeValues) {
  Value h = heap({0, 7});
  run("vm.builtin.match_prim_value",
      {Value::integer(3), h, Value::integer(1), Value::integer(0), Value::string("ctx")});
  EXPECT_EQ(heap_slots(h), (std::vector<int64_t>{3, 7}));
  EXPECT_EQ(error("vm.builtin.match_prim_value", {Value::integer(4), h, Value::integer(3),
                                                  Value::integer(1), Value::string("f: k")}),
            "f: k: value is 4, expected 7 (the value bound earlier)");
  EXPECT_EQ(error("vm.builtin.match_prim_value", {Value::integer(4), h, Value::integer(2),
                                                  Value::integer(5), Value::string("f: k")}),
            "f: k: value is 4, expected 5");
  Value shape = run("vm.builtin.make_shape",
                    {h, Value::integer(3), Value::integer(1), Value::integer(1), Value::integer(0),
                     Value::integer(32), Value::integer(1), Value::integer(0)});
  EXPECT_EQ(shape.as_shape(), (std::vector<int64_t>{7, 32, 3}));
  Value prim = run("vm.builtin.make_prim_value",
                   {h, Value::integer(1), Value::integer(1), Value::data_type(DType::Int(32))});
  EXPECT_EQ(prim.as_int(), 7);
  EXPECT_EQ(prim.dtype(), DType::Int(32));
}

TEST_F(BuiltinTest, StructInfoChecks) {
  Value x = floats({2, 3}, std::vector<float>(6));
  auto f32 = Value::data_type(DType::Float(32));
  EXPECT_TRUE(run("vm.builtin.check_tensor_info", {x, Value::integer(2), f32, Value::string(kCtx)})
                  .is_null());
  EXPECT_TRUE(run("vm.builtin.check_tensor_info",
                  {x, Value::integer(-1), Value::data_type(DType::Void()), Value::string(kCtx)})
                  .is_null());
  std::string at = kCtx;
  EXPECT_EQ(error("vm.builtin.check_tensor_info", {x, Value::integer(3), f32, Value::string(kCtx)}),
            at + ": ndim is 2, expected 3");
  EXPECT_EQ(error("vm.builtin.check_tensor_info",
                  {x, Value::integer(2), Value::data_type(DType::Int(32)), Value::string(kCtx)}),
            at + ": dtype is float32, expected int32");
  EXPECT_EQ(error("vm.builtin.check_tensor_info",
                  {Value::shape({2}), Value::integer(2), f32, Value::string(kCtx)}),
            at + ": expected a tensor, got a shape");
  EXPECT_EQ(error("vm.builtin.check_shape_info",
                  {Value::shape({2}), Value::integer(2), Value::string("f: s")}),
            "f: s: ndim is 1, expected 2");
  EXPECT_EQ(error("vm.builtin.check_tuple_info",
                  {Value::tuple({Value()}), Value::integer(2), Value::string("f: t")}),
            "f: t: the tuple has 1 fields, expected 2");
  EXPECT_EQ(error("vm.builtin.check_func_info", {Value::integer(1), Value::string("f: g")}),
            "f: g: expected a function, got an int64");
  EXPECT_EQ(error("vm.builtin.check_prim_value_info",
                  {Value::floating(1.5), Value::data_type(DType::Int(64)), Value::string("f: v")}),
            "f: v: expected a int64 PrimValue, got a float64");
  EXPECT_TRUE(run("vm.builtin.check_prim_value_info",
                  {Value::integer(1), Value::data_type(DType::Int(64)), Value::string("f: v")})
                  .is_null());
}

TEST_F(BuiltinTest, StorageTensorsAndViews) {
  Value storage =
      run("vm.builtin.alloc_storage", {Value::shape({24}), Value::integer(0),
                                       Value::string("global"), Value::data_type(DType::UInt(8))});
  EXPECT_EQ(storage.as_storage()->bytes, vm::StoragePool::kGranularity);
  Value t = run("vm.builtin.alloc_tensor", {storage, Value::integer(0), Value::shape({2, 3}),
                                            Value::data_type(DType::Float(32))});
  EXPECT_EQ(t.as_tensor().shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.as_tensor().storage, storage.as_storage());
  EXPECT_EQ(error("vm.builtin.alloc_tensor", {storage, Value::integer(8), Value::shape({8, 8}),
                                              Value::data_type(DType::Float(32))}),
            "vm.builtin.alloc_tensor: a float32 tensor of shape (8, 8) at "
            "offset 8 needs 256 bytes; the storage has 256");
  EXPECT_EQ(error("vm.builtin.alloc_tensor", {storage, Value::integer(0), Value::integer(4),
                                              Value::data_type(DType::Float(32))}),
            "vm.builtin.alloc_tensor: argument 2 (shape) is an int64, "
            "expected a shape");
  EXPECT_EQ(error("vm.builtin.alloc_tensor", {storage}),
            "vm.builtin.alloc_tensor: takes 4 arguments, got 1");
  Value x = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  Value r = run("vm.builtin.reshape", {x, Value::shape({3, 2})});
  EXPECT_EQ(r.as_tensor().shape, (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(r.as_tensor().storage, x.as_tensor().storage);  // a view
  EXPECT_EQ(error("vm.builtin.reshape", {x, Value::shape({4, 2})}),
            "vm.builtin.reshape: cannot reshape a tensor of shape (2, 3) "
            "(6 elements) to (4, 2) (8 elements)");
  EXPECT_EQ(run("vm.builtin.flatten", {x}).as_tensor().shape, (std::vector<int64_t>{6}));
  EXPECT_EQ(run("vm.builtin.shape_of", {x}).as_shape(), (std::vector<int64_t>{2, 3}));
  Value host = run("vm.builtin.to_host", {x});
  EXPECT_TRUE(host.as_tensor().on_host());
  std::vector<float> back(6);
  std::memcpy(back.data(), host.as_tensor().storage->host.data(), 24);
  EXPECT_EQ(back, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  Value dev = run("vm.builtin.to_device", {host});
  EXPECT_FALSE(dev.as_tensor().on_host());
  EXPECT_EQ(machine().to_host(dev.as_tensor()), machine().to_host(x.as_tensor()));
  EXPECT_EQ(error("vm.builtin.alloc_storage",
                  {Value::shape({24}), Value::integer(1), Value::string("global"),
                   Value::data_type(DType::UInt(8))}),
            "vm.builtin.alloc_storage: device index 1: this VM runs on "
            "one device, index 0");
}

TEST_F(BuiltinTest, TensorToShapeReadsTheDevicesValues) {
  std::vector<int64_t> dims = {4, 0, 7};
  Value t = Value::tensor(machine().from_host(DType::Int(64), {3}, dims.data()));
  EXPECT_EQ(run("vm.builtin.tensor_to_shape", {t}).as_shape(), dims);
  std::vector<int32_t> narrow = {2, 5};
  Value n = Value::tensor(machine().from_host(DType::Int(32), {2}, narrow.data()));
  EXPECT_EQ(run("vm.builtin.tensor_to_shape", {n}).as_shape(), (std::vector<int64_t>{2, 5}));
  std::vector<int64_t> negative = {3, -2};
  Value neg = Value::tensor(machine().from_host(DType::Int(64), {2}, negative.data()));
  EXPECT_EQ(error("vm.builtin.tensor_to_shape", {neg}),
            "vm.builtin.tensor_to_shape: entry 1 of the tensor is -2; a shape's dims are not "
            "negative");
  EXPECT_EQ(error("vm.builtin.tensor_to_shape", {floats({2}, {1, 2})}),
            "vm.builtin.tensor_to_shape: expected a 1-D integer tensor, got a float32 tensor of "
            "shape (2,)");
  EXPECT_EQ(error("vm.builtin.tensor_to_shape", {Value::shape({2})}),
            "vm.builtin.tensor_to_shape: argument 0 (tensor) is a shape, expected a tensor");
}

// The contents of a tensor result as int64 values.
std::vector<int64_t> int64s(vm::VirtualMachine& m, const Value& v) {
  std::vector<uint8_t> bytes = m.to_host(v.as_tensor());
  std::vector<int64_t> out(bytes.size() / sizeof(int64_t));
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST_F(BuiltinTest, NonzeroReadsTheDataAndShapesTheResult) {
  // [[0, 2, 0], [-1, 0, 3]]: nonzero at (0, 1), (1, 0), (1, 2); NaN counts as nonzero.
  Value x = floats({2, 3}, {0, 2, 0, -1, 0, 3});
  Value nz = run("vm.builtin.nonzero", {x});
  EXPECT_EQ(nz.as_tensor().shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(int64s(machine(), nz), (std::vector<int64_t>{0, 1, 1, 1, 0, 2}));
  Value nan = run("vm.builtin.nonzero", {floats({2}, {std::nanf(""), 0})});
  EXPECT_EQ(int64s(machine(), nan), (std::vector<int64_t>{0}));
  // A 0-d tensor counts as 1-D.
  Value scalar = run("vm.builtin.nonzero", {floats({}, {5})});
  EXPECT_EQ(scalar.as_tensor().shape, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(error("vm.builtin.nonzero", {Value::integer(3)}),
            "vm.builtin.nonzero: argument 0 (x) is an int64, expected a tensor");
}

TEST_F(BuiltinTest, UniqueSortsGroupsAndCounts) {
  Value x = floats({6}, {3, 1, 3, 2, 1, 3});
  auto flag = [](bool b) { return Value::integer(b ? 1 : 0); };
  // Sorted: values 1, 2, 3; first at 1, 3, 0; inverse; counts 2, 1, 3.
  Value all = run("vm.builtin.unique", {x, flag(true), flag(true), flag(true), flag(true)});
  const std::vector<Value>& f = all.as_tuple();
  ASSERT_EQ(f.size(), 4u);
  std::vector<uint8_t> values = machine().to_host(f[0].as_tensor());
  std::vector<float> v(3);
  ASSERT_EQ(values.size(), v.size() * sizeof(float));
  std::memcpy(v.data(), values.data(), values.size());
  EXPECT_EQ(v, (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(int64s(machine(), f[1]), (std::vector<int64_t>{1, 3, 0}));
  EXPECT_EQ(int64s(machine(), f[2]), (std::vector<int64_t>{2, 0, 2, 1, 0, 2}));
  EXPECT_EQ(int64s(machine(), f[3]), (std::vector<int64_t>{2, 1, 3}));
  // In order of first occurrence: 3, 1, 2.
  Value first = run("vm.builtin.unique", {x, flag(false), flag(true), flag(false), flag(true)});
  EXPECT_EQ(int64s(machine(), first.as_tuple()[1]), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(int64s(machine(), first.as_tuple()[2]), (std::vector<int64_t>{3, 2, 1}));
  // Rows of [[1, 2], [0, 5], [1, 2]] along axis 0: [0, 5], [1, 2].
  Value rows = floats({3, 2}, {1, 2, 0, 5, 1, 2});
  Value by_row = run("vm.builtin.unique",
                     {rows, flag(true), flag(false), flag(false), flag(true), Value::integer(0)});
  EXPECT_EQ(by_row.as_tuple()[0].as_tensor().shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(int64s(machine(), by_row.as_tuple()[1]), (std::vector<int64_t>{1, 2}));

  EXPECT_EQ(error("vm.builtin.unique", {x, flag(true)}),
            "vm.builtin.unique: takes 5 or 6 arguments (x, sorted, return_index, "
            "return_inverse, return_counts[, axis]), got 2");
  EXPECT_EQ(error("vm.builtin.unique",
                  {rows, flag(true), flag(false), flag(false), flag(false), Value::integer(2)}),
            "vm.builtin.unique: axis 2 is out of range for a tensor of 2 dimension(s)");
  EXPECT_EQ(
      error("vm.builtin.unique", {x, Value::string("yes"), flag(false), flag(false), flag(false)}),
      "vm.builtin.unique: argument 1 (sorted) is a string, expected an integer");
}

TEST_F(BuiltinTest, TuplesAndNull) {
  Value t = run("vm.builtin.make_tuple", {Value::integer(1), Value::string("a")});
  EXPECT_EQ(run("vm.builtin.tuple_getitem", {t, Value::integer(1)}).as_string(), "a");
  EXPECT_EQ(error("vm.builtin.tuple_getitem", {t, Value::integer(2)}),
            "vm.builtin.tuple_getitem: index 2 is outside the tuple of 2 "
            "fields");
  EXPECT_TRUE(run("vm.builtin.null_value", {}).is_null());
  EXPECT_EQ(run("vm.builtin.copy", {Value::integer(8)}).as_int(), 8);
}

TEST_F(BuiltinTest, HostShapeFunction) {
  // heap[2] = heap[0] * heap[1] + 1; heap[3] = floordiv(heap[2], 4)
  ExecutableBuilder b;
  vm::HostFunc f;
  f.name = "main_shape_func";
  f.stores.push_back({2,
                      {{{vm::IntOp::Load, 0},
                        {vm::IntOp::Load, 1},
                        {vm::IntOp::Mul, 0},
                        {vm::IntOp::Const, 1},
                        {vm::IntOp::Add, 0}}}});
  f.stores.push_back(
      {3, {{{vm::IntOp::Load, 2}, {vm::IntOp::Const, 4}, {vm::IntOp::FloorDiv, 0}}}});
  b.exe.host_funcs.push_back(f);
  int64_t host = b.entry("main_shape_func", vm::FunctionKind::Host, 0);
  b.function("main", {}, 1);
  b.call(0, "vm.builtin.alloc_shape_heap", {imm(4)});
  b.call(vm::kVoidRegister, "vm.builtin.match_shape",
         {cst(b.shape({6, 7})), reg(0), imm(2), imm(1), imm(0), imm(1), imm(1), cst(b.string(""))});
  b.call_index(vm::kVoidRegister, host, {reg(0)});
  b.ret(0);
  vm::VirtualMachine m(b.finish(), device_);
  Value h = m.call("main", {});
  EXPECT_EQ(heap_slots(h), (std::vector<int64_t>{6, 7, 43, 10}));
}

TEST_F(BuiltinTest, PrintFormatsValues) {
  run("vm.builtin.print", {Value::string(""), Value::integer(3), Value::floating(0.5),
                           Value::floating(2.0, DType::Float(32)), Value::boolean(true),
                           Value::shape({2, 3}), Value::string("s"), Value()});
  run("vm.builtin.print", {Value::string("x = {}, t = {} {{}}"), floats({2, 2}, {1, 2.5f, -3, 4}),
                           Value::tuple({Value::integer(1)})});
  std::vector<float> big(2000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<float>(i);
  run("vm.builtin.print", {Value::string(""), floats({2, 1000}, big)});
  EXPECT_EQ(printed_.str(),
            "3 0.5 2.0 True (2, 3) s None\n"
            "x = [[1.0, 2.5], [-3.0, 4.0]], t = (1,) {}\n"
            "[[0.0, 1.0, 2.0, ..., 997.0, 998.0, 999.0], [1000.0, 1001.0, 1002.0, ..., 1997.0, "
            "1998.0, 1999.0]]\n");
  EXPECT_EQ(error("vm.builtin.print", {Value::string("{} {}"), Value::integer(1)}),
            "vm.builtin.print: the format \"{} {}\" has more {} than the "
            "1 values given");
}

}  // namespace
}  // namespace relaxc::testing
