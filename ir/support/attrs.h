// Attributes of functions and operator calls: an ordered list of name -> value.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ir/support/data_type.h"

namespace relaxc {

// One attribute value: None, a bool, an integer, a float, a string, a data type, a
// list of values, or a dict from strings to values (TVM's tir_var_upper_bound
// {"n": 1024}).
struct AttrValue {
  enum class Kind : uint8_t { None, Bool, Int, Float, String, DType, List, Dict };

  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0.0;
  std::string s;
  DataType dtype;
  // A list's items; a dict's values, in the order of `keys`.
  std::vector<AttrValue> list;
  // A dict's keys, sorted and distinct.
  std::vector<std::string> keys;

  static AttrValue none() { return {}; }
  static AttrValue boolean(bool v);
  static AttrValue integer(int64_t v);
  static AttrValue floating(double v);
  static AttrValue string(std::string v);
  static AttrValue data_type(DataType v);
  static AttrValue list_of(std::vector<AttrValue> v);
  static AttrValue int_list(const std::vector<int64_t>& v);
  // A dict of these entries, sorted by key; the keys must be distinct.
  static AttrValue dict_of(std::vector<std::pair<std::string, AttrValue>> entries);

  bool is_none() const { return kind == Kind::None; }
  // The integers of a list of integers.
  std::vector<int64_t> as_int_list() const;

  bool operator==(const AttrValue& o) const;
  bool operator!=(const AttrValue& o) const { return !(*this == o); }
};

// Attributes in a canonical order: an operator's attributes in the order its
// registry entry declares; a function's sorted by name.
class Attrs {
 public:
  using Entry = std::pair<std::string, AttrValue>;

  Attrs() = default;
  explicit Attrs(std::vector<Entry> entries) : entries_(std::move(entries)) {}

  const std::vector<Entry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  // The value named `name`, or nullptr.
  const AttrValue* find(const std::string& name) const;
  // A copy with `name` set to `value`, keeping the entries sorted by name if they were.
  Attrs with(const std::string& name, AttrValue value) const;
  // A copy without `name`.
  Attrs without(const std::string& name) const;

  bool operator==(const Attrs& o) const { return entries_ == o.entries_; }
  bool operator!=(const Attrs& o) const { return !(*this == o); }

 private:
  std::vector<Entry> entries_;
};

}  // namespace relaxc
