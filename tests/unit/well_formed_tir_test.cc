// Tests of the well-formedness checker's TensorIR checks on PrimFuncs built directly.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "ir/relax/well_formed.h"

namespace relaxc::relax {
namespace {

const DataType kF32 = DataType::Float(32);

tir::PrimExpr i64(int64_t v) { return tir::int_imm(DataType::Int(64), v); }

std::vector<std::string> messages_of_kernel(tir::PrimFunc func) {
  IRModule module = make_module({{make_global_var("kernel"), Ref<Object>(std::move(func))}});
  DiagnosticList diagnostics = check_well_formed(module);
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics.all()) out.push_back(d.message);
  return out;
}

using Messages = std::vector<std::string>;

tir::IterVar iter_var(const std::string& name, tir::PrimExpr extent) {
  auto* iter = make_node<tir::IterVarNode>();
  iter->var = tir::var(name);
  iter->dom = tir::range(i64(0), std::move(extent));
  return tir::IterVar(iter);
}

tir::Block block(std::string name, std::vector<tir::IterVar> iter_vars, tir::Stmt body,
                 std::vector<tir::Buffer> alloc_buffers = {},
                 std::vector<tir::MatchBufferRegion> match_buffers = {}) {
  auto* n = make_node<tir::BlockNode>();
  n->name = std::move(name);
  n->iter_vars = std::move(iter_vars);
  n->body = std::move(body);
  n->alloc_buffers = std::move(alloc_buffers);
  n->match_buffers = std::move(match_buffers);
  return tir::Block(n);
}

// A PrimFunc of one handle parameter viewed as `buffer`.
tir::PrimFunc kernel(std::vector<std::pair<tir::Var, tir::Buffer>> buffer_map, tir::Stmt body) {
  auto* n = make_node<tir::PrimFuncNode>();
  for (const auto& [param, buffer] : buffer_map) n->params.push_back(param);
  n->buffer_map = std::move(buffer_map);
  n->body = std::move(body);
  return tir::PrimFunc(n);
}

tir::Var handle(const std::string& name) { return tir::var(name, DataType::Handle()); }

TEST(WellFormedTir, UndefinedVarsAndBuffersAndIterValueCount) {
  tir::Var n = tir::var("n"), i = tir::var("i"), m = tir::var("m");
  tir::Buffer a = tir::buffer("A", kF32, {n});
  tir::Buffer stray = tir::buffer("B", kF32, {i64(4)});
  tir::IterVar vi = iter_var("vi", n);
  tir::Stmt store = tir::buffer_store(a, tir::buffer_load(stray, {vi->var}), {vi->var});
  // The realize gives no value for the block's one iteration variable.
  tir::Stmt realize = tir::block_realize({}, tir::bool_imm(true), block("C", {vi}, store));
  tir::Stmt loop = tir::for_loop(i, i64(0), m, tir::ForKind::Serial, realize);
  EXPECT_EQ(messages_of_kernel(kernel({{handle("a"), a}}, loop)),
            (Messages{"[tir] variable 'm' is used but not defined in PrimFunc 'kernel'",
                      "[tir] block 'C' has 1 iteration variables but 0 iteration values",
                      "[tir] buffer 'B' is used but not defined in PrimFunc 'kernel'"}));
}

TEST(WellFormedTir, LoopLetAndAllocationScopesEndWithTheirBodies) {
  tir::Buffer a = tir::buffer("A", kF32, {i64(8)});
  tir::Var i = tir::var("i"), t = tir::var("t");
  tir::Buffer scratch = tir::buffer("scratch", kF32, {i64(1)}, "local");
  tir::Stmt inside = tir::allocate(
      scratch,
      tir::let_stmt(t, i * 2, tir::buffer_store(scratch, tir::buffer_load(a, {t}), {i64(0)})));
  // After the loop, i, t and scratch are out of scope: each is reported once.
  tir::Stmt after = tir::buffer_store(a, tir::buffer_load(scratch, {i64(0)}), {i + t});
  tir::Stmt body =
      tir::seq_stmt({tir::for_loop(i, i64(0), i64(4), tir::ForKind::Serial, inside), after, after});
  EXPECT_EQ(messages_of_kernel(kernel({{handle("a"), a}}, body)),
            (Messages{"[tir] buffer 'scratch' is used but not defined in PrimFunc 'kernel'",
                      "[tir] variable 'i' is used but not defined in PrimFunc 'kernel'",
                      "[tir] variable 't' is used but not defined in PrimFunc 'kernel'"}));
}

TEST(WellFormedTir, WellFormedKernelWithBlocks) {
  tir::Var n = tir::var("n"), i = tir::var("i"), k = tir::var("k");
  tir::Buffer x = tir::buffer("X", kF32, {n * 2});
  tir::Buffer y = tir::buffer("Y", kF32, {n});
  tir::IterVar vi = iter_var("vi", n);
  tir::Buffer acc = tir::buffer("acc", kF32, {i64(1)}, "local");
  // A view of two elements of X; its own shape variable k is bound by the match.
  tir::Buffer view = tir::buffer("X_pair", kF32, {k});
  auto* region = make_node<tir::BufferRegionNode>();
  region->buffer = x;
  region->region = {tir::range(vi->var * 2, i64(2))};
  auto* match = make_node<tir::MatchBufferRegionNode>();
  match->buffer = view;
  match->source = tir::BufferRegion(region);
  tir::Stmt body = tir::seq_stmt(
      {tir::buffer_store(acc, tir::buffer_load(view, {i64(0)}), {i64(0)}),
       tir::buffer_store(y, tir::buffer_load(acc, {i64(0)}) + tir::buffer_load(view, {k - 1}),
                         {vi->var})});
  tir::Stmt realize = tir::block_realize(
      {i}, tir::bool_imm(true), block("Y", {vi}, body, {acc}, {tir::MatchBufferRegion(match)}));
  // X's shape uses n before Y's binds it: the buffer map binds in any order.
  tir::PrimFunc func = kernel({{handle("x"), x}, {handle("y"), y}},
                              tir::for_loop(i, i64(0), n, tir::ForKind::Serial, realize));
  EXPECT_EQ(messages_of_kernel(func), Messages{});
}

}  // namespace
}  // namespace relaxc::relax
