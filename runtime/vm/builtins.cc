// The builtins for memory (storage and tensors from the pools, views, copies between
// host and device), tuples and closures; and the argument checks every builtin uses.
#include "runtime/vm/builtins.h"

#include <cstring>

namespace relaxc::runtime::vm {

void BuiltinArgs::expect_count(size_t n) const {
  if (args_.size() != n) {
    fail("takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", got " +
         std::to_string(args_.size()));
  }
}

void BuiltinArgs::expect_at_least(size_t n) const {
  if (args_.size() < n) {
    fail("takes at least " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") + ", got " +
         std::to_string(args_.size()));
  }
}

void BuiltinArgs::fail(const std::string& message) const {
  runtime_error() << builtin_ << ": " << message;
}

void BuiltinArgs::wrong_kind(size_t i, const char* what, const char* expected) const {
  fail("argument " + std::to_string(i) + " (" + what + ") is " + kind_with_article(args_[i]) +
       ", expected " + expected);
}

int64_t BuiltinArgs::integer(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::Int) wrong_kind(i, what, "an integer");
  return args_[i].as_int();
}

const std::string& BuiltinArgs::string(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::String) wrong_kind(i, what, "a string");
  return args_[i].as_string();
}

const std::vector<int64_t>& BuiltinArgs::shape(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::Shape) wrong_kind(i, what, "a shape");
  return args_[i].as_shape();
}

const Tensor& BuiltinArgs::tensor(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::Tensor) wrong_kind(i, what, "a tensor");
  return args_[i].as_tensor();
}

DType BuiltinArgs::dtype(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::DataType) wrong_kind(i, what, "a dtype");
  return args_[i].dtype();
}

const std::vector<Value>& BuiltinArgs::tuple(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::Tuple) wrong_kind(i, what, "a tuple");
  return args_[i].as_tuple();
}

const Closure& BuiltinArgs::closure(size_t i, const char* what) const {
  if (args_[i].kind() != Value::Kind::Closure) wrong_kind(i, what, "a closure");
  return args_[i].as_closure();
}

std::string kind_with_article(const Value& value) {
  std::string kind = value.kind_name();
  if (value.is_null()) return kind;
  bool vowel = std::string("aeiou").find(kind[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + kind;
}

size_t checked_tensor_bytes(DType dtype, std::span<const int64_t> shape, const std::string& what) {
  if (dtype.is_void()) runtime_error() << what << ": a tensor needs a dtype, got void";
  int64_t total = dtype.bytes();
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) {
      runtime_error() << what << ": dimension " << d << " of shape " << shape_text(shape)
                      << " is negative";
    }
    if (__builtin_mul_overflow(total, shape[d], &total)) {
      runtime_error() << what << ": a " << dtype.str() << " tensor of shape " << shape_text(shape)
                      << " is larger than the address space";
    }
  }
  return static_cast<size_t>(total);
}

std::string shape_text(std::span<const int64_t> shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

namespace {

// vm.builtin.alloc_storage(size: Shape[1] bytes, device_index: Int, scope: String,
// dtype: DataType) -> Storage from the device's pool.
Value alloc_storage(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kAllocStorage, in);
  args.expect_count(4);
  const std::vector<int64_t>& size = args.shape(0, "size");
  int64_t device_index = args.integer(1, "device_index");
  const std::string& scope = args.string(2, "storage_scope");
  args.dtype(3, "dtype");
  if (size.size() != 1 || size[0] < 0) {
    args.fail("the size is " + shape_text(size) + ", expected one non-negative number of bytes");
  }
  if (device_index != 0) {
    args.fail("device index " + std::to_string(device_index) +
              ": this VM runs on one device, index 0");
  }
  if (scope != "global") args.fail("storage scope '" + scope + "': only \"global\" is supported");
  return Value::storage(
      vm.device_pool().allocate(static_cast<size_t>(size[0]), builtin::kAllocStorage));
}

// vm.builtin.alloc_tensor(storage, offset: Int, shape: Shape, dtype: DataType) -> Tensor.
Value alloc_tensor(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kAllocTensor, in);
  args.expect_count(4);
  if (in[0].kind() != Value::Kind::Storage) {
    args.fail("argument 0 (storage) is " + kind_with_article(in[0]) + ", expected a storage");
  }
  const std::shared_ptr<Storage>& storage = in[0].as_storage();
  int64_t offset = args.integer(1, "offset");
  const std::vector<int64_t>& shape = args.shape(2, "shape");
  DType dtype = args.dtype(3, "dtype");
  size_t bytes = checked_tensor_bytes(dtype, shape, builtin::kAllocTensor);
  if (offset < 0 || static_cast<size_t>(offset) > storage->bytes ||
      bytes > storage->bytes - static_cast<size_t>(offset)) {
    args.fail("a " + dtype.str() + " tensor of shape " + shape_text(shape) + " at offset " +
              std::to_string(offset) + " needs " + std::to_string(bytes) +
              " bytes; the storage has " + std::to_string(storage->bytes));
  }
  Tensor t;
  t.storage = storage;
  t.byte_offset = offset;
  t.dtype = dtype;
  t.shape = shape;
  return Value::tensor(std::move(t));
}

