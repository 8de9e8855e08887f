// Tests of the TensorIR visitors and mutators and of their lambda forms.
#include <gtest/gtest.h>
#include <pthread.h>

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/tir/functor.h"

namespace relaxc::tir {
namespace {

const DataType kF32 = DataType::Float(32);
const DataType kI64 = DataType::Int(64);

PrimExpr i64(int64_t v) { return int_imm(kI64, v); }

void expect_struct_eq(const Ref<Object>& actual, const Ref<Object>& expected) {
  EXPECT_TRUE(structural_equal(actual, expected))
      << structural_mismatch(actual, expected).value_or("");
}

std::vector<std::string> post_order_kinds(const Ref<Object>& root) {
  std::vector<std::string> kinds;
  post_order_visit(root,
                   [&](const Ref<Object>& node) { kinds.push_back(node_kind_name(node->kind())); });
  return kinds;
}

TEST(TirFunctor, PostOrderVisitsChildrenFirst) {
  Var x = var("x"), y = var("y");
  EXPECT_EQ(post_order_kinds((x + y) * 2),
            (std::vector<std::string>{"TirVar", "TirVar", "TirAdd", "TirIntImm", "TirMul"}));
}

TEST(TirFunctor, PostOrderReachesBuffersAndStatements) {
  Var n = var("n"), i = var("i");
  Buffer A = buffer("A", kF32, {n});
  Stmt loop = for_loop(i, i64(0), n, ForKind::Serial, buffer_store(A, buffer_load(A, {i}), {i}));
  EXPECT_EQ(post_order_kinds(loop),
            (std::vector<std::string>{
                "TirVar",                                     // loop_var i
                "TirIntImm", "TirVar",                        // min, extent
                "TirVar", "TirVar", "TirBuffer",              // store buffer: data, n
                "TirVar", "TirVar", "TirBuffer", "TirVar",    // load buffer, index i
                "TirBufferLoad", "TirVar", "TirBufferStore",  // load, index i, store
                "TirFor"}));
}

// Counts loads through a subclass that overrides one kind and keeps descending.
class LoadCounter final : public Visitor {
 public:
  int loads = 0;

 private:
  void visit_node(const BufferLoadNode* node) override {
    ++loads;
    Visitor::visit_node(node);
  }
};

TEST(TirFunctor, VisitorOverridesOneKind) {
  Buffer A = buffer("A", kF32, {i64(4)});
  PrimExpr nested = buffer_load(A, {cast(kI64, buffer_load(A, {i64(0)}))});
  LoadCounter counter;
  counter.visit(buffer_load(A, {i64(1)}) + nested);
  EXPECT_EQ(counter.loads, 3);
}

TEST(TirFunctor, SubstituteReplacesUses) {
  Var x = var("x"), y = var("y");
  PrimExpr e = (x + y) * x;
  PrimExpr result = substitute(e, VarMap{{x, i64(3)}});
  expect_struct_eq(result, (i64(3) + y) * i64(3));
}

TEST(TirFunctor, SubstituteSharesWhatDidNotChange) {
  Var x = var("x"), y = var("y"), z = var("z");
  PrimExpr untouched = y * y;
  PrimExpr e = x + untouched;
  PrimExpr result = substitute(e, VarMap{{x, z}});
  const auto* add = result.as<AddNode>();
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->a.same_as(z));
  EXPECT_TRUE(add->b.same_as(untouched));
  EXPECT_TRUE(substitute(e, VarMap{{z, x}}).same_as(e));
  EXPECT_TRUE(substitute(e, VarMap{}).same_as(e));
}

TEST(TirFunctor, SubstituteWithFunction) {
  Var x = var("x"), y = var("y");
  PrimExpr result = substitute(
      x + y, [&](const Var& v) -> PrimExpr { return v.same_as(y) ? x * 2 : PrimExpr(); });
  expect_struct_eq(result, x + x * 2);
}

Stmt copy_loop(const Var& i, const Buffer& A, const Buffer& B, const PrimExpr& extent) {
  return for_loop(i, i64(0), extent, ForKind::Serial,
                  buffer_store(B, buffer_load(A, {i}) + float_imm(kF32, 1), {i}));
}

TEST(TirFunctor, SubstituteRenamesBindingPositionsWithVariables) {
  Var n = var("n"), i = var("i"), j = var("j");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Stmt result = substitute(copy_loop(i, A, B, n), VarMap{{i, j}});
  const auto* loop = result.as<ForNode>();
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(loop->loop_var.same_as(j));
  const auto* store = loop->body.as<BufferStoreNode>();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->indices[0].same_as(j));
  EXPECT_TRUE(store->buffer.same_as(B));
}

TEST(TirFunctor, SubstituteKeepsBindingWhenReplacementIsNotAVariable) {
  Var n = var("n"), i = var("i");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Stmt result = substitute(copy_loop(i, A, B, n), VarMap{{i, i64(0)}});
  const auto* loop = result.as<ForNode>();
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(loop->loop_var.same_as(i));
  const auto* store = loop->body.as<BufferStoreNode>();
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(is_const_int(store->indices[0], 0));
}

