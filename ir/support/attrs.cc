// Attribute values and ordered attribute lists.
#include "ir/support/attrs.h"

#include <algorithm>

namespace relaxc {

AttrValue AttrValue::boolean(bool v) {
  AttrValue a;
  a.kind = Kind::Bool;
  a.b = v;
  return a;
}
AttrValue AttrValue::integer(int64_t v) {
  AttrValue a;
  a.kind = Kind::Int;
  a.i = v;
  return a;
}
AttrValue AttrValue::floating(double v) {
  AttrValue a;
  a.kind = Kind::Float;
  a.f = v;
  return a;
}
AttrValue AttrValue::string(std::string v) {
  AttrValue a;
  a.kind = Kind::String;
  a.s = std::move(v);
  return a;
}
AttrValue AttrValue::data_type(DataType v) {
  AttrValue a;
  a.kind = Kind::DType;
  a.dtype = v;
  return a;
}
AttrValue AttrValue::list_of(std::vector<AttrValue> v) {
  AttrValue a;
  a.kind = Kind::List;
  a.list = std::move(v);
  return a;
}
AttrValue AttrValue::int_list(const std::vector<int64_t>& v) {
  std::vector<AttrValue> items;
  items.reserve(v.size());
  for (int64_t x : v) items.push_back(integer(x));
  return list_of(std::move(items));
}

AttrValue AttrValue::dict_of(std::vector<std::pair<std::string, AttrValue>> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  AttrValue a;
  a.kind = Kind::Dict;
  for (auto& [key, value] : entries) {
    a.keys.push_back(std::move(key));
    a.list.push_back(std::move(value));
  }
  return a;
}

std::vector<int64_t> AttrValue::as_int_list() const {
  std::vector<int64_t> out;
  for (const AttrValue& v : list) out.push_back(v.i);
  return out;
}

bool AttrValue::operator==(const AttrValue& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::None: return true;
    case Kind::Bool: return b == o.b;
    case Kind::Int: return i == o.i;
    case Kind::Float: return f == o.f;
    case Kind::String: return s == o.s;
    case Kind::DType: return dtype == o.dtype;
    case Kind::List: return list == o.list;
    case Kind::Dict: return keys == o.keys && list == o.list;
  }
  return false;
}

const AttrValue* Attrs::find(const std::string& name) const {
  for (const Entry& e : entries_) {
    if (e.first == name) return &e.second;
  }
  return nullptr;
}

Attrs Attrs::with(const std::string& name, AttrValue value) const {
  std::vector<Entry> entries = entries_;
  for (Entry& e : entries) {
    if (e.first == name) {
      e.second = std::move(value);
      return Attrs(std::move(entries));
    }
  }
  bool sorted = std::is_sorted(entries.begin(), entries.end(),
                               [](const Entry& a, const Entry& b) { return a.first < b.first; });
  entries.emplace_back(name, std::move(value));
  if (sorted) {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.first < b.first; });
  }
  return Attrs(std::move(entries));
}

Attrs Attrs::without(const std::string& name) const {
  std::vector<Entry> entries;
  for (const Entry& e : entries_) {
    if (e.first != name) entries.push_back(e);
  }
  return Attrs(std::move(entries));
}

}  // namespace relaxc
