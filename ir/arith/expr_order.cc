// The structural total order on expressions used to sort canonical terms.
//
// Two expressions are compared by their preorder serializations: node-local keys
// (kind, type, immediate values, names, arities) first, then children left to right.
// The walk keeps its own stack so that long chains cannot exhaust the call stack.
#include <bit>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ir/arith/analysis_context.h"
#include "ir/tir/stmt.h"

namespace relaxc::arith {

namespace {

using tir::PrimExprNode;

template <typename T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_dtype(DataType a, DataType b) {
  if (int c = three_way(static_cast<int>(a.code()), static_cast<int>(b.code()))) return c;
  if (int c = three_way(a.bits(), b.bits())) return c;
  return three_way(a.lanes(), b.lanes());
}

// Distinct variables (or buffers) sort by name, then by identity.
template <typename T>
int compare_named(const T* a, const T* b) {
  if (a == b) return 0;
  if (int c = a->name.compare(b->name)) return c < 0 ? -1 : 1;
  return three_way(static_cast<const void*>(a), static_cast<const void*>(b));
}

// Compares the node-local parts of two nodes of one kind and collects their child
// pairs in order.
class LocalCompare {
 public:
  explicit LocalCompare(std::vector<std::pair<const PrimExprNode*, const PrimExprNode*>>& children)
      : children_(children) {}

  template <typename T>
  int operator()(const T* a, const T* b) {
    if constexpr (std::is_same_v<T, tir::VarNode>) {
      if (int c = compare_dtype(a->dtype, b->dtype)) return c;
      return compare_named(a, b);
    } else {
      int result = 0;
      std::apply(
          [&](auto... member) {
            ((result = result != 0 ? result : field(a->*member, b->*member)), ...);
          },
          T::reflect_fields());
      return result;
    }
  }

 private:
  int field(const DataType& a, const DataType& b) { return compare_dtype(a, b); }
  int field(const std::string& a, const std::string& b) {
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int field(int64_t a, int64_t b) { return three_way(a, b); }
  int field(int a, int b) { return three_way(a, b); }
  int field(bool a, bool b) { return three_way(a, b); }
  int field(double a, double b) {
    return three_way(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b));
  }
  int field(const tir::Buffer& a, const tir::Buffer& b) { return compare_named(a.get(), b.get()); }
  template <typename T>
  int field(const Ref<T>& a, const Ref<T>& b) {
    static_assert(std::is_base_of_v<PrimExprNode, T>);
    children_.emplace_back(a.get(), b.get());
    return 0;
  }
  int field(const std::vector<tir::PrimExpr>& a, const std::vector<tir::PrimExpr>& b) {
    if (int c = three_way(a.size(), b.size())) return c;
    for (size_t i = 0; i < a.size(); ++i) children_.emplace_back(a[i].get(), b[i].get());
    return 0;
  }

  std::vector<std::pair<const PrimExprNode*, const PrimExprNode*>>& children_;
};

int compare_local(const PrimExprNode* a, const PrimExprNode* b,
                  std::vector<std::pair<const PrimExprNode*, const PrimExprNode*>>& children) {
  LocalCompare local(children);
  switch (a->kind()) {
#define RELAXC_ORDER_CASE(Kind, Type) \
  case NodeKind::Kind:                \
    return local(static_cast<const Type*>(a), static_cast<const Type*>(b));
    RELAXC_TIR_EXPR_NODES(RELAXC_ORDER_CASE)
#undef RELAXC_ORDER_CASE
    default:
      break;
  }
  RELAXC_UNREACHABLE() << "not an expression kind: " << node_kind_name(a->kind());
}

}  // namespace

int ExprOrder::compare(const tir::PrimExpr& a, const tir::PrimExpr& b) {
  std::vector<std::pair<const PrimExprNode*, const PrimExprNode*>> pending{{a.get(), b.get()}};
  std::vector<std::pair<const PrimExprNode*, const PrimExprNode*>> children;
  while (!pending.empty()) {
    auto [x, y] = pending.back();
    pending.pop_back();
    if (x == y) continue;
    budget_.step();
    if (x == nullptr || y == nullptr) return x == nullptr ? -1 : 1;
    if (int c = three_way(x->kind(), y->kind())) return c;
    children.clear();
    if (int c = compare_local(x, y, children)) return c;
    pending.insert(pending.end(), children.rbegin(), children.rend());
  }
  return 0;
}

}  // namespace relaxc::arith
