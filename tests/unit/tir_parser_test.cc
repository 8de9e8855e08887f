// Tests of the parser's TensorIR builder: the IR built from @T.prim_func text (loops,
// blocks and their headers, buffers, literal types, statements), and its diagnostics.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "tests/support/errors.h"

namespace relaxc {
namespace {

tir::PrimFunc parse_func(const std::string& source, const std::string& name) {
  IRModule m = text::parse_module(source, "tir.py");
  tir::PrimFunc f = m->prim_func(name);
  EXPECT_TRUE(f.defined()) << "no PrimFunc " << name;
  return f;
}

std::string error_of(const std::string& source) {
  return located_error_of([&] { text::parse_module(source, "tir.py"); });
}

// The statements of `s` (one, or the items of a SeqStmt).
std::vector<tir::Stmt> stmts(const tir::Stmt& s) {
  if (const auto* seq = s.as<tir::SeqStmtNode>()) return seq->seq;
  return {s};
}

const tir::BlockNode* root_block(const tir::PrimFunc& f) {
  const auto* realize = f->body.as<tir::BlockRealizeNode>();
  EXPECT_NE(realize, nullptr) << "the body is not the root block";
  return realize != nullptr ? realize->block.get() : nullptr;
}

int64_t const_value(const tir::PrimExpr& e) {
  const int64_t* v = tir::as_const_int(e);
  EXPECT_NE(v, nullptr) << "not a constant";
  return v != nullptr ? *v : -1;
}

// A module holding one PrimFunc with the given parameters and body (body lines are
// indented by 8 spaces; the first is line 5).
std::string prim_module(const std::string& params, const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(" + params + "):\n" + body;
}

constexpr const char* kMatmul = R"(@I.ir_module
class Module:
    @T.prim_func
    def matmul(A: T.Buffer((128, 64), "float32"), B: T.Buffer((64, 32), "float32"), C: T.Buffer((128, 32), "float32")):
        T.func_attr({"tir.noalias": True})
        for i, j, k in T.grid(128, 32, 64):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";

TEST(TirParser, MatmulLoopsAndBlock) {
  tir::PrimFunc f = parse_func(kMatmul, "matmul");
  ASSERT_EQ(f->params.size(), 3u);
  ASSERT_EQ(f->buffer_map.size(), 3u);
  const tir::Buffer& a = f->buffer_map[0].second;
  EXPECT_TRUE(f->buffer_map[0].first.same_as(f->params[0]));
  EXPECT_TRUE(f->params[0]->dtype.is_handle());
  EXPECT_EQ(a->name, "A");
  EXPECT_EQ(a->dtype, DataType::Float(32));
  ASSERT_EQ(a->shape.size(), 2u);
  EXPECT_EQ(const_value(a->shape[0]), 128);
  EXPECT_EQ(a->shape[0]->dtype, DataType::Int(32));
  // Attributes are sorted; a public function gets its global_symbol.
  ASSERT_EQ(f->attrs.entries().size(), 2u);
  EXPECT_EQ(f->attrs.entries()[0].first, "global_symbol");
  EXPECT_EQ(f->attrs.entries()[0].second.s, "matmul");
  EXPECT_EQ(f->attrs.entries()[1].first, "tir.noalias");
  EXPECT_TRUE(f->attrs.entries()[1].second.b);

  // The implicit root block holds the loop nest.
  const tir::BlockNode* root = root_block(f);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->name, "root");
  EXPECT_TRUE(root->iter_vars.empty());
  std::vector<const tir::ForNode*> loops;
  tir::Stmt s = root->body;
  while (const auto* loop = s.as<tir::ForNode>()) {
    loops.push_back(loop);
    s = loop->body;
  }
  ASSERT_EQ(loops.size(), 3u);
  const int64_t extents[] = {128, 32, 64};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(loops[i]->kind, tir::ForKind::Serial);
    EXPECT_EQ(const_value(loops[i]->min), 0);
    EXPECT_EQ(const_value(loops[i]->extent), extents[i]);
    EXPECT_EQ(loops[i]->loop_var->dtype, DataType::Int(32));
  }
  EXPECT_EQ(loops[0]->loop_var->name, "i");

  const auto* realize = s.as<tir::BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  EXPECT_TRUE(tir::is_const_int(realize->predicate, 1));
  const tir::BlockNode& block = *realize->block;
  EXPECT_EQ(block.name, "C");
  ASSERT_EQ(block.iter_vars.size(), 3u);
  const tir::IterKind kinds[] = {tir::IterKind::Spatial, tir::IterKind::Spatial,
                                 tir::IterKind::Reduce};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(block.iter_vars[i]->kind, kinds[i]);
    EXPECT_EQ(const_value(block.iter_vars[i]->dom->min), 0);
    EXPECT_EQ(const_value(block.iter_vars[i]->dom->extent), extents[i]);
    EXPECT_TRUE(realize->iter_values[i].same_as(loops[i]->loop_var));
  }
  EXPECT_EQ(block.iter_vars[2]->var->name, "vk");
  // T.reads(A[vi, vk], ...): point regions of extent 1 at the block variables.
  ASSERT_EQ(block.reads.size(), 2u);
  EXPECT_EQ(block.reads[0]->buffer, a);
  ASSERT_EQ(block.reads[0]->region.size(), 2u);
  EXPECT_TRUE(block.reads[0]->region[0]->min.same_as(block.iter_vars[0]->var));
  EXPECT_TRUE(block.reads[0]->region[1]->min.same_as(block.iter_vars[2]->var));
  EXPECT_EQ(const_value(block.reads[0]->region[1]->extent), 1);
  ASSERT_EQ(block.writes.size(), 1u);
  EXPECT_EQ(block.writes[0]->buffer->name, "C");
  // T.init() and the update.
  const auto* init = block.init.as<tir::BufferStoreNode>();
  ASSERT_NE(init, nullptr);
  const auto* zero = init->value.as<tir::FloatImmNode>();
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->dtype, DataType::Float(32));
  EXPECT_EQ(zero->value, 0.0);
  const auto* update = block.body.as<tir::BufferStoreNode>();
  ASSERT_NE(update, nullptr);
  const auto* sum = update->value.as<tir::AddNode>();
  ASSERT_NE(sum, nullptr);
  EXPECT_TRUE(sum->a.is<tir::BufferLoadNode>());
  EXPECT_TRUE(sum->b.is<tir::MulNode>());
}

