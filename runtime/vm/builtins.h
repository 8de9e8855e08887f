// The builtin packed functions (vm.builtin.*, internal to runtime/vm) and what their
// files share: checked access to the arguments, tensor sizes, element decoding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "runtime/vm/builtin_abi.h"
#include "runtime/vm/vm.h"

namespace relaxc::runtime::vm {

using PackedFuncTable = std::vector<std::pair<std::string, PackedFunc>>;

// Every builtin, added to `table` once when the registry is first used.
void add_builtins(PackedFuncTable& table);        // builtins.cc: memory, tuples, closures
void add_shape_builtins(PackedFuncTable& table);  // builtins_shape.cc: heap and checks
void add_print_builtin(PackedFuncTable& table);   // builtins_print.cc
void add_data_dependent_builtins(PackedFuncTable& table);  // nonzero, unique

// A builtin's arguments with checks whose messages name the builtin and the argument:
// "vm.builtin.alloc_tensor: argument 2 (shape) is an int64, expected a shape".
class BuiltinArgs {
 public:
  // `builtin` is a name of builtin_abi.h (static storage: nothing is copied per call).
  BuiltinArgs(const char* builtin, std::span<const Value> args) : builtin_(builtin), args_(args) {}

  size_t size() const { return args_.size(); }
  // "vm.builtin.x takes 4 arguments, got 3".
  void expect_count(size_t n) const;
  void expect_at_least(size_t n) const;

  const Value& at(size_t i) const { return args_[i]; }
  int64_t integer(size_t i, const char* what) const;
  const std::string& string(size_t i, const char* what) const;
  const std::vector<int64_t>& shape(size_t i, const char* what) const;
  const Tensor& tensor(size_t i, const char* what) const;
  DType dtype(size_t i, const char* what) const;
  const std::vector<Value>& tuple(size_t i, const char* what) const;
  const Closure& closure(size_t i, const char* what) const;

  // Throws "<builtin>: <message>".
  [[noreturn]] void fail(const std::string& message) const;

 private:
  [[noreturn]] void wrong_kind(size_t i, const char* what, const char* expected) const;
  const char* builtin_;
  std::span<const Value> args_;
};

// "a shape", "an int64", "null": a value's kind in messages.
std::string kind_with_article(const Value& value);

// The bytes of a tensor of `dtype` and `shape`; a negative dimension or a size past
// int64 is a RuntimeError starting with `what`.
size_t checked_tensor_bytes(DType dtype, std::span<const int64_t> shape, const std::string& what);

// "(2, 3)", "(5,)", "()": a shape in messages and in print.
std::string shape_text(std::span<const int64_t> shape);

// One element of a host tensor's bytes, as an integer or a double (float16 and bfloat16
// widened). RuntimeError for a dtype the runtime cannot read.
int64_t element_as_int(const uint8_t* data, DType dtype);
double element_as_double(const uint8_t* data, DType dtype);

// The text vm.builtin.print writes for `value` (tensors read back from the device).
std::string format_value(VirtualMachine& vm, const Value& value);

}  // namespace relaxc::runtime::vm