TEST(TirFunctor, SubstituteRewritesEachBufferOnce) {
  Var n = var("n"), i = var("i");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Stmt two_loops = seq_stmt({copy_loop(i, A, B, n), copy_loop(i, B, A, n)});
  Stmt result = substitute(two_loops, VarMap{{n, i64(128)}});

  Buffer A128 = buffer("A", kF32, {i64(128)}), B128 = buffer("B", kF32, {i64(128)});
  expect_struct_eq(
      result, seq_stmt({copy_loop(i, A128, B128, i64(128)), copy_loop(i, B128, A128, i64(128))}));
  // Every use of A (and of B) still refers to one buffer, a new one.
  std::vector<const BufferNode*> buffers_of_a;
  post_order_visit(result, [&](const Ref<Object>& node) {
    const auto* b = node.as<BufferNode>();
    if (b != nullptr && b->data.same_as(A->data)) buffers_of_a.push_back(b);
  });
  ASSERT_EQ(buffers_of_a.size(), 2u);
  EXPECT_EQ(buffers_of_a[0], buffers_of_a[1]);
  EXPECT_NE(buffers_of_a[0], A.get());
  EXPECT_TRUE(is_const_int(buffers_of_a[0]->shape[0], 128));
}

// for i in range(extent):
//     with T.block(name):
//         vi = T.axis.spatial(extent, i)
//         T.reads(A[vi]); T.writes(B[vi])
//         B[vi] = A[vi]
Stmt block_loop(const Var& i, const Var& vi, const Buffer& A, const Buffer& B,
                const PrimExpr& extent, const std::string& name = "B") {
  auto region = [&](const Buffer& buffer) {
    auto* r = make_node<BufferRegionNode>();
    r->buffer = buffer;
    r->region = {range(vi, i64(1))};
    return BufferRegion(r);
  };
  auto* iter = make_node<IterVarNode>();
  iter->var = vi;
  iter->dom = range(i64(0), extent);
  iter->kind = IterKind::Spatial;
  auto* block = make_node<BlockNode>();
  block->name = name;
  block->iter_vars = {IterVar(iter)};
  block->reads = {region(A)};
  block->writes = {region(B)};
  block->body = buffer_store(B, buffer_load(A, {vi}), {vi});
  return for_loop(i, i64(0), extent, ForKind::Serial,
                  block_realize({i}, bool_imm(true), Block(block)));
}

TEST(TirFunctor, BlocksCompareUpToRenaming) {
  Var n = var("n"), i = var("i"), vi = var("vi"), m = var("m"), j = var("j"), vj = var("vj");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Buffer C = buffer("C", kF32, {m}), D = buffer("D", kF32, {m});
  expect_struct_eq(block_loop(i, vi, A, B, n), block_loop(j, vj, C, D, m));
  EXPECT_EQ(structural_hash(block_loop(i, vi, A, B, n)),
            structural_hash(block_loop(j, vj, C, D, m)));
  EXPECT_EQ(structural_mismatch(block_loop(i, vi, A, B, n), block_loop(j, vj, C, D, m, "C")),
            "body.block.name: \"B\" vs \"C\"");
}

TEST(TirFunctor, SubstituteRebuildsBlocks) {
  Var n = var("n"), i = var("i"), vi = var("vi");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Stmt result = substitute(block_loop(i, vi, A, B, n), VarMap{{n, i64(128)}});
  Buffer A128 = buffer("A", kF32, {i64(128)}), B128 = buffer("B", kF32, {i64(128)});
  expect_struct_eq(result, block_loop(i, vi, A128, B128, i64(128)));
  const auto* realize = result.as<ForNode>()->body.as<BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  const IterVar& iter = realize->block->iter_vars[0];
  EXPECT_EQ(iter->kind, IterKind::Spatial);
  EXPECT_TRUE(iter->var.same_as(vi));
  // The regions read and written name the same new buffers as the statement does.
  const auto* store = realize->block->body.as<BufferStoreNode>();
  EXPECT_TRUE(realize->block->writes[0]->buffer.same_as(store->buffer));
  EXPECT_TRUE(realize->block->reads[0]->buffer.same_as(store->value.as<BufferLoadNode>()->buffer));
}

TEST(TirFunctor, TransformRewritesBottomUp) {
  Var x = var("x");
  // The constant becomes 0 before its parent is seen, so the parent then folds away.
  PrimExpr result = transform(x + 1, [](const PrimExpr& e) -> PrimExpr {
    if (is_const_int(e, 1)) return int_imm(e->dtype, 0);
    const auto* add = e.as<AddNode>();
    if (add != nullptr && is_const_int(add->b, 0)) return add->a;
    return {};
  });
  EXPECT_TRUE(result.same_as(x));
}

TEST(TirFunctor, TransformSeesEveryExpressionOnce) {
  Var x = var("x"), y = var("y");
  int calls = 0;
  PrimExpr e = (x + y) * 2;
  PrimExpr result = transform(e, [&](const PrimExpr& node) -> PrimExpr {
    ++calls;
    if (const int64_t* c = as_const_int(node)) return int_imm(node->dtype, *c + 1);
    return node;
  });
  EXPECT_EQ(calls, 5);
  expect_struct_eq(result, (x + y) * 3);
}