TEST(TirParser, SymbolicShapesThroughMatchBuffer) {
  tir::PrimFunc f = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_bias(var_x: T.handle, var_b: T.handle, var_y: T.handle):
        n = T.int64()
        m = T.int64(is_size_var=True)
        x = T.match_buffer(var_x, (n, m))
        b = T.match_buffer(var_b, (m,), "float16", scope="global")
        y = T.match_buffer(var_y, (n, m))
        for i, j in T.grid(n, m):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj] + T.Cast("float32", b[vj])
)",
                               "add_bias");
  EXPECT_EQ(f->attrs.find("global_symbol"), nullptr);  // private
  ASSERT_EQ(f->buffer_map.size(), 3u);
  const tir::Buffer& x = f->buffer_map[0].second;
  const tir::Buffer& b = f->buffer_map[1].second;
  const tir::Buffer& y = f->buffer_map[2].second;
  EXPECT_TRUE(f->buffer_map[1].first.same_as(f->params[1]));
  ASSERT_EQ(x->shape.size(), 2u);
  const auto* n = x->shape[0].as<tir::VarNode>();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->name, "n");
  EXPECT_EQ(n->dtype, DataType::Int(64));
  EXPECT_FALSE(n->is_size_var);
  EXPECT_TRUE(x->shape[1].as<tir::VarNode>()->is_size_var);
  // One variable per name: y's and b's dimensions are the very same variables.
  EXPECT_TRUE(y->shape[0].same_as(x->shape[0]));
  EXPECT_TRUE(b->shape[0].same_as(x->shape[1]));
  EXPECT_EQ(x->dtype, DataType::Float(32));  // the default
  EXPECT_EQ(b->dtype, DataType::Float(16));
  const auto* loop = root_block(f)->body.as<tir::ForNode>();
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(loop->extent.same_as(x->shape[0]));
  EXPECT_EQ(loop->loop_var->dtype, DataType::Int(64));
  const auto* inner = loop->body.as<tir::ForNode>();
  ASSERT_NE(inner, nullptr);
  const auto* block = inner->body.as<tir::BlockRealizeNode>()->block.get();
  EXPECT_EQ(block->iter_vars[0]->var->dtype, DataType::Int(64));
  EXPECT_TRUE(block->iter_vars[1]->dom->extent.same_as(x->shape[1]));
  EXPECT_TRUE(tir::is_const_int(block->iter_vars[1]->dom->min, 0));
  EXPECT_EQ(block->iter_vars[1]->dom->min->dtype, DataType::Int(64));
}

// Found by tests/fuzz/fuzz_parser: match_buffers written out of the parameters' order
// (here `y` before `w`, whose constant shape the printer moves into the signature) read
// back with the buffer_map in another order ("functions[0].buffer_map[0]: TirVar 'x' vs
// TirVar 'W'"). The buffer_map follows the parameters.
TEST(TirParser, BufferMapFollowsTheParameters) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(x: T.handle, w: T.handle, y: T.handle):
        n = T.int64()
        Y = T.match_buffer(y, (n, 32))
        X = T.match_buffer(x, (n, 16))
        W = T.match_buffer(w, (16, 32))
        for i, j in T.grid(n, 32):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, 0] * W[0, vj]
)",
                                  "tir.py");
  tir::PrimFunc f = m->prim_func("f");
  ASSERT_EQ(f->buffer_map.size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(f->buffer_map[i].first.same_as(f->params[i]));
  std::string printed = text::print_module(m);
  EXPECT_NE(printed.find("def f(x: T.handle, W: T.Buffer((16, 32)), y: T.handle)"),
            std::string::npos)
      << printed;
  EXPECT_EQ(structural_mismatch(m, text::parse_module(printed, "printed.py")), std::nullopt);
}

// Found by fuzz_parser: a region sliced from 0 to a variable printed as `0:0 + vj`,
// which reads back with the extent `0 + vj`.
TEST(TirParser, RegionFromZeroReadsBackEqual) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(C: T.Buffer((128, 32), "float32")):
        for i, j in T.grid(128, 32):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads()
                T.writes(C[vi, :vj])
                C[vi, vj] = T.float32(0)
)",
                                  "tir.py");
  std::string printed = text::print_module(m);
  EXPECT_NE(printed.find("T.writes(C[vi, 0:vj])"), std::string::npos) << printed;
  EXPECT_EQ(structural_mismatch(m, text::parse_module(printed, "printed.py")), std::nullopt);
}

TEST(TirParser, LoopKindsAndBounds) {
  tir::PrimFunc f = parse_func(prim_module("A: T.Buffer((64,), \"float32\"), n: T.int32",
                                           R"(        for i in T.serial(2, n):
            A[i] = T.float32(1)
        for i in T.parallel(16):
            A[i] = T.float32(2)
        for i in T.vectorized(4):
            A[i] = T.float32(3)
        for i in T.unroll(4):
            A[i] = T.float32(4)
        for i in T.thread_binding(32, thread="threadIdx.x"):
            A[i] = T.float32(5)
        for i in range(2, 10):
            A[i] = T.float32(6)
        for i in T.serial(8, annotations={"pragma_unroll": 1}):
            A[i] = T.float32(7)
)"),
                               "f");
  ASSERT_EQ(f->params.size(), 2u);
  EXPECT_EQ(f->params[1]->dtype, DataType::Int(32));
  EXPECT_EQ(f->buffer_map.size(), 1u);
  std::vector<tir::Stmt> body = stmts(f->body);  // no blocks: no root block
  ASSERT_EQ(body.size(), 7u);
  std::vector<const tir::ForNode*> loops;
  for (const tir::Stmt& s : body) loops.push_back(s.as<tir::ForNode>());
  for (const tir::ForNode* loop : loops) ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loops[0]->kind, tir::ForKind::Serial);
  EXPECT_EQ(loops[1]->kind, tir::ForKind::Parallel);
  EXPECT_EQ(loops[2]->kind, tir::ForKind::Vectorized);
  EXPECT_EQ(loops[3]->kind, tir::ForKind::Unrolled);
  EXPECT_EQ(loops[4]->kind, tir::ForKind::ThreadBinding);
  EXPECT_EQ(loops[4]->thread_tag, "threadIdx.x");
  // T.serial(2, n) runs from 2 for n - 2 iterations.
  EXPECT_EQ(const_value(loops[0]->min), 2);
  arith::Analyzer analyzer;
  tir::PrimExpr n = f->params[1];
  EXPECT_TRUE(analyzer.can_prove_equal(loops[0]->extent, n - 2));
  EXPECT_EQ(const_value(loops[5]->min), 2);
  EXPECT_EQ(const_value(loops[5]->extent), 8);
  EXPECT_EQ(const_value(loops[1]->extent), 16);
  ASSERT_NE(loops[6]->annotations.find("pragma_unroll"), nullptr);
  EXPECT_EQ(loops[6]->annotations.find("pragma_unroll")->i, 1);
  // Each loop has its own variable, though all are named i.
  EXPECT_FALSE(loops[0]->loop_var.same_as(loops[1]->loop_var));
  const auto* store = loops[0]->body.as<tir::BufferStoreNode>();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->indices[0].same_as(loops[0]->loop_var));
}

