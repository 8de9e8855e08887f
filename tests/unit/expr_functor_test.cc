// Tests of the value-returning TensorIR functors: dispatch by kind, extra arguments,
// the visit_default fallback, and the internal error of a missing case.
#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

#include "ir/tir/expr_functor.h"

namespace relaxc::tir {
namespace {

using Environment = std::unordered_map<const VarNode*, int64_t>;

// Evaluates integer expressions of +, * and floordiv over variables bound in `env`.
class Evaluator final : public ExprFunctor<int64_t(const Environment&)> {
 private:
  int64_t visit_TirIntImm(const IntImmNode* node, const Environment&) override {
    return node->value;
  }
  int64_t visit_TirVar(const VarNode* node, const Environment& env) override {
    return env.at(node);
  }
  int64_t visit_TirAdd(const AddNode* node, const Environment& env) override {
    return visit_expr(node->a, env) + visit_expr(node->b, env);
  }
  int64_t visit_TirMul(const MulNode* node, const Environment& env) override {
    return visit_expr(node->a, env) * visit_expr(node->b, env);
  }
  int64_t visit_TirFloorDiv(const FloorDivNode* node, const Environment& env) override {
    int64_t a = visit_expr(node->a, env), b = visit_expr(node->b, env);
    return a / b - (a % b != 0 && (a < 0) != (b < 0) ? 1 : 0);
  }
};

TEST(ExprFunctor, DispatchesEachKindWithItsArguments) {
  Var x = var("x"), y = var("y");
  PrimExpr e = (x + 3) * floordiv(y, int_imm(DataType::Int(64), 2));
  Evaluator evaluate;
  // (4 + 3) * floor(9 / 2) = 7 * 4, and (-5 + 3) * floor(-9 / 2) = -2 * -5.
  EXPECT_EQ(evaluate.visit_expr(e, {{x.get(), 4}, {y.get(), 9}}), 28);
  EXPECT_EQ(evaluate.visit_expr(e, {{x.get(), -5}, {y.get(), -9}}), 10);
}

TEST(ExprFunctor, MissingCaseIsAnInternalError) {
  Var x = var("x");
  Evaluator evaluate;
  try {
    evaluate.visit_expr(x - 1, {{x.get(), 1}});
    FAIL() << "expected an InternalError";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.message(), "this expression functor has no case for TirSub");
  }
}

// Names sums and leaves every other kind to visit_default.
class SumNamer final : public ExprFunctor<std::string()> {
 private:
  std::string visit_TirAdd(const AddNode*) override { return "a sum"; }
  std::string visit_default(const PrimExprNode* node) override {
    return node_kind_name(node->kind());
  }
};

TEST(ExprFunctor, UnhandledKindsGoToVisitDefault) {
  Var x = var("x"), y = var("y");
  SumNamer namer;
  EXPECT_EQ(namer.visit_expr(x + y), "a sum");
  EXPECT_EQ(namer.visit_expr(x * y), "TirMul");
  EXPECT_EQ(namer.visit_expr(x), "TirVar");
}

// Sums the nesting depth of each Evaluate: the depth is an argument, one more inside
// each branch of an IfThenElse.
class EvaluateDepths final : public StmtFunctor<int(int)> {
 private:
  int visit_TirEvaluate(const EvaluateNode*, int depth) override { return depth; }
  int visit_TirSeqStmt(const SeqStmtNode* node, int depth) override {
    int total = 0;
    for (const Stmt& s : node->seq) total += visit_stmt(s, depth);
    return total;
  }
  int visit_TirIfThenElse(const IfThenElseNode* node, int depth) override {
    int total = visit_stmt(node->then_case, depth + 1);
    if (node->else_case.defined()) total += visit_stmt(node->else_case, depth + 1);
    return total;
  }
};

TEST(StmtFunctor, DispatchesEachKindWithItsArguments) {
  Var c = var("c");
  PrimExpr one = int_imm(DataType::Int(64), 1);
  Stmt body = seq_stmt({evaluate(one), if_then_else(c, seq_stmt({evaluate(one), evaluate(one)}),
                                                    evaluate(one))});
  // Depth 1 at the top, 2 for each of the three Evaluates under the If.
  EXPECT_EQ(EvaluateDepths().visit_stmt(body, 1), 1 + 2 + 2 + 2);
}

TEST(StmtFunctor, MissingCaseIsAnInternalError) {
  Var i = var("i");
  Stmt loop = for_loop(i, int_imm(DataType::Int(64), 0), int_imm(DataType::Int(64), 4),
                       ForKind::Serial, evaluate(i));
  try {
    EvaluateDepths().visit_stmt(loop, 0);
    FAIL() << "expected an InternalError";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.message(), "this statement functor has no case for TirFor");
  }
}

}  // namespace
}  // namespace relaxc::tir
