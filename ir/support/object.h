// Intrusive reference counting for IR nodes: Object, Ref<T>, make_node<T>().
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <utility>

#include "ir/node_kinds.h"

namespace relaxc {

// Base of every IR node. Nodes are created mutable by make_node<T>(), filled in by a
// constructor function, and frozen once wrapped in a Ref<T>: a Ref only hands out
// const pointers, so a node is immutable after it is shared.
class Object {
 public:
  NodeKind kind() const { return kind_; }

  Object() = default;
  virtual ~Object() = default;
  // Copying a node (to rebuild it with one field changed) copies its kind, never its
  // reference count.
  Object(const Object& other) : kind_(other.kind_) {}
  Object& operator=(const Object&) = delete;

 private:
  template <typename T>
  friend class Ref;
  template <typename T>
  friend T* make_node();
  template <typename T>
  friend T* copy_node(const T&);

  mutable std::atomic<uint32_t> refs_{0};
  NodeKind kind_ = NodeKind::Invalid;
};

// Deletes a node whose last reference went away. Deleting a node drops the references
// it holds, which may delete their nodes in turn: to keep a long chain (an expression
// nested 10^5 deep) from recursing that deep, nested deletions are queued and run in a
// loop by the outermost one.
void destroy_node(const Object* node);

// Allocates a default-constructed node of type T with its kind set.
template <typename T>
T* make_node() {
  T* node = new T();
  node->kind_ = T::kKind;
  return node;
}

// Allocates a copy of `node` (same kind, fresh reference count).
template <typename T>
T* copy_node(const T& node) {
  T* copy = new T(node);
  copy->kind_ = node.Object::kind();  // qualified: a node may have a field named `kind`
  return copy;
}

// A shared, immutable handle to a node of type T (or of a kind derived from T).
// A default-constructed Ref is null; optional fields use null Refs.
template <typename T>
class Ref {
 public:
  using Node = T;

  Ref() = default;
  Ref(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)
  explicit Ref(const T* node) : ptr_(node) { retain(); }
  Ref(const Ref& other) : ptr_(other.ptr_) { retain(); }
  Ref(Ref&& other) noexcept : ptr_(other.ptr_) { other.ptr_ = nullptr; }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Ref(const Ref<U>& other) : ptr_(other.get()) {  // NOLINT(google-explicit-constructor)
    retain();
  }
  template <typename U, typename = std::enable_if_t<std::is_base_of_v<T, U>>>
  Ref(Ref<U>&& other) : ptr_(other.release()) {}  // NOLINT(google-explicit-constructor)
  ~Ref() { drop(); }

  Ref& operator=(Ref other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  const T* get() const { return ptr_; }
  const T* operator->() const { return ptr_; }
  const T& operator*() const { return *ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  bool defined() const { return ptr_ != nullptr; }
  bool same_as(const Ref& other) const { return ptr_ == other.ptr_; }
  template <typename U>
  bool same_as(const Ref<U>& other) const {
    return static_cast<const Object*>(ptr_) == static_cast<const Object*>(other.get());
  }

  // The node as a U if its kind is U's (or derived from it), else nullptr.
  template <typename U>
  const U* as() const {
    return ptr_ != nullptr && U::is_kind(ptr_->kind()) ? static_cast<const U*>(ptr_)
                                                        : nullptr;
  }
  template <typename U>
  bool is() const {
    return as<U>() != nullptr;
  }
  // The handle as a Ref<U>, or a null Ref if the node is not a U.
  template <typename U>
  Ref<U> cast() const {
    return Ref<U>(as<U>());
  }

  const T* release() {
    const T* p = ptr_;
    ptr_ = nullptr;
    return p;
  }

 private:
  void retain() {
    if (ptr_ != nullptr) ptr_->refs_.fetch_add(1, std::memory_order_relaxed);
  }
  void drop() {
    if (ptr_ != nullptr && ptr_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      destroy_node(ptr_);
    }
    ptr_ = nullptr;
  }

  const T* ptr_ = nullptr;
};

template <typename T, typename U>
bool operator==(const Ref<T>& a, const Ref<U>& b) {
  return static_cast<const Object*>(a.get()) == static_cast<const Object*>(b.get());
}
template <typename T, typename U>
bool operator!=(const Ref<T>& a, const Ref<U>& b) {
  return !(a == b);
}

// Hashes a Ref by identity (for pointer-keyed maps; structural_hash hashes by content).
struct RefHash {
  template <typename T>
  size_t operator()(const Ref<T>& r) const {
    return std::hash<const void*>()(static_cast<const void*>(r.get()));
  }
};
struct RefEq {
  template <typename T>
  bool operator()(const Ref<T>& a, const Ref<T>& b) const {
    return a.same_as(b);
  }
};

// Declares the kind of a concrete node type.
#define RELAXC_NODE_KIND(KIND)                      \
  static constexpr NodeKind kKind = NodeKind::KIND; \
  static bool is_kind(NodeKind k) { return k == kKind; }

// Declares the fields of a node for the generic algorithms (structural equality and
// hashing, child visiting, rebuilding): every field but the source span, in order.
// reflect_field_names() spells them as written ("&VarNode::dtype, &VarNode::name"), so
// that a diagnostic can name a field.
#define RELAXC_FIELDS(...)                                                          \
  static constexpr auto reflect_fields() { return std::make_tuple(__VA_ARGS__); } \
  static constexpr const char* reflect_field_names() { return #__VA_ARGS__; }

}  // namespace relaxc