TEST(TirParser, StatementsOutsideBlocks) {
  tir::PrimFunc f = parse_func(prim_module("B: T.Buffer((8,), \"int32\"), n: T.int32",
                                           R"(        k: T.int32 = n * 2
        counter = T.alloc_buffer((1,), "int32", scope="local")
        counter[0] = 0
        while counter[0] < k:
            counter[0] = counter[0] + 1
        if n > 3:
            B[0] = 1
        else:
            B[0] = 2
        T.evaluate(T.call_extern("int32", "debug_print", B[0]))
)"),
                               "f");
  // k: T.int32 = ... is a LetStmt over everything after it; the allocation outside any
  // block is an Allocate over what follows it.
  const auto* let = f->body.as<tir::LetStmtNode>();
  ASSERT_NE(let, nullptr);
  EXPECT_EQ(let->var->name, "k");
  EXPECT_EQ(let->var->dtype, DataType::Int(32));
  EXPECT_TRUE(let->value.is<tir::MulNode>());
  const auto* alloc = let->body.as<tir::AllocateNode>();
  ASSERT_NE(alloc, nullptr);
  EXPECT_EQ(alloc->buffer->name, "counter");
  EXPECT_EQ(alloc->buffer->scope, "local");
  EXPECT_EQ(alloc->buffer->dtype, DataType::Int(32));
  std::vector<tir::Stmt> rest = stmts(alloc->body);
  ASSERT_EQ(rest.size(), 4u);
  EXPECT_TRUE(rest[0].is<tir::BufferStoreNode>());
  const auto* loop = rest[1].as<tir::WhileNode>();
  ASSERT_NE(loop, nullptr);
  const auto* cond = loop->condition.as<tir::LTNode>();
  ASSERT_NE(cond, nullptr);
  EXPECT_TRUE(cond->b.same_as(let->var));
  const auto* branch = rest[2].as<tir::IfThenElseNode>();
  ASSERT_NE(branch, nullptr);
  EXPECT_TRUE(branch->else_case.is<tir::BufferStoreNode>());
  const auto* eval = rest[3].as<tir::EvaluateNode>();
  ASSERT_NE(eval, nullptr);
  const auto* call = eval->value.as<tir::CallNode>();
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->op, "tir.call_extern");
  EXPECT_EQ(call->dtype, DataType::Int(32));
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_EQ(call->args[0].as<tir::StringImmNode>()->value, "debug_print");
  EXPECT_TRUE(call->args[1].is<tir::BufferLoadNode>());
}

TEST(TirParser, ExpressionsAndLiteralTypes) {
  tir::PrimFunc f =
      parse_func(prim_module("A: T.Buffer((64,), \"float32\"), H: T.Buffer((4,), \"float16\"), "
                             "L: T.Buffer((4,), \"int64\"), n: T.int32",
                             R"(        A[0] = T.Cast("float32", n)
        A[1] = T.Select(n < 2, T.float32(0), A[2])
        A[T.Ramp(4, 1, 4)] = T.Broadcast(T.float32(0), 4)
        L[0] = T.int64(4) + T.Cast("int64", n) // 4 + T.truncdiv(T.int64(7), 2)
        L[1] = 3000000000
        H[0] = 1.5
        A[2] = -A[3]
        A[3] = T.exp(A[4]) + T.if_then_else(not (n > 3) or n != 4, A[5], 2.0)
        A[4] = T.float32("inf")
        A[5] = T.pow(A[6], 2)
        L[2] = T.Cast("int64", n % 3 + T.truncmod(n, 3) + T.min(n, 8) * T.max(n, 2))
)"),
                 "f");
  std::vector<tir::Stmt> body = stmts(f->body);
  ASSERT_EQ(body.size(), 11u);
  auto value = [&](size_t i) { return body[i].as<tir::BufferStoreNode>()->value; };
  EXPECT_TRUE(value(0).is<tir::CastNode>());
  EXPECT_EQ(value(0)->dtype, DataType::Float(32));
  const auto* select = value(1).as<tir::SelectNode>();
  ASSERT_NE(select, nullptr);
  EXPECT_TRUE(select->condition.is<tir::LTNode>());
  EXPECT_EQ(select->condition->dtype, DataType::Bool());
  // A vector store: a Ramp index and a Broadcast value of 4 lanes.
  const auto* vector_store = body[2].as<tir::BufferStoreNode>();
  EXPECT_EQ(vector_store->indices[0]->dtype, DataType::Int(32, 4));
  EXPECT_EQ(vector_store->value->dtype, DataType::Float(32, 4));
  // int64 throughout: the literals 4 and 2 take the type of the other operand.
  const auto* sum = value(3).as<tir::AddNode>();
  ASSERT_NE(sum, nullptr);
  const auto* div = sum->b.as<tir::DivNode>();
  ASSERT_NE(div, nullptr);
  EXPECT_EQ(div->b->dtype, DataType::Int(64));
  const auto* floordiv = sum->a.as<tir::AddNode>()->b.as<tir::FloorDivNode>();
  ASSERT_NE(floordiv, nullptr);
  EXPECT_EQ(floordiv->b->dtype, DataType::Int(64));
  EXPECT_EQ(sum->dtype, DataType::Int(64));
  // A literal too large for int32 is int64.
  const auto* big = value(4).as<tir::IntImmNode>();
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->dtype, DataType::Int(64));
  EXPECT_EQ(big->value, 3000000000);
  // A float literal stored into a float16 buffer is a float16 immediate.
  const auto* half = value(5).as<tir::FloatImmNode>();
  ASSERT_NE(half, nullptr);
  EXPECT_EQ(half->dtype, DataType::Float(16));
  EXPECT_EQ(half->value, 1.5);
  // -x is 0 - x.
  const auto* neg = value(6).as<tir::SubNode>();
  ASSERT_NE(neg, nullptr);
  EXPECT_TRUE(tir::is_const_int(neg->a, 0) || neg->a.as<tir::FloatImmNode>()->value == 0.0);
  const auto* intrinsics = value(7).as<tir::AddNode>();
  ASSERT_NE(intrinsics, nullptr);
  EXPECT_EQ(intrinsics->a.as<tir::CallNode>()->op, "tir.exp");
  const auto* ite = intrinsics->b.as<tir::CallNode>();
  ASSERT_NE(ite, nullptr);
  EXPECT_EQ(ite->op, "tir.if_then_else");
  EXPECT_TRUE(ite->args[0].is<tir::OrNode>());
  EXPECT_TRUE(ite->args[0].as<tir::OrNode>()->a.is<tir::NotNode>());
  EXPECT_EQ(ite->args[2].as<tir::FloatImmNode>()->dtype, DataType::Float(32));
  EXPECT_TRUE(std::isinf(value(8).as<tir::FloatImmNode>()->value));
  const auto* pow = value(9).as<tir::CallNode>();
  ASSERT_NE(pow, nullptr);
  EXPECT_EQ(pow->op, "tir.pow");
  EXPECT_EQ(pow->args[1]->dtype, DataType::Float(32));  // the literal 2 follows A[6]
  const auto* cast = value(10).as<tir::CastNode>();
  ASSERT_NE(cast, nullptr);
  const auto* parts = cast->value.as<tir::AddNode>();
  ASSERT_NE(parts, nullptr);
  EXPECT_TRUE(parts->b.is<tir::MulNode>());
  EXPECT_TRUE(parts->b.as<tir::MulNode>()->a.is<tir::MinNode>());
  EXPECT_TRUE(parts->a.as<tir::AddNode>()->a.is<tir::FloorModNode>());
  EXPECT_TRUE(parts->a.as<tir::AddNode>()->b.is<tir::ModNode>());
}

