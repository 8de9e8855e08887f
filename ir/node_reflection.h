// Field reflection over IR nodes: what generic algorithms (equality, hashing, child
// visits, mutators) use to walk a node's fields. Needs only the node types being walked,
// so TensorIR code includes it without the Relax IR.
#pragma once

#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "ir/support/object.h"

namespace relaxc {

// Calls f(field) for each declared field of `node` (RELAXC_FIELDS order).
template <typename T, typename F>
void for_each_field(const T* node, F&& f) {
  std::apply([&](auto... member) { (f(node->*member), ...); }, T::reflect_fields());
}

// Calls f(field_a, field_b) pairwise over the fields of two nodes of one type, in
// order, stopping at the first call that returns false; returns whether all did.
template <typename T, typename F>
bool all_fields(const T* a, const T* b, F&& f) {
  return std::apply([&](auto... member) { return (f(a->*member, b->*member) && ...); },
                    T::reflect_fields());
}

// The shapes a field type takes, for generic walkers that descend through containers.
template <typename T>
inline constexpr bool kIsRefField = false;
template <typename T>
inline constexpr bool kIsRefField<Ref<T>> = true;
template <typename T>
inline constexpr bool kIsVectorField = false;
template <typename T, typename A>
inline constexpr bool kIsVectorField<std::vector<T, A>> = true;
template <typename T>
inline constexpr bool kIsOptionalField = false;
template <typename T>
inline constexpr bool kIsOptionalField<std::optional<T>> = true;
template <typename T>
inline constexpr bool kIsPairField = false;
template <typename A, typename B>
inline constexpr bool kIsPairField<std::pair<A, B>> = true;

// Calls f(ref) for every Ref<T> held in `field` (typed as declared), through vectors,
// optionals and pairs, in order. Null Refs are passed too.
template <typename Field, typename F>
void for_each_ref(const Field& field, F&& f) {
  if constexpr (kIsRefField<Field>) {
    f(field);
  } else if constexpr (kIsVectorField<Field>) {
    for (const auto& element : field) for_each_ref(element, f);
  } else if constexpr (kIsOptionalField<Field>) {
    if (field.has_value()) for_each_ref(*field, f);
  } else if constexpr (kIsPairField<Field>) {
    for_each_ref(field.first, f);
    for_each_ref(field.second, f);
  }
}

}  // namespace relaxc
