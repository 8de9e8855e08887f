// The values the VM computes with: null, PrimValues (int or float, with a dtype), data
// types, strings, shapes, tensors, storage, tuples and closures. Heap values are
// reference counted and immutable once made (a tensor's contents live in its storage).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/dtype.h"

namespace relaxc::runtime::vm {

class StoragePool;

// A block of memory on the host or on a device. It comes from a StoragePool and goes
// back to it when the last tensor and register holding it are gone.
struct Storage {
  Device* device = nullptr;   // null: host memory
  DeviceBuffer buffer;        // on a device
  std::vector<uint8_t> host;  // on the host
  size_t bytes = 0;
  std::shared_ptr<StoragePool> pool;  // where it returns; null: freed directly
  ~Storage();
  bool on_host() const { return device == nullptr; }
};

// A tensor in DLPack's layout (data, device, ndim, dtype, shape, byte offset); always
// compact row-major, so strides are implied by the shape.
struct Tensor {
  std::shared_ptr<Storage> storage;
  int64_t byte_offset = 0;
  DType dtype;
  std::vector<int64_t> shape;

  int64_t num_elements() const;
  size_t num_bytes() const;
  bool on_host() const { return storage == nullptr || storage->on_host(); }
};

class Value;

// A function (an index into Executable::functions) with the values it captured, which
// come before the call's own arguments.
struct Closure {
  int64_t func = 0;
  std::vector<Value> captures;
};

class Value {
 public:
  enum class Kind : uint8_t { Null, Int, Float, DataType, String, Shape, Tensor, Storage, Tuple,
                              Closure };

  Value() = default;  // null
  static Value integer(int64_t v, DType dtype = DType::Int(64));
  static Value boolean(bool v);  // Int of dtype bool
  static Value floating(double v, DType dtype = DType::Float(64));
  static Value data_type(DType v);
  static Value string(std::string v);
  static Value shape(std::vector<int64_t> dims);
  static Value tensor(Tensor t);
  static Value storage(std::shared_ptr<Storage> s);
  static Value tuple(std::vector<Value> fields);
  static Value closure(Closure c);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::Null; }
  // "null", "int64", "float32", "dtype", "string", "shape", "tensor", "storage",
  // "tuple", "closure": what messages call a value of this kind.
  std::string kind_name() const;

  // Each throws a RuntimeError ("expected a tensor, got a shape") on another kind.
  int64_t as_int() const;    // Int
  double as_float() const;   // Float, or Int converted
  DType dtype() const;       // Int, Float: the value's dtype; DataType: the value
  const std::string& as_string() const;
  const std::vector<int64_t>& as_shape() const;
  const Tensor& as_tensor() const;
  const std::shared_ptr<Storage>& as_storage() const;
  const std::vector<Value>& as_tuple() const;
  const Closure& as_closure() const;

 private:
  Kind kind_ = Kind::Null;
  int64_t int_ = 0;
  double float_ = 0.0;
  DType dtype_;
  std::shared_ptr<const void> object_;  // String, Shape, Tensor, Tuple, Closure payloads
  std::shared_ptr<Storage> storage_;
};

}  // namespace relaxc::runtime::vm