TEST(TirParser, LogicLetAndTypedLiterals) {
  tir::PrimFunc f = parse_func(prim_module("B: T.Buffer((4,), \"bool\"), n: T.int32",
                                           R"(        B[0] = 0 <= n < 8
        B[1] = T.And(n == 1, T.Or(n >= 2, T.Not(n != 3)))
        B[2] = T.bool(True)
        B[3] = T.Let(t, n * 2, t > 4)
)"),
                               "f");
  std::vector<tir::Stmt> body = stmts(f->body);
  ASSERT_EQ(body.size(), 4u);
  auto value = [&](size_t i) { return body[i].as<tir::BufferStoreNode>()->value; };
  // 0 <= n < 8 is (0 <= n) and (n < 8).
  const auto* chain = value(0).as<tir::AndNode>();
  ASSERT_NE(chain, nullptr);
  EXPECT_TRUE(chain->a.is<tir::LENode>());
  EXPECT_TRUE(chain->b.is<tir::LTNode>());
  EXPECT_TRUE(chain->a.as<tir::LENode>()->b.same_as(f->params[1]));
  const auto* conj = value(1).as<tir::AndNode>();
  ASSERT_NE(conj, nullptr);
  EXPECT_TRUE(conj->a.is<tir::EQNode>());
  const auto* disj = conj->b.as<tir::OrNode>();
  ASSERT_NE(disj, nullptr);
  EXPECT_TRUE(disj->a.is<tir::GENode>());
  EXPECT_TRUE(disj->b.as<tir::NotNode>()->a.is<tir::NENode>());
  const auto* yes = value(2).as<tir::IntImmNode>();
  ASSERT_NE(yes, nullptr);
  EXPECT_EQ(yes->dtype, DataType::Bool());
  EXPECT_EQ(yes->value, 1);
  const auto* let = value(3).as<tir::LetNode>();
  ASSERT_NE(let, nullptr);
  EXPECT_EQ(let->var->name, "t");
  EXPECT_EQ(let->var->dtype, DataType::Int(32));
  EXPECT_TRUE(let->body.as<tir::GTNode>()->a.same_as(let->var));
}

TEST(TirParser, BlockHeadersAndBuffers) {
  tir::PrimFunc f = parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((16, 64), "float32"), S: T.Buffer((16,), "float32")):
        partial = T.alloc_buffer((16, 8), scope="shared")
        for b in T.thread_binding(16, thread="blockIdx.x"):
            for t in range(8):
                with T.sblock("partial"):
                    vb = T.axis.spatial(16, b)
                    vt = T.axis.spatial((0, 8), t)
                    T.where(b * 8 + t < 128)
                    T.reads(A[vb, vt * 8:vt * 8 + 8])
                    T.writes(partial[vb, vt])
                    T.block_attr({"meta_schedule.unroll_explicit": 16, "flag": True})
                    A_row = T.match_buffer(A[vb, vt * 8:vt * 8 + 8], (8,))
                    acc = T.alloc_buffer((1,), scope="local")
                    acc[0] = T.float32(0)
                    for k in range(8):
                        acc[0] = acc[0] + A_row[k]
                    partial[vb, vt] = acc[0]
            for t in range(8):
                with T.block("S"):
                    vb = T.axis.S(16, b)
                    vt = T.axis.reduce(8, t)
                    T.reads(partial[vb, 0:8])
                    T.writes(S[vb])
                    with T.init():
                        S[vb] = T.float32(0)
                    S[vb] = S[vb] + partial[vb, vt]
)",
                               "f");
  const tir::BlockNode* root = root_block(f);
  ASSERT_NE(root, nullptr);
  // The function-level allocation belongs to the root block.
  ASSERT_EQ(root->alloc_buffers.size(), 1u);
  const tir::Buffer& partial = root->alloc_buffers[0];
  EXPECT_EQ(partial->name, "partial");
  EXPECT_EQ(partial->scope, "shared");
  const auto* outer = root->body.as<tir::ForNode>();
  ASSERT_NE(outer, nullptr);
  EXPECT_EQ(outer->thread_tag, "blockIdx.x");
  std::vector<tir::Stmt> inner = stmts(outer->body);
  ASSERT_EQ(inner.size(), 2u);
  const auto* realize = inner[0].as<tir::ForNode>()->body.as<tir::BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  const tir::BlockNode& block = *realize->block;
  EXPECT_EQ(block.name, "partial");  // T.sblock is T.block
  EXPECT_TRUE(realize->predicate.is<tir::LTNode>());
  // T.axis.spatial((0, 8), t): a domain given as (begin, end).
  EXPECT_EQ(const_value(block.iter_vars[1]->dom->extent), 8);
  // A[vb, vt * 8:vt * 8 + 8]: the extent of the slice is 8.
  ASSERT_EQ(block.reads.size(), 1u);
  EXPECT_EQ(const_value(block.reads[0]->region[1]->extent), 8);
  EXPECT_TRUE(block.reads[0]->region[1]->min.is<tir::MulNode>());
  ASSERT_EQ(block.annotations.entries().size(), 2u);
  EXPECT_EQ(block.annotations.entries()[0].first, "flag");
  EXPECT_EQ(block.annotations.find("meta_schedule.unroll_explicit")->i, 16);
  ASSERT_EQ(block.match_buffers.size(), 1u);
  EXPECT_EQ(block.match_buffers[0]->buffer->name, "A_row");
  EXPECT_EQ(block.match_buffers[0]->source->buffer->name, "A");
  ASSERT_EQ(block.alloc_buffers.size(), 1u);
  EXPECT_EQ(block.alloc_buffers[0]->scope, "local");
  // A_row[k] inside the block loads from the matched buffer.
  std::vector<tir::Stmt> block_body = stmts(block.body);
  ASSERT_EQ(block_body.size(), 3u);
  const auto* k_loop = block_body[1].as<tir::ForNode>();
  ASSERT_NE(k_loop, nullptr);
  const auto* acc_update = k_loop->body.as<tir::BufferStoreNode>()->value.as<tir::AddNode>();
  EXPECT_EQ(acc_update->b.as<tir::BufferLoadNode>()->buffer, block.match_buffers[0]->buffer);

  const auto* reduce = inner[1].as<tir::ForNode>()->body.as<tir::BlockRealizeNode>();
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->block->iter_vars[0]->kind, tir::IterKind::Spatial);
  EXPECT_EQ(reduce->block->iter_vars[1]->kind, tir::IterKind::Reduce);
  EXPECT_TRUE(reduce->block->init.defined());
  EXPECT_EQ(reduce->block->reads[0]->buffer, partial);
}

