// Smoke test of node construction and dispatch.
#include <gtest/gtest.h>

#include "ir/node_dispatch.h"

namespace relaxc {
namespace {

TEST(Nodes, ConstructAndDispatch) {
  tir::Var n = tir::size_var("n");
  tir::PrimExpr e = n * 4 + 1;
  const auto* add = e.as<tir::AddNode>();
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->b.is<tir::IntImmNode>());
  EXPECT_EQ(e->dtype, DataType::Int(64));
  NodeKind k = dispatch(e.get(), [](auto* node) { return node->kKind; });
  EXPECT_EQ(k, NodeKind::TirAdd);
  int fields = 0;
  for_each_field(add, [&](const auto&) { ++fields; });
  EXPECT_EQ(fields, 3);
}

}  // namespace
}  // namespace relaxc