TEST(TirFunctor, TransformOnStatementsReachesBufferShapes) {
  Var n = var("n"), i = var("i");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Stmt result = transform(copy_loop(i, A, B, n), [&](const PrimExpr& e) -> PrimExpr {
    return e.same_as(n) ? i64(16) : PrimExpr();
  });
  Buffer A16 = buffer("A", kF32, {i64(16)}), B16 = buffer("B", kF32, {i64(16)});
  expect_struct_eq(result, copy_loop(i, A16, B16, i64(16)));
}

class AddToSub final : public Mutator {
 private:
  PrimExpr mutate_node(const AddNode* node) override {
    Ref<AddNode> rebuilt = mutate_children(node);
    return sub(rebuilt->a, rebuilt->b);
  }
};

TEST(TirFunctor, MutatorOverridesOneKind) {
  Var x = var("x"), y = var("y");
  AddToSub add_to_sub;
  expect_struct_eq(add_to_sub.mutate((x + y) * (x + (y + 1))), (x - y) * (x - (y - 1)));
  PrimExpr no_add = x * y - 1;
  EXPECT_TRUE(add_to_sub.mutate(no_add).same_as(no_add));
}

// Asking for a node of one kind back from a rewrite that changes its kind is a bug in
// the caller, reported as an internal error an embedding program can catch.
TEST(TirFunctor, MutatorChangingTheRequestedKindThrowsInternalError) {
  Var x = var("x"), y = var("y");
  Ref<AddNode> sum = (x + y).cast<AddNode>();
  ASSERT_TRUE(sum.defined());
  AddToSub add_to_sub;
  try {
    add_to_sub.mutate(sum);
    FAIL() << "expected an InternalError";
  } catch (const InternalError& e) {
    EXPECT_EQ(e.condition(), "typed != nullptr || !result.defined()");
    EXPECT_EQ(e.message(), "a mutator replaced a TirAdd by a TirSub");
    EXPECT_TRUE(e.file().ends_with("ir/tir/functor.h")) << e.file();
  }
}

TEST(TirFunctor, DefaultMutatorKeepsEveryNode) {
  Var n = var("n"), i = var("i");
  Buffer A = buffer("A", kF32, {n}), B = buffer("B", kF32, {n});
  Stmt loop = copy_loop(i, A, B, n);
  Mutator identity;
  EXPECT_TRUE(identity.mutate(loop).same_as(loop));
}

// Runs fn on a new thread with a stack of `stack_bytes`, so that how deep a walk can go
// does not depend on the test runner's stack limit; rethrows what fn throws.
void run_with_stack(size_t stack_bytes, const std::function<void()>& fn) {
  struct Job {
    const std::function<void()>* fn;
    std::exception_ptr error;
  } job{&fn, nullptr};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    auto* job = static_cast<Job*>(arg);
    try {
      (*job->fn)();
    } catch (...) {
      job->error = std::current_exception();
    }
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, &job), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (job.error) std::rethrow_exception(job.error);
}

// x + 1 + 1 + ... (`depth` additions). Every level is kept in `levels`, to be released
// from the top one node at a time: releasing a long chain at once would recurse
// through the nodes' destructors.
PrimExpr chain(const Var& x, int depth, std::vector<PrimExpr>& levels) {
  levels.push_back(x);
  for (int i = 0; i < depth; ++i) levels.push_back(levels.back() + 1);
  return levels.back();
}

void release(std::vector<PrimExpr>& levels) {
  while (!levels.empty()) levels.pop_back();
}

TEST(TirFunctor, DeepNestingIsWalked) {
  constexpr int kDepth = 500;
  Var x = var("x"), y = var("y");
  std::vector<PrimExpr> levels;
  PrimExpr e = chain(x, kDepth, levels);
  PrimExpr expected = chain(y, kDepth, levels);
  run_with_stack(8 << 20, [&] {
    int nodes = 0;
    post_order_visit(e, [&](const Ref<Object>&) { ++nodes; });
    EXPECT_EQ(nodes, 2 * kDepth + 1);
    expect_struct_eq(substitute(e, VarMap{{x, y}}), expected);
  });
  e = expected = PrimExpr();
  release(levels);
}

TEST(TirFunctor, NestingBeyondTheStackIsAUserError) {
  Var x = var("x");
  std::vector<PrimExpr> levels;
  PrimExpr e = chain(x, 100000, levels);
  // 10^5 levels take far more than 4 MiB of stack at any optimization level.
  run_with_stack(4 << 20, [&] {
    try {
      post_order_visit(e, [](const Ref<Object>&) {});
      ADD_FAILURE() << "expected a UserError";
    } catch (const UserError& error) {
      EXPECT_NE(std::string(error.what()).find("nests too deeply here"), std::string::npos)
          << error.what();
    }
    EXPECT_THROW(substitute(e, VarMap{{x, var("y")}}), UserError);
  });
  e = PrimExpr();
  release(levels);
}

}  // namespace
}  // namespace relaxc::tir