TEST(TirParser, ExplicitRootBlockIsNotWrappedAgain) {
  tir::PrimFunc f =
      parse_func(prim_module("A: T.Buffer((4,), \"float32\")", R"(        with T.block("root"):
            B = T.alloc_buffer((4,))
            for i in range(4):
                with T.block("B"):
                    vi = T.axis.spatial(4, i)
                    B[vi] = A[vi]
)"),
                 "f");
  const tir::BlockNode* root = root_block(f);
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->name, "root");
  ASSERT_EQ(root->alloc_buffers.size(), 1u);
  EXPECT_TRUE(root->body.is<tir::ForNode>());
}

TEST(TirParser, EquivalentSpellingsBuildEqualFunctions) {
  // T.grid is nested serial loops; T.axis.remap is T.axis.spatial/reduce over the loops.
  std::string a = prim_module("A: T.Buffer((4, 8), \"float32\"), B: T.Buffer((4,), \"float32\")",
                              R"(        for i, k in T.grid(4, 8):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                B[vi] = B[vi] + A[vi, vk]
)");
  std::string b = prim_module("X: T.Buffer((4, 8), \"float32\"), Y: T.Buffer((4,), \"float32\")",
                              R"(        for p in range(4):
            for q in T.serial(0, 8):
                with T.sblock("B"):
                    vp = T.axis.spatial(4, p)
                    vq = T.axis.reduce(8, q)
                    Y[vp] = Y[vp] + X[vp, vq]
)");
  EXPECT_EQ(structural_mismatch(parse_func(a, "f"), parse_func(b, "f")), std::nullopt);
}

// A block whose text leaves out T.reads / T.writes gets the regions it accesses; the
// expected regions are written out by hand in the second module of each pair.
void expect_same_function(const std::string& params, const std::string& implicit,
                          const std::string& explicit_regions) {
  tir::PrimFunc a = parse_func(prim_module(params, implicit), "f");
  tir::PrimFunc b = parse_func(prim_module(params, explicit_regions), "f");
  EXPECT_EQ(structural_mismatch(a, b), std::nullopt);
}

TEST(TirParser, MissingRegionsAreCompleted) {
  const std::string params = "A: T.Buffer((4, 8), \"float32\"), B: T.Buffer((4,), \"float32\")";
  // A reduction: the written buffer is not listed among the reads.
  expect_same_function(params, R"(        for i, k in T.grid(4, 8):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
)",
                       R"(        for i, k in T.grid(4, 8):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(B[vi])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
)");
  // Without T.init the update reads what it writes; only the missing side is filled in.
  expect_same_function(params, R"(        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                T.writes(B[vi])
                B[vi] = B[vi] + A[vi, 0]
)",
                       R"(        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                T.reads(B[vi], A[vi, 0])
                T.writes(B[vi])
                B[vi] = B[vi] + A[vi, 0]
)");
}

TEST(TirParser, CompletedRegionsCoverInnerLoopsAndBlocks) {
  const std::string params = "A: T.Buffer((4, 32), \"float32\"), B: T.Buffer((4, 16), \"float32\")";
  // A loop inside the block: j * 2 and j * 2 + 1 for j in [0, 16) cover 0 .. 31.
  expect_same_function(params, R"(        for i in range(4):
            with T.block("row"):
                vi = T.axis.spatial(4, i)
                for j in range(16):
                    B[vi, j] = A[vi, j * 2] + A[vi, j * 2 + 1]
)",
                       R"(        for i in range(4):
            with T.block("row"):
                vi = T.axis.spatial(4, i)
                T.reads(A[vi, 0:32])
                T.writes(B[vi, 0:16])
                for j in range(16):
                    B[vi, j] = A[vi, j * 2] + A[vi, j * 2 + 1]
)");
  // A nested block counts through its regions, its variables replaced by their bindings:
  // vj = vo * 4 + j for j in [0, 4) reads B[0, vo * 4 .. vo * 4 + 3].
  expect_same_function(params, R"(        for o in range(4):
            with T.block("outer"):
                vo = T.axis.spatial(4, o)
                for j in range(4):
                    with T.block("inner"):
                        vj = T.axis.spatial(16, vo * 4 + j)
                        T.reads(B[0, vj])
                        T.writes(A[0, vj])
                        A[0, vj] = B[0, vj]
)",
                       R"(        for o in range(4):
            with T.block("outer"):
                vo = T.axis.spatial(4, o)
                T.reads(B[0, vo * 4:vo * 4 + 4])
                T.writes(A[0, vo * 4:vo * 4 + 4])
                for j in range(4):
                    with T.block("inner"):
                        vj = T.axis.spatial(16, vo * 4 + j)
                        T.reads(B[0, vj])
                        T.writes(A[0, vj])
                        A[0, vj] = B[0, vj]
)");
}