Value null_value(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs(builtin::kNullValue, in).expect_count(0);
  return Value();
}

Value copy(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs(builtin::kCopy, in).expect_count(1);
  return in[0];
}

Value make_tuple(VirtualMachine&, std::span<const Value> in) {
  return Value::tuple(std::vector<Value>(in.begin(), in.end()));
}

Value tuple_getitem(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kTupleGetitem, in);
  args.expect_count(2);
  const std::vector<Value>& fields = args.tuple(0, "tuple");
  int64_t index = args.integer(1, "index");
  if (index < 0 || static_cast<size_t>(index) >= fields.size()) {
    args.fail("index " + std::to_string(index) + " is outside the tuple of " +
              std::to_string(fields.size()) + " fields");
  }
  return fields[static_cast<size_t>(index)];
}

Value shape_of(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kShapeOf, in);
  args.expect_count(1);
  return Value::shape(args.tensor(0, "tensor").shape);
}

// The values of a 1-D integer tensor as a shape: the host needs them, so a tensor on the
// device is read back (waiting for the work that writes it). Dims are never negative.
Value tensor_to_shape(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kTensorToShape, in);
  args.expect_count(1);
  const Tensor& t = args.tensor(0, "tensor");
  if (t.shape.size() != 1 || t.dtype.lanes != 1 ||
      (t.dtype.code != DType::Code::Int && t.dtype.code != DType::Code::UInt) ||
      t.dtype.bits == 1) {
    args.fail("expected a 1-D integer tensor, got a " + t.dtype.str() + " tensor of shape " +
              shape_text(t.shape));
  }
  std::vector<uint8_t> bytes = vm.to_host(t);
  std::vector<int64_t> dims;
  for (int64_t k = 0; k < t.shape[0]; ++k) {
    int64_t d = element_as_int(bytes.data() + static_cast<size_t>(k * t.dtype.bytes()), t.dtype);
    if (d < 0) {
      args.fail("entry " + std::to_string(k) + " of the tensor is " + std::to_string(d) +
                "; a shape's dims are not negative");
    }
    dims.push_back(d);
  }
  return Value::shape(std::move(dims));
}

// A view of the same storage with another shape of as many elements.
Value reshape(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kReshape, in);
  args.expect_count(2);
  const Tensor& t = args.tensor(0, "tensor");
  const std::vector<int64_t>& shape = args.shape(1, "shape");
  checked_tensor_bytes(t.dtype, shape, builtin::kReshape);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  if (count != t.num_elements()) {
    args.fail("cannot reshape a tensor of shape " + shape_text(t.shape) + " (" +
              std::to_string(t.num_elements()) + " elements) to " + shape_text(shape) + " (" +
              std::to_string(count) + " elements)");
  }
  Tensor view = t;
  view.shape = shape;
  return Value::tensor(std::move(view));
}

Value flatten(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kFlatten, in);
  args.expect_count(1);
  Tensor view = args.tensor(0, "tensor");
  view.shape = {view.num_elements()};
  return Value::tensor(std::move(view));
}

// make_closure(func, captures...): the captures go before the call's own arguments.
Value make_closure(VirtualMachine&, std::span<const Value> in) {
  BuiltinArgs args(builtin::kMakeClosure, in);
  args.expect_at_least(1);
  Closure c = args.closure(0, "func");
  c.captures.insert(c.captures.end(), in.begin() + 1, in.end());
  return Value::closure(std::move(c));
}

Value invoke_closure(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kInvokeClosure, in);
  args.expect_at_least(1);
  args.closure(0, "closure");
  return vm.invoke(in[0], std::vector<Value>(in.begin() + 1, in.end()));
}

Value to_device(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kToDevice, in);
  args.expect_count(1);
  return Value::tensor(vm.to_device(args.tensor(0, "tensor")));
}

// Waits for the work writing the tensor, then copies it into host memory.
Value to_host(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kToHost, in);
  args.expect_count(1);
  const Tensor& t = args.tensor(0, "tensor");
  if (t.on_host()) return in[0];
  std::vector<uint8_t> bytes = vm.to_host(t);
  return Value::tensor(vm.host_tensor(t.dtype, t.shape, bytes.data()));
}

}  // namespace

void add_builtins(PackedFuncTable& table) {
  table.emplace_back(builtin::kAllocStorage, alloc_storage);
  table.emplace_back(builtin::kAllocTensor, alloc_tensor);
  table.emplace_back(builtin::kNullValue, null_value);
  table.emplace_back(builtin::kCopy, copy);
  table.emplace_back(builtin::kMakeTuple, make_tuple);
  table.emplace_back(builtin::kTupleGetitem, tuple_getitem);
  table.emplace_back(builtin::kShapeOf, shape_of);
  table.emplace_back(builtin::kTensorToShape, tensor_to_shape);
  table.emplace_back(builtin::kReshape, reshape);
  table.emplace_back(builtin::kFlatten, flatten);
  table.emplace_back(builtin::kMakeClosure, make_closure);
  table.emplace_back(builtin::kInvokeClosure, invoke_closure);
  table.emplace_back(builtin::kToDevice, to_device);
  table.emplace_back(builtin::kToHost, to_host);
}

}  // namespace relaxc::runtime::vm
