// Tests of the compute builder (ir/tir/compute.h): the functions it builds, run by the
// TensorIR interpreter against loops written here; their structure (iterator kinds,
// init, regions, parameters, fresh variables); and that they print and parse back.
#include "ir/tir/compute.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ir/module.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::tir {
namespace {

using testing::HostArray;

const DataType kF32 = DataType::Float(32);
const DataType kI64 = DataType::Int(64);

PrimExpr c64(int64_t v) { return int_imm(kI64, v); }

// Softmax over the rows of an (n, m) input: a max reduction, an exp, a sum reduction
// and a division, the intermediates in the root block.
ComputeBuilder::Result row_softmax(const Var& n, const Var& m) {
  ComputeBuilder b;
  Tensor x = b.input("x", {n, m}, kF32);
  Tensor row_max = b.reduce("row_max", {n}, kF32, ReduceKind::Max, {m},
                            [&](const std::vector<Var>& i, const std::vector<Var>& r) {
                              return x({i[0], r[0]});
                            });
  Tensor e = b.compute("e", {n, m}, kF32, [&](const std::vector<Var>& i) {
    return call(kF32, "tir.exp", {x(i) - row_max({i[0]})});
  });
  Tensor sum = b.reduce("row_sum", {n}, kF32, ReduceKind::Sum, {m},
                        [&](const std::vector<Var>& i, const std::vector<Var>& r) {
                          return e({i[0], r[0]});
                        });
  Tensor out = b.compute("softmax", {n, m}, kF32,
                         [&](const std::vector<Var>& i) { return truncdiv(e(i), sum({i[0]})); });
  return b.build({out}, OpPattern::CommReduce);
}

TEST(ComputeBuilder, SoftmaxStagesRunAsTheReference) {
  ComputeBuilder::Result built = row_softmax(var("n"), var("m"));
  EXPECT_TRUE(built.scalar_params.empty());
  for (auto [n, m] : {std::pair<int64_t, int64_t>{1, 1}, {3, 7}, {5, 300}}) {
    HostArray x = testing::random_array(kF32, {n, m}, 11, -3.0, 3.0);
    HostArray out = testing::zeros(kF32, {n, m});
    testing::interpret(built.func, {&x, &out});
    for (int64_t i = 0; i < n; ++i) {
      double most = -INFINITY, total = 0;
      for (int64_t j = 0; j < m; ++j) most = std::max(most, x.data[i * m + j]);
      for (int64_t j = 0; j < m; ++j) total += std::exp(x.data[i * m + j] - most);
      for (int64_t j = 0; j < m; ++j) {
        EXPECT_NEAR(out.data[i * m + j], std::exp(x.data[i * m + j] - most) / total, 1e-6)
            << "n=" << n << " m=" << m << " at " << i << "," << j;
      }
    }
  }
}

TEST(ComputeBuilder, ReductionBlocksHaveInitAndReduceIterators) {
  ComputeBuilder::Result built = row_softmax(var("n"), var("m"));
  const auto& root = *built.func->body.as<BlockRealizeNode>()->block;
  ASSERT_EQ(root.name, "root");
  // x and softmax are parameters; row_max, e and row_sum belong to the root block.
  ASSERT_EQ(root.alloc_buffers.size(), 3u);
  EXPECT_EQ(root.alloc_buffers[0]->name, "row_max");
  std::vector<const BlockNode*> blocks;
  post_order_visit(root.body, [&](const Ref<Object>& node) {
    if (const auto* block = node.as<BlockNode>()) blocks.push_back(block);
  });
  ASSERT_EQ(blocks.size(), 4u);
  const BlockNode& max_block = *blocks[0];
  EXPECT_EQ(max_block.name, "row_max");
  ASSERT_EQ(max_block.iter_vars.size(), 2u);
  EXPECT_EQ(max_block.iter_vars[0]->kind, IterKind::Spatial);
  EXPECT_EQ(max_block.iter_vars[1]->kind, IterKind::Reduce);
  ASSERT_TRUE(max_block.init.defined());
  // The init stores the least float32, the identity of max.
  const auto* init = max_block.init.as<BufferStoreNode>();
  ASSERT_NE(init, nullptr);
  EXPECT_TRUE(structural_equal(init->value, min_value(kF32)));
  // A reduction does not list the buffer it accumulates into among its reads.
  ASSERT_EQ(max_block.reads.size(), 1u);
  EXPECT_EQ(max_block.reads[0]->buffer->name, "x");
  EXPECT_FALSE(blocks[1]->init.defined());
  const AttrValue* pattern = built.func->attrs.find("op_pattern");
  ASSERT_NE(pattern, nullptr);
  EXPECT_EQ(pattern->i, static_cast<int>(OpPattern::CommReduce));
}

// The function owns its variables: two builds over different shape variables are
// structurally equal and share no variable with the caller.
TEST(ComputeBuilder, FunctionsHaveFreshVariables) {
  Var n = var("n"), m = var("m"), rows = var("rows"), cols = var("cols");
  ComputeBuilder::Result a = row_softmax(n, m);
  ComputeBuilder::Result b = row_softmax(rows, cols);
  EXPECT_TRUE(structural_equal(a.func, b.func));
  EXPECT_FALSE(uses_any_var(a.func->body, {n.get(), m.get()}));
  for (const auto& [param, buffer] : a.func->buffer_map) {
    for (const PrimExpr& d : buffer->shape) {
      EXPECT_FALSE(d.same_as(n) || d.same_as(m)) << buffer->name;
    }
  }
}

// A shape variable that no parameter buffer's dimension is becomes a scalar parameter:
// here the output's length is n * 2 and the body adds the scalar s.
TEST(ComputeBuilder, UnboundVariablesBecomeScalarParameters) {
  Var n = var("n"), s = var("s", DataType::Int(32));
  ComputeBuilder b;
  Tensor x = b.input("x", {n * 2}, DataType::Int(32));
  Tensor y = b.compute("y", {n * 2}, DataType::Int(32),
                       [&](const std::vector<Var>& i) { return x(i) + s; });
  ComputeBuilder::Result built = b.build({y}, OpPattern::ElemWise);
  ASSERT_EQ(built.scalar_params.size(), 2u);
  EXPECT_TRUE(built.scalar_params[0].same_as(n));
  EXPECT_TRUE(built.scalar_params[1].same_as(s));
  ASSERT_EQ(built.func->params.size(), 4u);  // x, y, n, s
  EXPECT_EQ(built.func->params[2]->name, "n");
  EXPECT_EQ(built.func->params[3]->dtype, DataType::Int(32));

  HostArray xs = testing::random_array(DataType::Int(32), {6}, 3, -100, 100);
  HostArray ys = testing::zeros(DataType::Int(32), {6});
  testing::interpret(built.func, {&xs, &ys}, {{"n", 3}, {"s", 5}});
  for (int64_t i = 0; i < 6; ++i) EXPECT_EQ(ys.data[i], xs.data[i] + 5) << i;
}

// A padded read (load_if) lists the region cut to the buffer, and reads nothing outside.
TEST(ComputeBuilder, GuardedReadsStayInsideTheBuffer) {
  Var n = var("n");
  ComputeBuilder b;
  Tensor x = b.input("x", {n}, kF32);
  // A 3-tap box filter with zero padding: y[i] = x[i - 1] + x[i] + x[i + 1].
  Tensor y = b.reduce("y", {n}, kF32, ReduceKind::Sum, {c64(3)},
                      [&](const std::vector<Var>& i, const std::vector<Var>& r) {
                        PrimExpr at = i[0] + r[0] - 1;
                        return load_if(logical_and(ge(at, c64(0)), lt(at, n)), x, {at},
                                       make_const(kF32, 0));
                      });
  ComputeBuilder::Result built = b.build({y}, OpPattern::OutEWiseFusable);
  for (int64_t len : {1, 2, 9}) {
    HostArray xs = testing::random_array(kF32, {len}, 5);
    HostArray ys = testing::zeros(kF32, {len});
    testing::interpret(built.func, {&xs, &ys});  // throws on an out-of-bounds read
    for (int64_t i = 0; i < len; ++i) {
      double expected =
          xs.data[i] + (i > 0 ? xs.data[i - 1] : 0) + (i + 1 < len ? xs.data[i + 1] : 0);
      EXPECT_NEAR(ys.data[i], expected, 1e-6) << "n=" << len << " i=" << i;
    }
  }
  std::string printed = text::print_node(built.func);
  // x[max(i + r - 1, 0) : min(i + r, n)], as the simplifier writes it.
  EXPECT_NE(printed.find("T.reads(x[T.max(T.int64(1), v_ax0 + v_k0) - T.int64(1):T.max(T.int64(1), "
                         "v_ax0 + v_k0) - T.int64(1) + (T.min(n, v_ax0 + v_k0) - "
                         "T.max(T.int64(1), v_ax0 + v_k0) + T.int64(1))])"),
            std::string::npos)
      << printed;
}

// The printed function parses back to an equal one.
TEST(ComputeBuilder, PrintedFunctionsParseBackEqual) {
  ComputeBuilder::Result built = row_softmax(var("n"), var("m"));
  relax::GlobalVar gv = relax::make_global_var("softmax");
  IRModule module = make_module({{gv, built.func}});
  std::string text = text::print_module(module);
  IRModule parsed = text::parse_module(text, "softmax.py");
  auto mismatch = structural_mismatch(module, parsed);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n" << text;
}

}  // namespace
}  // namespace relaxc::tir