TEST(TirParser, CompletedRegionsOfMatchedLocalAndIndirectBuffers) {
  const std::string params =
      "A: T.Buffer((4, 16), \"float32\"), B: T.Buffer((4,), \"float32\"), I: T.Buffer((4,), "
      "\"int32\")";
  // A matched buffer stands for its source region; an allocated one is the block's own;
  // an index that varies with a loop through memory (I[j]) covers the whole dimension.
  expect_same_function(params, R"(        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                row = T.match_buffer(A[vi, 0:16], (16,))
                acc = T.alloc_buffer((1,), scope="local")
                acc[0] = row[3]
                for j in range(4):
                    B[I[j]] = acc[0]
)",
                       R"(        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                T.reads(A[vi, 0:16], I[0:4])
                T.writes(B[0:4])
                row = T.match_buffer(A[vi, 0:16], (16,))
                acc = T.alloc_buffer((1,), scope="local")
                acc[0] = row[3]
                for j in range(4):
                    B[I[j]] = acc[0]
)");
}

TEST(TirParserErrors, UnknownFunctionsAndNames) {
  EXPECT_EQ(
      error_of(prim_module("A: T.Buffer((4,), \"float32\")", "        A[0] = T.expp(A[1])\n")),
      "5:16: unknown TensorIR function 'T.expp'");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")", "        A[0] = A[j]\n")),
            "5:18: unknown name 'j'");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")",
                                 "        for i in T.loop(4):\n            A[i] = 0.0\n")),
            "5:18: unknown loop kind 'T.loop'");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")",
                                 "        with T.blok(\"b\"):\n            pass\n")),
            "5:14: unknown context 'T.blok'; TensorIR has 'with T.block(...)' and 'with T.init()'");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")", "        A[0] = A\n")),
            "5:16: buffer 'A' is not a scalar; index it, as in A[i]");
}

TEST(TirParserErrors, ArgumentCountsAndKeywords) {
  const std::string params = "A: T.Buffer((4,), \"float32\")";
  EXPECT_EQ(error_of(prim_module(
                params, "        with T.block(\"b\"):\n            vi = T.axis.spatial(4)\n")),
            "6:18: T.axis.spatial is missing argument 'binding'");
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = T.exp(A[1], A[2])\n")),
            "5:16: T.exp takes 1 argument, got 2");
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = T.Select(A[1] > 0.0, A[1])\n")),
            "5:16: T.Select is missing argument 'false_value'");
  EXPECT_EQ(error_of(prim_module(
                params, "        for i in T.serial(4, step=2):\n            A[i] = 0.0\n")),
            "5:30: T.serial got an unknown keyword argument 'step'");
  EXPECT_EQ(error_of(prim_module(params,
                                 "        for i in range(0, 4, 1, 2):\n            A[i] = 0.0\n")),
            "5:33: range takes at most 3 arguments (start, stop, step), got 4");
  EXPECT_EQ(error_of(prim_module(params, "        B = T.alloc_buffer((4,), dtyp=\"int32\")\n")),
            "5:34: T.alloc_buffer got an unknown keyword argument 'dtyp'");
  EXPECT_EQ(
      error_of(prim_module(params, "        for i, j in T.grid(4):\n            A[i] = 0.0\n")),
      "5:13: T.grid has 1 extent(s) but 2 loop variable(s)");
}

TEST(TirParserErrors, TypesAndAnnotations) {
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"flaot32\")", "        A[0] = 0.0\n")),
            "4:29: unknown data type 'flaot32'");
  EXPECT_EQ(error_of(prim_module("A", "        pass\n")),
            "4:11: parameter 'A' needs a type: T.handle, T.Buffer(shape, dtype) or a scalar type "
            "such as T.int32");
  EXPECT_EQ(error_of(prim_module("A: T.Tensor", "        pass\n")),
            "4:14: unsupported parameter type; expected T.handle, T.Buffer(shape, dtype) or a "
            "scalar type such as T.int32");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"int32\")",
                                 "        B[0] = A[0]\n")),
            "5:16: cannot store a value of type float32 into buffer 'B' of type int32");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\"), B: T.Buffer((4,), \"int32\")",
                                 "        A[0] = A[1] + B[1]\n")),
            "5:21: operands of '+' have different types: float32 and int32 (use T.Cast to convert "
            "one)");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4, 4), \"float32\")", "        A[0] = 0.0\n")),
            "5:9: buffer 'A' has 2 dimension(s), indexed with 1");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")",
                                 "        if 1:\n            A[0] = 0.0\n")),
            "5:12: the condition of 'if' must be a bool expression, got int32");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")", "        x: T.int32 = 1.5\n")),
            "5:22: the value has type float32, but 'x' is declared int32");
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((4,), \"float32\")", "        A[0] = T.exp(1)\n")),
            "5:22: T.exp needs a floating-point argument, got int32");
}

TEST(TirParserErrors, LiteralsNeverNarrow) {
  // A literal takes the other operand's type only if its value is one of that type.
  const std::string params = "B: T.Buffer((4,), \"int32\"), n: T.int32";
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = n % 1.5\n")),
            "5:18: operands of '%' have different types: int32 and float32 (use T.Cast to convert "
            "one)");
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = T.Select((n > 3) == 5, 1, 0)\n")),
            "5:33: operands of '==' have different types: bool and int32 (use T.Cast to convert "
            "one)");
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = T.Cast(\"int32\", T.int8(300))\n")),
            "5:39: 300 does not fit in int8");
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = T.Cast(\"int32\", T.uint8(-1))\n")),
            "5:40: -1 does not fit in uint8");
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = n + 1e309\n")),
            "5:20: float literal 1e309 is out of range");
  // A literal too large for the other operand's type is not truncated to fit it.
  tir::PrimFunc f = parse_func(
      prim_module("B: T.Buffer((4,), \"int64\"), n: T.int64", "        B[0] = n + 3000000000\n"),
      "f");
  const auto* sum = f->body.as<tir::BufferStoreNode>()->value.as<tir::AddNode>();
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->b.as<tir::IntImmNode>()->value, 3000000000);
  EXPECT_EQ(sum->b->dtype, DataType::Int(64));
}

