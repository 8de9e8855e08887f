// Structural equality, hashing and mismatch reporting over the reflected fields of IR
// nodes.
//
// Algorithm: equality and hashing walk the nodes in one fixed order (pre-order, fields
// in declaration order) with an explicit work stack, so that deep expressions never
// deepen the C++ stack. At each node, scalar fields are compared (or hashed) at once
// and child nodes are pushed, last field first, so that they are taken in field order.
// Variables and buffers are binders: the first time one is met it is paired with its
// counterpart (equality) or numbered (hashing), and its own fields are compared then;
// later occurrences only check the pairing (or hash the number). Equal inputs meet
// their binders at the same steps, so they number them alike and hash alike.
#include "ir/structural_equal.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "ir/node_dispatch.h"

namespace relaxc {
namespace {

// ---------------------------------------------------------------- Reflection

template <typename T>
constexpr size_t kNumFields = std::tuple_size_v<decltype(T::reflect_fields())>;

// The member name of each field of T, taken after the last "::" of its spelling in
// RELAXC_FIELDS ("&BinaryNode::a" -> "a").
template <typename T>
constexpr std::array<std::string_view, kNumFields<T>> parse_field_names() {
  std::array<std::string_view, kNumFields<T>> names{};
  std::string_view rest = T::reflect_field_names();
  for (std::string_view& name : names) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t scope = item.rfind("::");
    if (scope != std::string_view::npos) item = item.substr(scope + 2);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    name = item;
  }
  return names;
}

template <typename T>
constexpr auto kFieldNames = parse_field_names<T>();

// Binders are matched by a one-to-one pairing instead of by identity or name.
bool is_binder(NodeKind kind) {
  return kind == NodeKind::TirVar || kind == NodeKind::TirBuffer || kind == NodeKind::RelaxVar ||
         kind == NodeKind::RelaxDataflowVar;
}

// ---------------------------------------------------------------- Describing values

// The user-visible name of a named node (never used for equality).
std::string_view node_name(const Object* node) {
  switch (node->kind()) {
    case NodeKind::TirVar:
      return static_cast<const tir::VarNode*>(node)->name;
    case NodeKind::TirBuffer:
      return static_cast<const tir::BufferNode*>(node)->name;
    case NodeKind::RelaxVar:
    case NodeKind::RelaxDataflowVar:
      return static_cast<const relax::VarNode*>(node)->name;
    case NodeKind::RelaxGlobalVar:
      return static_cast<const relax::GlobalVarNode*>(node)->name;
    case NodeKind::RelaxOp:
      return static_cast<const relax::OpNode*>(node)->name;
    default:
      return {};
  }
}

std::string describe(const Object* node) {
  if (node == nullptr) return "null";
  std::string text = node_kind_name(node->kind());
  std::string_view name = node_name(node);
  if (!name.empty()) text.append(" '").append(name).append("'");
  return text;
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string to_text(bool v) { return v ? "true" : "false"; }
std::string to_text(const std::string& v) { return quoted(v); }
std::string to_text(const DataType& v) { return v.is_void() ? "void" : v.str(); }
std::string to_text(tir::ForKind v) { return tir::for_kind_name(v); }
std::string to_text(tir::IterKind v) { return tir::iter_kind_name(v); }
template <typename T>
std::string to_text(const T& v) {
  std::ostringstream os;
  os.precision(17);
  if constexpr (std::is_enum_v<T>) {
    os << static_cast<int64_t>(v);
  } else {
    os << v;
  }
  return os.str();
}

const char* attr_kind_name(AttrValue::Kind kind) {
  switch (kind) {
    case AttrValue::Kind::None:
      return "None";
    case AttrValue::Kind::Bool:
      return "bool";
    case AttrValue::Kind::Int:
      return "int";
    case AttrValue::Kind::Float:
      return "float";
    case AttrValue::Kind::String:
      return "string";
    case AttrValue::Kind::DType:
      return "dtype";
    case AttrValue::Kind::List:
      return "list";
    case AttrValue::Kind::Dict:
      return "dict";
  }
  return "?";
}

std::string attr_scalar_text(const AttrValue& v) {
  switch (v.kind) {
    case AttrValue::Kind::None:
      return "None";
    case AttrValue::Kind::Bool:
      return to_text(v.b);
    case AttrValue::Kind::Int:
      return to_text(v.i);
    case AttrValue::Kind::Float:
      return to_text(v.f);
    case AttrValue::Kind::String:
      return quoted(v.s);
    case AttrValue::Kind::DType:
      return to_text(v.dtype);
    case AttrValue::Kind::List:
      return "list of " + std::to_string(v.list.size());
    case AttrValue::Kind::Dict: {
      std::string keys;
      for (const std::string& key : v.keys) keys += (keys.empty() ? "" : ", ") + quoted(key);
      return "dict of {" + keys + "}";
    }
  }
  return "?";
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

// Doubles are equal when == says so (0.0 and -0.0 too) or both are NaN.
bool doubles_equal(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

bool attr_scalars_equal(const AttrValue& a, const AttrValue& b) {
  switch (a.kind) {
    case AttrValue::Kind::None:
      return true;
    case AttrValue::Kind::Bool:
      return a.b == b.b;
    case AttrValue::Kind::Int:
      return a.i == b.i;
    case AttrValue::Kind::Float:
      return doubles_equal(a.f, b.f);
    case AttrValue::Kind::String:
      return a.s == b.s;
    case AttrValue::Kind::DType:
      return a.dtype == b.dtype;
    case AttrValue::Kind::List:
      return a.list.size() == b.list.size();
    case AttrValue::Kind::Dict:
      return a.keys == b.keys;
  }
  return false;
}

// ---------------------------------------------------------------- Paths

// The way from the root to a field, as a tree of steps shared by siblings; only the
// explaining comparison records it.
class PathArena {
 public:
  static constexpr int kRoot = -1;

  int field(int parent, std::string_view name) { return add({parent, name, {}, -1}); }
  int index(int parent, size_t i) { return add({parent, {}, {}, static_cast<int64_t>(i)}); }
  int key(int parent, std::string_view key) { return add({parent, {}, key, -1}); }

  // "functions[1].body.blocks[0]"; "<root>" for the root itself.
  std::string render(int id) const {
    std::vector<const Step*> steps;
    for (; id != kRoot; id = steps_[id].parent) steps.push_back(&steps_[id]);
    if (steps.empty()) return "<root>";
    std::string text;
    for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
      const Step& step = **it;
      if (!step.field.empty()) {
        if (!text.empty()) text += '.';
        text += step.field;
      } else if (!step.key.empty()) {
        text += "[" + quoted(step.key) + "]";
      } else {
        text += "[" + std::to_string(step.index) + "]";
      }
    }
    return text;
  }

 private:
  struct Step {
    int parent;
    std::string_view field;
    std::string_view key;
    int64_t index;
  };
  int add(Step step) {
    steps_.push_back(step);
    return static_cast<int>(steps_.size()) - 1;
  }
  std::vector<Step> steps_;
};

// ---------------------------------------------------------------- Equality

// Compares two nodes; with kExplain, also says where and how they first differ.
template <bool kExplain>
class Equality {
 public:
  bool run(const Object* a, const Object* b) {
    if (a == nullptr || b == nullptr) {
      return a == b || fail(PathArena::kRoot, [&] { return describe(a) + " vs " + describe(b); });
    }
    stack_.push_back({a, b, PathArena::kRoot});
    while (!stack_.empty()) {
      Task task = stack_.back();
      stack_.pop_back();
      if (!visit(task)) return false;
    }
    return true;
  }

  const std::string& message() const { return message_; }

 private:
  struct Task {
    const Object* a;
    const Object* b;
    int path;
  };

  template <typename MakeDetail>
  bool fail(int path, MakeDetail&& detail) {
    if constexpr (kExplain) message_ = paths_.render(path) + ": " + detail();
    return false;
  }

  int field_path(int parent, std::string_view name) {
    if constexpr (kExplain) return paths_.field(parent, name);
    return PathArena::kRoot;
  }
  int index_path(int parent, size_t i) {
    if constexpr (kExplain) return paths_.index(parent, i);
    return PathArena::kRoot;
  }
  int key_path(int parent, std::string_view key) {
    if constexpr (kExplain) return paths_.key(parent, key);
    return PathArena::kRoot;
  }

  bool visit(const Task& task) {
    const Object* a = task.a;
    const Object* b = task.b;
    if (a->kind() != b->kind()) {
      return fail(task.path, [&] { return describe(a) + " vs " + describe(b); });
    }
    if (is_binder(a->kind())) {
      Pairing pairing = pair_binders(a, b, task.path);
      if (pairing == Pairing::Conflict) return false;
      // A binder's own fields are compared where it is first met only.
      if (pairing == Pairing::MetBefore) return true;
    }
    bool ok = dispatch(a, [&](const auto* node_a) {
      using T = std::remove_cv_t<std::remove_pointer_t<decltype(node_a)>>;
      const T* node_b = static_cast<const T*>(b);
      size_t i = 0;
      return all_fields(node_a, node_b, [&](const auto& field_a, const auto& field_b) {
        return compare(field_a, field_b, field_path(task.path, kFieldNames<T>[i++]));
      });
    });
    if (ok) stack_.insert(stack_.end(), pending_.rbegin(), pending_.rend());
    pending_.clear();
    return ok;
  }

  enum class Pairing { Conflict, MetBefore, FirstMeeting };

  // Checks the pairing of binders a and b, or fixes it at their first occurrence.
  Pairing pair_binders(const Object* a, const Object* b, int path) {
    auto a_it = a_to_b_.find(a);
    if (a_it != a_to_b_.end()) {
      if (a_it->second == b) return Pairing::MetBefore;
      fail(path, [&] { return conflict_text(a, b, a, a_it->second); });
      return Pairing::Conflict;
    }
    auto b_it = b_to_a_.find(b);
    if (b_it != b_to_a_.end()) {
      fail(path, [&] { return conflict_text(a, b, b_it->second, b); });
      return Pairing::Conflict;
    }
    a_to_b_.emplace(a, b);
    b_to_a_.emplace(b, a);
    if constexpr (kExplain) first_met_at_.emplace(a, path);
    return Pairing::FirstMeeting;
  }

  // "TirVar 'x' vs TirVar 'z': 'x' was paired with 'y' at params[0]".
  std::string conflict_text(const Object* a, const Object* b, const Object* paired_a,
                            const Object* paired_b) {
    const Object* mine = paired_a == a ? a : b;
    const Object* other = paired_a == a ? paired_b : paired_a;
    std::string text = describe(a) + " vs " + describe(b) + ": '" + std::string(node_name(mine)) +
                       "' was paired with '" + std::string(node_name(other)) + "'";
    if constexpr (kExplain) {
      auto it = first_met_at_.find(paired_a);
      if (it != first_met_at_.end()) text += " at " + paths_.render(it->second);
    }
    return text;
  }

  template <typename F>
  bool compare(const F& x, const F& y, int path) {
    if constexpr (kIsRefField<F>) {
      const Object* a = x.get();
      const Object* b = y.get();
      if (a == nullptr || b == nullptr) {
        return a == b || fail(path, [&] { return describe(a) + " vs " + describe(b); });
      }
      pending_.push_back({a, b, path});
      return true;
    } else if constexpr (kIsVectorField<F>) {
      if (x.size() != y.size()) {
        return fail(path, [&] {
          return "length " + std::to_string(x.size()) + " vs " + std::to_string(y.size());
        });
      }
      for (size_t i = 0; i < x.size(); ++i) {
        if (!compare(x[i], y[i], index_path(path, i))) return false;
      }
      return true;
    } else if constexpr (kIsOptionalField<F>) {
      if (x.has_value() != y.has_value()) {
        return fail(path, [&] {
          return std::string(x ? "present" : "absent") + " vs " + (y ? "present" : "absent");
        });
      }
      return !x.has_value() || compare(*x, *y, path);
    } else if constexpr (kIsPairField<F>) {
      return compare(x.first, y.first, path) && compare(x.second, y.second, path);
    } else if constexpr (std::is_same_v<F, Attrs>) {
      return compare_attrs(x, y, path);
    } else if constexpr (std::is_same_v<F, HostTensor>) {
      return compare_tensors(x, y, path);
    } else if constexpr (std::is_floating_point_v<F>) {
      return doubles_equal(x, y) || fail(path, [&] { return to_text(x) + " vs " + to_text(y); });
    } else {
      return x == y || fail(path, [&] { return to_text(x) + " vs " + to_text(y); });
    }
  }

  bool compare_attrs(const Attrs& x, const Attrs& y, int path) {
    const auto& ex = x.entries();
    const auto& ey = y.entries();
    for (size_t i = 0; i < ex.size() && i < ey.size(); ++i) {
      if (ex[i].first != ey[i].first) {
        return fail(index_path(path, i),
                    [&] { return "key " + quoted(ex[i].first) + " vs " + quoted(ey[i].first); });
      }
      if (!compare_attr_values(ex[i].second, ey[i].second, key_path(path, ex[i].first))) {
        return false;
      }
    }
    if (ex.size() != ey.size()) {
      return fail(path, [&] {
        const auto& longer = ex.size() > ey.size() ? ex : ey;
        size_t common = std::min(ex.size(), ey.size());
        return std::to_string(ex.size()) + " entries vs " + std::to_string(ey.size()) +
               " (first extra: " + quoted(longer[common].first) + ")";
      });
    }
    return true;
  }

  // Iterative, so that deeply nested attribute lists cannot exhaust the stack.
  bool compare_attr_values(const AttrValue& x, const AttrValue& y, int path) {
    struct Item {
      const AttrValue* x;
      const AttrValue* y;
      int path;
    };
    std::vector<Item> items = {{&x, &y, path}};
    while (!items.empty()) {
      Item item = items.back();
      items.pop_back();
      const AttrValue& a = *item.x;
      const AttrValue& b = *item.y;
      if (a.kind != b.kind) {
        return fail(item.path, [&] {
          return std::string(attr_kind_name(a.kind)) + " " + attr_scalar_text(a) + " vs " +
                 attr_kind_name(b.kind) + " " + attr_scalar_text(b);
        });
      }
      if (!attr_scalars_equal(a, b)) {
        return fail(item.path, [&] { return attr_scalar_text(a) + " vs " + attr_scalar_text(b); });
      }
      for (size_t i = a.list.size(); i-- > 0;) {
        items.push_back({&a.list[i], &b.list[i], index_path(item.path, i)});
      }
    }
    return true;
  }

  bool compare_tensors(const HostTensor& x, const HostTensor& y, int path) {
    if (x.dtype != y.dtype) {
      return fail(path, [&] { return "dtype " + to_text(x.dtype) + " vs " + to_text(y.dtype); });
    }
    if (x.shape != y.shape) {
      return fail(path,
                  [&] { return "shape " + shape_text(x.shape) + " vs " + shape_text(y.shape); });
    }
    if (x.data == y.data) return true;
    static const std::vector<uint8_t> kNoBytes;
    const std::vector<uint8_t>& bx = x.data ? *x.data : kNoBytes;
    const std::vector<uint8_t>& by = y.data ? *y.data : kNoBytes;
    if (bx == by) return true;
    return fail(path, [&] {
      size_t byte = 0;
      while (byte < bx.size() && byte < by.size() && bx[byte] == by[byte]) ++byte;
      int64_t element = static_cast<int64_t>(byte) / std::max(1, x.dtype.bytes());
      if (byte >= bx.size() || byte >= by.size() || element >= x.num_elements()) {
        return "data of " + std::to_string(bx.size()) + " vs " + std::to_string(by.size()) +
               " bytes";
      }
      return "element " + std::to_string(element) + ": " + to_text(x.element_as_double(element)) +
             " vs " + to_text(y.element_as_double(element));
    });
  }

  std::vector<Task> stack_;
  std::vector<Task> pending_;  // children of the node being compared, in field order
  std::unordered_map<const Object*, const Object*> a_to_b_, b_to_a_;
  PathArena paths_;
  std::unordered_map<const Object*, int> first_met_at_;  // binder of a -> its path
  std::string message_;
};

// ---------------------------------------------------------------- Hashing

class Hasher {
 public:
  size_t run(const Object* root) {
    if (root == nullptr) return static_cast<size_t>(finish(kNullTag));
    stack_.push_back(root);
    while (!stack_.empty()) {
      const Object* node = stack_.back();
      stack_.pop_back();
      visit(node);
    }
    return static_cast<size_t>(finish(hash_));
  }

 private:
  static constexpr uint64_t kNullTag = 0x6e756c6cULL;
  static constexpr uint64_t kNodeTag = 0x6e6f6465ULL;
  static constexpr uint64_t kFirstBinderTag = 0x66697273ULL;
  static constexpr uint64_t kSeenBinderTag = 0x7365656eULL;
  static constexpr uint64_t kNaNHash = 0x7ff8000000000000ULL;

  // splitmix64's finalizer: spreads every input bit over the result.
  static uint64_t finish(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
  }
  void mix(uint64_t value) { hash_ = finish(hash_ ^ (value + 0x9e3779b97f4a7c15ULL)); }

  void visit(const Object* node) {
    mix(static_cast<uint64_t>(node->kind()));
    if (is_binder(node->kind())) {
      auto [it, first] = binder_number_.emplace(node, binder_number_.size());
      if (!first) {
        mix(kSeenBinderTag);
        mix(it->second);
        return;
      }
      mix(kFirstBinderTag);
    }
    dispatch(node, [&](const auto* typed) {
      for_each_field(typed, [&](const auto& field) { hash(field); });
    });
    stack_.insert(stack_.end(), pending_.rbegin(), pending_.rend());
    pending_.clear();
  }

  template <typename F>
  void hash(const F& x) {
    if constexpr (kIsRefField<F>) {
      if (x.get() == nullptr) {
        mix(kNullTag);
      } else {
        mix(kNodeTag);
        pending_.push_back(x.get());
      }
    } else if constexpr (kIsVectorField<F>) {
      mix(x.size());
      for (const auto& element : x) hash(element);
    } else if constexpr (kIsOptionalField<F>) {
      mix(x.has_value());
      if (x.has_value()) hash(*x);
    } else if constexpr (kIsPairField<F>) {
      hash(x.first);
      hash(x.second);
    } else if constexpr (std::is_same_v<F, Attrs>) {
      mix(x.entries().size());
      for (const auto& [key, value] : x.entries()) {
        hash(key);
        hash_attr_value(value);
      }
    } else if constexpr (std::is_same_v<F, HostTensor>) {
      hash(x.dtype);
      hash(x.shape);
      if (x.data) {
        hash(std::string_view(reinterpret_cast<const char*>(x.data->data()), x.data->size()));
      } else {
        hash(std::string_view());
      }
    } else if constexpr (std::is_floating_point_v<F>) {
      if (std::isnan(x)) {
        mix(kNaNHash);
      } else {
        mix(x == 0 ? 0 : std::bit_cast<uint64_t>(static_cast<double>(x)));
      }
    } else if constexpr (std::is_same_v<F, std::string> || std::is_same_v<F, std::string_view>) {
      mix(std::hash<std::string_view>()(x));
    } else if constexpr (std::is_same_v<F, DataType>) {
      mix((static_cast<uint64_t>(x.code()) << 32) | (static_cast<uint64_t>(x.bits()) << 16) |
          static_cast<uint64_t>(x.lanes()));
    } else {
      static_assert(std::is_integral_v<F> || std::is_enum_v<F>, "unhashable field type");
      mix(static_cast<uint64_t>(x));
    }
  }

  // Iterative, like compare_attr_values.
  void hash_attr_value(const AttrValue& root) {
    std::vector<const AttrValue*> items = {&root};
    while (!items.empty()) {
      const AttrValue& v = *items.back();
      items.pop_back();
      mix(static_cast<uint64_t>(v.kind));
      switch (v.kind) {
        case AttrValue::Kind::None:
          break;
        case AttrValue::Kind::Bool:
          hash(v.b);
          break;
        case AttrValue::Kind::Int:
          hash(v.i);
          break;
        case AttrValue::Kind::Float:
          hash(v.f);
          break;
        case AttrValue::Kind::String:
          hash(v.s);
          break;
        case AttrValue::Kind::DType:
          hash(v.dtype);
          break;
        case AttrValue::Kind::Dict:
          for (const std::string& key : v.keys) hash(key);
          [[fallthrough]];
        case AttrValue::Kind::List:
          mix(v.list.size());
          for (size_t i = v.list.size(); i-- > 0;) items.push_back(&v.list[i]);
          break;
      }
    }
  }

  std::vector<const Object*> stack_;
  std::vector<const Object*> pending_;
  std::unordered_map<const Object*, uint64_t> binder_number_;
  uint64_t hash_ = 0x72656c6178ULL;
};

}  // namespace

bool structural_equal(const Ref<Object>& a, const Ref<Object>& b) {
  // The same node on both sides pairs every binder with itself.
  if (a.same_as(b)) return true;
  return Equality<false>().run(a.get(), b.get());
}

size_t structural_hash(const Ref<Object>& node) { return Hasher().run(node.get()); }

std::optional<std::string> structural_mismatch(const Ref<Object>& a, const Ref<Object>& b) {
  if (a.same_as(b)) return std::nullopt;
  Equality<true> equality;
  if (equality.run(a.get(), b.get())) return std::nullopt;
  return equality.message();
}

}  // namespace relaxc
