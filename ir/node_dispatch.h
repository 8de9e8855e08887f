// Kind dispatch over every node type, Relax and TensorIR, generated from the X-macro
// list; with the field reflection of node_reflection.h.
#pragma once

#include "ir/module.h"
#include "ir/node_reflection.h"

namespace relaxc {

// Calls f(static_cast<const T*>(node)) with T the concrete type of `node`.
template <typename F>
decltype(auto) dispatch(const Object* node, F&& f) {
  switch (node->kind()) {
#define RELAXC_DISPATCH_CASE(Kind, Type) \
  case NodeKind::Kind:                   \
    return f(static_cast<const Type*>(node));
    RELAXC_ALL_NODES(RELAXC_DISPATCH_CASE)
#undef RELAXC_DISPATCH_CASE
    default: break;
  }
  RELAXC_UNREACHABLE() << "bad node kind " << static_cast<int>(node->kind());
}

}  // namespace relaxc