TEST(TirParserErrors, BlockStructure) {
  const std::string params = "A: T.Buffer((4,), \"float32\")";
  EXPECT_EQ(error_of(prim_module(params, "        T.reads(A[0])\n")),
            "5:9: T.reads is only allowed inside a block");
  EXPECT_EQ(error_of(prim_module(params,
                                 "        for i in range(4):\n            with T.block(\"b\"):\n"
                                 "                vi, vj = T.axis.remap(\"SS\", [i, i + 1])\n")),
            "7:49: T.axis.remap binds only loop variables");
  EXPECT_EQ(error_of(prim_module(params,
                                 "        for i in range(4):\n            with T.block(\"b\"):\n"
                                 "                vi = T.axis.remap(\"SX\", [i])\n")),
            "7:22: T.axis.remap binds 1 name(s) with 2 kind(s) and 1 loop variable(s); the three "
            "must agree");
  EXPECT_EQ(error_of(prim_module(params,
                                 "        for i in range(4):\n            with T.block(\"b\"):\n"
                                 "                vi = T.axis.remap(\"X\", [i])\n")),
            "7:35: unknown iteration kind 'X' (expected S or R)");
  EXPECT_EQ(error_of(prim_module(params,
                                 "        with T.block(\"b\"):\n            with T.init():\n"
                                 "                A[0] = 0.0\n            with T.init():\n"
                                 "                A[0] = 0.0\n")),
            "8:13: T.init given twice in one block");
  EXPECT_EQ(error_of(prim_module("x: T.handle",
                                 "        for i in range(4):\n"
                                 "            A = T.match_buffer(x, (4,))\n")),
            "6:17: T.match_buffer of a parameter must be a statement of the function body");
  EXPECT_EQ(error_of(prim_module("n: T.int32", "        B = T.match_buffer(n, (4,))\n")),
            "5:28: T.match_buffer outside a block needs a T.handle parameter of the function");
  EXPECT_EQ(error_of(prim_module(params, "        B = T.match_buffer(A, (4,))\n")),
            "5:28: parameter 'A' is already matched to a buffer");
  EXPECT_EQ(error_of(prim_module(params, "        T.alloc_buffer((4,))\n")),
            "5:9: the result of T.alloc_buffer must be assigned to a name");
}

// TVM indexes a 0-d buffer's only element as A[()]: a load, a store and a region with no
// indices.
TEST(TirParser, ZeroDimensionalBuffersIndexedWithAnEmptyTuple) {
  tir::PrimFunc f = parse_func(prim_module("A: T.Buffer((4,), \"float32\"), B: T.Buffer((), "
                                           "\"float32\")",
                                           R"(        for i in range(4):
            with T.block("sum"):
                vi = T.axis.reduce(4, i)
                T.reads(A[vi], B[()])
                T.writes(B[()])
                with T.init():
                    B[()] = T.float32(0)
                B[()] = B[()] + A[vi]
)"),
                               "f");
  ASSERT_TRUE(f.defined());
  const tir::BlockNode* block = nullptr;
  tir::post_order_visit(f->body, [&](const Ref<Object>& node) {
    if (const auto* b = node.as<tir::BlockNode>(); b != nullptr && b->name == "sum") block = b;
  });
  ASSERT_NE(block, nullptr);
  ASSERT_EQ(block->reads.size(), 2u);
  EXPECT_TRUE(block->reads[1]->region.empty());
  ASSERT_EQ(block->writes.size(), 1u);
  EXPECT_TRUE(block->writes[0]->region.empty());
  const auto* store = block->body.as<tir::BufferStoreNode>();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->indices.empty());
  const auto* load = store->value.as<tir::AddNode>()->a.as<tir::BufferLoadNode>();
  ASSERT_NE(load, nullptr);
  EXPECT_TRUE(load->indices.empty());
  EXPECT_EQ(
      error_of(prim_module("B: T.Buffer((4,), \"float32\")", "        B[()] = T.float32(0)\n")),
      "5:9: buffer 'B' has 1 dimension(s), indexed with 0");
}

TEST(TirParser, VariablesDeclaredOnOneLine) {
  const std::string one_line = prim_module("a: T.handle, b: T.handle",
                                           R"(        n, m = T.int64(), T.int32()
        A = T.match_buffer(a, (n,))
        B = T.match_buffer(b, (m,))
        for i in range(m):
            B[i] = A[T.Cast("int64", i)]
)");
  std::string per_line = one_line;
  per_line.replace(per_line.find("n, m = T.int64(), T.int32()"), 27,
                   "n = T.int64()\n        m = T.int32()");
  EXPECT_TRUE(structural_equal(parse_func(one_line, "f"), parse_func(per_line, "f")));
  EXPECT_EQ(error_of(prim_module("", "        n, m = T.int64(), 4\n")),
            "5:9: only T.axis.remap, or variable declarations (n, m = T.int64(), T.int64()), can "
            "be assigned to several names");
}

// T.min_value / T.max_value fold to the least / greatest finite value of the type.
TEST(TirParser, MinAndMaxValueAreConstants) {
  tir::PrimFunc f =
      parse_func(prim_module("A: T.Buffer((1,), \"float32\"), B: T.Buffer((1,), "
                             "\"int8\"), C: T.Buffer((1,), \"uint16\")",
                             "        A[0] = T.min_value(\"float32\")\n"
                             "        B[0] = T.max_value(\"int8\") - T.min_value(\"int8\")\n"
                             "        C[0] = T.max_value(\"uint16\")\n"),
                 "f");
  ASSERT_TRUE(f.defined());
  std::vector<tir::Stmt> body = stmts(f->body);
  ASSERT_EQ(body.size(), 3u);
  const auto* a = body[0].as<tir::BufferStoreNode>()->value.as<tir::FloatImmNode>();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value, -static_cast<double>(std::numeric_limits<float>::max()));
  const auto* b = body[1].as<tir::BufferStoreNode>()->value.as<tir::SubNode>();
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(const_value(b->a), 127);
  EXPECT_EQ(const_value(b->b), -128);
  EXPECT_EQ(const_value(body[2].as<tir::BufferStoreNode>()->value), 65535);
  EXPECT_EQ(error_of(prim_module("A: T.Buffer((1,), \"bool\")",
                                 "        A[0] = T.max_value(\"bool\")\n")),
            "5:28: T.max_value takes a scalar integer or float type, got bool");
  // The least int64 has no literal; it prints as T.min_value and reads back.
  IRModule least = text::parse_module(
      prim_module("E: T.Buffer((1,), \"int64\")", "        E[0] = T.min_value(\"int64\")\n"));
  std::string printed = text::print_module(least);
  EXPECT_NE(printed.find("E[0] = T.min_value(\"int64\")"), std::string::npos) << printed;
  EXPECT_TRUE(structural_equal(least, text::parse_module(printed)));
}

