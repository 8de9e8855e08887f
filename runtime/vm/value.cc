// Values of the VM: constructors, checked accessors, tensor sizes, and storage that
// returns to its pool when the last reference goes.
#include "runtime/vm/value.h"

#include <utility>

#include "runtime/vm/storage_pool.h"

namespace relaxc::runtime::vm {
namespace {

const char* kind_text(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::Null:
      return "null";
    case Value::Kind::Int:
      return "int";
    case Value::Kind::Float:
      return "float";
    case Value::Kind::DataType:
      return "dtype";
    case Value::Kind::String:
      return "string";
    case Value::Kind::Shape:
      return "shape";
    case Value::Kind::Tensor:
      return "tensor";
    case Value::Kind::Storage:
      return "storage";
    case Value::Kind::Tuple:
      return "tuple";
    case Value::Kind::Closure:
      return "closure";
  }
  return "value";
}

// "a tensor", "an int64": the article the messages use.
std::string with_article(const std::string& noun) {
  bool vowel = !noun.empty() && std::string("aeiou").find(noun[0]) != std::string::npos;
  return (vowel ? "an " : "a ") + noun;
}

}  // namespace

Storage::~Storage() {
  // A destructor must not throw: a device lost while releasing keeps its memory.
  try {
    if (pool != nullptr) {
      pool->give_back(*this);
    } else if (device != nullptr && buffer.id != 0) {
      device->release(buffer);
    }
  } catch (const RuntimeError&) {
  }
}

int64_t Tensor::num_elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

size_t Tensor::num_bytes() const {
  return static_cast<size_t>(num_elements()) * static_cast<size_t>(dtype.bytes());
}

Value Value::integer(int64_t v, DType dtype) {
  Value out;
  out.kind_ = Kind::Int;
  out.int_ = v;
  out.dtype_ = dtype;
  return out;
}

Value Value::boolean(bool v) { return integer(v ? 1 : 0, DType::Bool()); }

Value Value::floating(double v, DType dtype) {
  Value out;
  out.kind_ = Kind::Float;
  out.float_ = v;
  out.dtype_ = dtype;
  return out;
}

Value Value::data_type(DType v) {
  Value out;
  out.kind_ = Kind::DataType;
  out.dtype_ = v;
  return out;
}

Value Value::string(std::string v) {
  Value out;
  out.kind_ = Kind::String;
  out.object_ = std::make_shared<const std::string>(std::move(v));
  return out;
}

Value Value::shape(std::vector<int64_t> dims) {
  Value out;
  out.kind_ = Kind::Shape;
  out.object_ = std::make_shared<const std::vector<int64_t>>(std::move(dims));
  return out;
}

Value Value::tensor(Tensor t) {
  Value out;
  out.kind_ = Kind::Tensor;
  out.object_ = std::make_shared<const Tensor>(std::move(t));
  return out;
}

Value Value::storage(std::shared_ptr<Storage> s) {
  Value out;
  out.kind_ = Kind::Storage;
  out.storage_ = std::move(s);
  return out;
}

Value Value::tuple(std::vector<Value> fields) {
  Value out;
  out.kind_ = Kind::Tuple;
  out.object_ = std::make_shared<const std::vector<Value>>(std::move(fields));
  return out;
}

Value Value::closure(Closure c) {
  Value out;
  out.kind_ = Kind::Closure;
  out.object_ = std::make_shared<const Closure>(std::move(c));
  return out;
}

std::string Value::kind_name() const {
  if (kind_ == Kind::Int || kind_ == Kind::Float) return dtype_.str();
  return kind_text(kind_);
}

namespace {

[[noreturn]] void wrong_kind(const Value& v, Value::Kind expected) {
  runtime_error() << "expected " << with_article(kind_text(expected)) << ", got "
                  << with_article(v.kind_name());
}

}  // namespace

int64_t Value::as_int() const {
  if (kind_ != Kind::Int) wrong_kind(*this, Kind::Int);
  return int_;
}

double Value::as_float() const {
  if (kind_ == Kind::Int) return static_cast<double>(int_);
  if (kind_ != Kind::Float) wrong_kind(*this, Kind::Float);
  return float_;
}

DType Value::dtype() const {
  if (kind_ != Kind::Int && kind_ != Kind::Float && kind_ != Kind::DataType) {
    wrong_kind(*this, Kind::DataType);
  }
  return dtype_;
}

const std::string& Value::as_string() const {
  if (kind_ != Kind::String) wrong_kind(*this, Kind::String);
  return *static_cast<const std::string*>(object_.get());
}

const std::vector<int64_t>& Value::as_shape() const {
  if (kind_ != Kind::Shape) wrong_kind(*this, Kind::Shape);
  return *static_cast<const std::vector<int64_t>*>(object_.get());
}

const Tensor& Value::as_tensor() const {
  if (kind_ != Kind::Tensor) wrong_kind(*this, Kind::Tensor);
  return *static_cast<const Tensor*>(object_.get());
}

const std::shared_ptr<Storage>& Value::as_storage() const {
  if (kind_ != Kind::Storage) wrong_kind(*this, Kind::Storage);
  return storage_;
}

const std::vector<Value>& Value::as_tuple() const {
  if (kind_ != Kind::Tuple) wrong_kind(*this, Kind::Tuple);
  return *static_cast<const std::vector<Value>*>(object_.get());
}

const Closure& Value::as_closure() const {
  if (kind_ != Kind::Closure) wrong_kind(*this, Kind::Closure);
  return *static_cast<const Closure*>(object_.get());
}

}  // namespace relaxc::runtime::vm
