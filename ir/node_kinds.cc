// Names of node kinds, for internal error messages.
#include "ir/node_kinds.h"

namespace relaxc {

const char* node_kind_name(NodeKind kind) {
  switch (kind) {
#define RELAXC_KIND_NAME(Kind, Type) \
  case NodeKind::Kind:               \
    return #Kind;
    RELAXC_ALL_NODES(RELAXC_KIND_NAME)
#undef RELAXC_KIND_NAME
    default: return "<marker>";
  }
}

}  // namespace relaxc