// TE writes an intrinsic's result type as a keyword; it must be the call's type.
TEST(TirParser, IntrinsicWithItsDtypeAsAKeyword) {
  const std::string params = "A: T.Buffer((4,), \"float32\")";
  EXPECT_TRUE(structural_equal(
      parse_func(prim_module(params, "        A[0] = T.exp(A[1], dtype=\"float32\")\n"), "f"),
      parse_func(prim_module(params, "        A[0] = T.exp(A[1])\n"), "f")));
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = T.exp(A[1], dtype=\"float16\")\n")),
            "5:34: T.exp gives a float32 here, not float16");
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = T.exp(A[1], fast=True)\n")),
            "5:28: T.exp takes no keyword arguments but dtype");
}

// The block functions of TVM after 0.23 (s_tir): T.sblock_alloc_buffer, T.sblock_attr.
TEST(TirParser, SblockSpellingsAreTheBlockForms) {
  const std::string sblock =
      prim_module("A: T.Buffer((4,), \"float32\")", R"(        for i in range(4):
            with T.sblock("a"):
                vi = T.axis.spatial(4, i)
                T.sblock_attr({"k": 1})
                t = T.sblock_alloc_buffer((1,), scope="local")
                t[0] = A[vi]
                A[vi] = t[0]
)");
  std::string block = sblock;
  const std::pair<std::string, std::string> renames[] = {
      {"T.sblock_attr", "T.block_attr"},
      {"T.sblock_alloc_buffer", "T.alloc_buffer"},
      {"T.sblock", "T.block"}};
  for (const auto& [from, to] : renames) block.replace(block.find(from), from.size(), to);
  EXPECT_NE(block.find("T.alloc_buffer"), std::string::npos);
  EXPECT_TRUE(structural_equal(parse_func(sblock, "f"), parse_func(block, "f")));
}

// The bit operators build the calls TVM's operators build, and print as TVM prints
// them (T.bitwise_and ...); T.likely is a hint whose value is its condition.
TEST(TirParser, BitOperatorsAndLikely) {
  const std::string params = "A: T.Buffer((4,), \"int32\"), F: T.Buffer((4,), \"float32\")";
  tir::PrimFunc operators = parse_func(prim_module(params, R"(        if T.likely(A[0] < 4):
            A[0] = (A[1] & 3) | (A[2] ^ ~A[3]) << 2 >> A[0]
        A[1] <<= 2
)"),
                                       "f");
  tir::PrimFunc functions = parse_func(prim_module(params, R"(        if T.likely(A[0] < 4):
            A[0] = T.bitwise_or(T.bitwise_and(A[1], 3), T.shift_right(T.shift_left(T.bitwise_xor(A[2], T.bitwise_not(A[3])), 2), A[0]))
        A[1] = T.shift_left(A[1], 2)
)"),
                                       "f");
  EXPECT_TRUE(structural_equal(operators, functions));
  std::string printed = text::print_node(operators);
  EXPECT_NE(printed.find("if T.likely(A[0] < 4):"), std::string::npos) << printed;
  EXPECT_NE(printed.find("A[1] = T.shift_left(A[1], 2)"), std::string::npos) << printed;

  EXPECT_EQ(error_of(prim_module(params, "        A[0] = A[1] << 32\n")),
            "5:24: T.shift_left by 32: a shift of int32 must be by 0 to 31");
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = T.shift_right(A[1], -1)\n")),
            "5:36: T.shift_right by -1: a shift of int32 must be by 0 to 31");
  EXPECT_EQ(error_of(prim_module(params, "        F[0] = F[1] & F[2]\n")),
            "5:16: T.bitwise_and needs an integer or bool argument, got float32");
  EXPECT_EQ(error_of(prim_module(params, "        F[0] = ~F[1]\n")),
            "5:17: T.bitwise_not needs an integer or bool argument, got float32");
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = (A[1] < 0) << 1\n")),
            "5:22: T.shift_left needs an integer argument, got bool");
  EXPECT_EQ(error_of(prim_module(params, "        A[0] = T.shift_left(A[1], F[0])\n")),
            "5:35: the arguments of T.shift_left have different types: int32 and float32 (use "
            "T.Cast to convert one)");
}

// T.Let(body, where={x: value}) as TVM prints it, x declared beforehand; the same Let as
// T.Let(x, value, body), and printed in TVM's form with x declared at the top.
TEST(TirParser, LetWithWhereAsTvmPrintsIt) {
  const std::string params = "B: T.Buffer((4,), \"int32\"), n: T.int32";
  tir::PrimFunc where = parse_func(
      prim_module(params, "        t = T.int32()\n        B[0] = T.Let(t + 1, where={t: n * 2})\n"),
      "f");
  tir::PrimFunc positional =
      parse_func(prim_module(params, "        B[0] = T.Let(t, n * 2, t + 1)\n"), "f");
  EXPECT_TRUE(structural_equal(where, positional));
  std::string printed = text::print_node(positional);
  EXPECT_NE(printed.find("    t = T.int32()\n    B[0] = T.Let(t + 1, where={t: n * 2})"),
            std::string::npos)
      << printed;
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = T.Let(n, where={u: 1})\n")),
            "5:32: the variable of T.Let's where must be declared beforehand (x = T.int32())");
  EXPECT_EQ(error_of(prim_module(params, "        B[0] = T.Let(n, where={})\n")),
            "5:31: the where of T.Let is a dict of one variable and its value, where={x: value}");
  EXPECT_EQ(error_of(prim_module(
                params, "        t = T.int32()\n        B[0] = T.Let(t, where={t: 1.5})\n")),
            "6:35: the value has type float32, but 't' is declared int32");
}

}  // namespace
}  // namespace relaxc
