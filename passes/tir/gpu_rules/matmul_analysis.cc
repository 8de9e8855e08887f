// Recognizing a matmul and its epilogue (matmul_analysis.h). Every check is structural:
// the block's iteration variables, the indices of its loads and store, the form of its
// update; a function that differs anywhere is not a matmul to these rules.
#include "passes/tir/gpu_rules/matmul_analysis.h"

#include <algorithm>
#include <span>
#include <unordered_set>

#include "ir/structural_equal.h"
#include "ir/tir/functor.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// Whether the block of `realize` sits in its own perfect loop nest directly under the
// root block, one loop from 0 per iteration variable, bound to it alone, unpredicated.
bool in_own_nest(const PrimFunc& func, const BlockRealize& realize) {
  StmtPath path = find_block_path(func->body, realize->block->name);
  std::vector<For> loops = loops_on_path(StmtPath(path.begin(), path.end() - 1));
  const Block& block = realize->block;
  if (loops.size() != block->iter_vars.size() || !is_true_predicate(realize->predicate)) {
    return false;
  }
  for (size_t n = 0; n < loops.size(); ++n) {
    const Stmt& body = n + 1 < loops.size() ? Stmt(loops[n + 1]) : Stmt(realize);
    if (!loops[n]->body.same_as(body) || loops[n]->kind != ForKind::Serial ||
        !is_const_int(loops[n]->min, 0) || !is_const_int(block->iter_vars[n]->dom->min, 0) ||
        !structural_equal(loops[n]->extent, block->iter_vars[n]->dom->extent) ||
        !realize->iter_values[n].same_as(loops[n]->loop_var)) {
      return false;
    }
  }
  return true;
}

// Whether `indices` are exactly the variables of `iters` (in order).
bool indices_are(const std::vector<PrimExpr>& indices, const std::vector<Var>& iters) {
  if (indices.size() != iters.size()) return false;
  for (size_t n = 0; n < iters.size(); ++n) {
    if (!indices[n].same_as(iters[n])) return false;
  }
  return true;
}

// The positions of the iteration variables an operand's indices use; nullopt when an
// index is neither an iteration variable nor a constant.
std::optional<std::vector<size_t>> iters_used(const BufferLoadNode& load,
                                              const std::vector<IterVar>& iters) {
  std::vector<size_t> used;
  for (const PrimExpr& index : load.indices) {
    if (as_const_int(index) != nullptr) continue;
    auto it = std::find_if(iters.begin(), iters.end(),
                           [&](const IterVar& iv) { return index.same_as(iv->var); });
    if (it == iters.end()) return std::nullopt;
    used.push_back(static_cast<size_t>(it - iters.begin()));
  }
  return used;
}

bool contains(const std::vector<size_t>& v, size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// The matmul reduction `realize` as a match, without its epilogue.
std::optional<MatmulMatch> match_reduction(const BlockRealize& realize) {
  const Block& block = realize->block;
  MatmulMatch m;
  m.block = block->name;
  size_t reduce_count = 0;
  for (size_t n = 0; n < block->iter_vars.size(); ++n) {
    if (block->iter_vars[n]->kind == IterKind::Reduce) {
      m.k = n;
      ++reduce_count;
    }
  }
  std::optional<SumOfProducts> update = match_sum_of_products(*block);
  if (reduce_count != 1 || !update || update->spatial.size() < 2) return std::nullopt;
  m.c = update->c;
  const BufferLoadNode* lhs = operand_load(update->lhs);
  const BufferLoadNode* rhs = operand_load(update->rhs);
  if (lhs == nullptr || rhs == nullptr || lhs->buffer.same_as(rhs->buffer) ||
      lhs->buffer.same_as(m.c) || rhs->buffer.same_as(m.c)) {
    return std::nullopt;
  }
  std::optional<std::vector<size_t>> lhs_iters = iters_used(*lhs, block->iter_vars);
  std::optional<std::vector<size_t>> rhs_iters = iters_used(*rhs, block->iter_vars);
  if (!lhs_iters || !rhs_iters || !contains(*lhs_iters, m.k) || !contains(*rhs_iters, m.k)) {
    return std::nullopt;
  }
  // The output's last two dimensions are the row, which only A uses, and the column,
  // which only B uses (in either order); the others are batch dimensions.
  std::vector<size_t> spatial_positions;
  for (size_t n = 0; n < block->iter_vars.size(); ++n) {
    if (n != m.k) spatial_positions.push_back(n);
  }
  size_t first = spatial_positions[spatial_positions.size() - 2];
  size_t second = spatial_positions.back();
  auto only_in = [&](size_t n, const std::vector<size_t>& in, const std::vector<size_t>& out) {
    return contains(in, n) && !contains(out, n);
  };
  if (only_in(first, *lhs_iters, *rhs_iters) && only_in(second, *rhs_iters, *lhs_iters)) {
    m.i = first;
    m.j = second;
  } else if (only_in(second, *lhs_iters, *rhs_iters) && only_in(first, *rhs_iters, *lhs_iters)) {
    m.i = second;
    m.j = first;
  } else {
    return std::nullopt;
  }
  m.batch.assign(spatial_positions.begin(), spatial_positions.end() - 2);
  m.a = lhs->buffer;
  m.b = rhs->buffer;
  m.b_along_k = rhs->indices.back().same_as(block->iter_vars[m.k]->var);
  m.rows = block->iter_vars[m.i]->dom->extent;
  m.cols = block->iter_vars[m.j]->dom->extent;
  m.depth = block->iter_vars[m.k]->dom->extent;
  return m;
}

// Whether `realize` is an elementwise epilogue over C's shape: reads of `produced`
// buffers at its own output index, other reads of parameters only.
bool is_epilogue(const PrimFunc& func, const BlockRealize& realize, const Buffer& c,
                 std::span<const Buffer> operands,
                 const std::unordered_set<const BufferNode*>& produced) {
  const Block& block = realize->block;
  const auto* store = block->body.as<BufferStoreNode>();
  if (store == nullptr || block->init.defined() || block->iter_vars.size() != c->shape.size()) {
    return false;
  }
  std::vector<Var> iters;
  for (size_t n = 0; n < block->iter_vars.size(); ++n) {
    const IterVar& iv = block->iter_vars[n];
    if (iv->kind != IterKind::Spatial || !structural_equal(iv->dom->extent, c->shape[n])) {
      return false;
    }
    iters.push_back(iv->var);
  }
  if (!indices_are(store->indices, iters) || produced.count(store->buffer.get()) != 0 ||
      std::any_of(operands.begin(), operands.end(),
                  [&](const Buffer& b) { return store->buffer.same_as(b); })) {
    return false;
  }
  bool ok = true, reads_produced = false;
  post_order_visit(store->value, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr) return;
    if (produced.count(load->buffer.get()) != 0) {
      reads_produced = true;
      ok = ok && indices_are(load->indices, iters);
    } else {
      ok = ok && is_param(func, load->buffer) && !load->buffer.same_as(store->buffer);
    }
  });
  return ok && reads_produced;
}

}  // namespace

const BufferLoadNode* operand_load(const PrimExpr& e) {
  const PrimExprNode* node = e.get();
  if (const auto* cast = e.as<CastNode>()) node = cast->value.get();
  const auto* load = Ref<PrimExprNode>(node).as<BufferLoadNode>();
  return load != nullptr && load->dtype.is_float() && load->dtype.lanes() == 1 ? load : nullptr;
}

std::optional<std::vector<BlockRealize>> top_level_nests(const PrimFunc& func) {
  const BlockNode* root = root_block(func);
  if (root == nullptr || !root->match_buffers.empty()) return std::nullopt;
  std::vector<BlockRealize> top = child_blocks(root->body);
  if (top.empty() || blocks_under(func->body).size() != top.size() + 1) return std::nullopt;
  for (const BlockRealize& realize : top) {
    if (!in_own_nest(func, realize) || !realize->block->alloc_buffers.empty()) {
      return std::nullopt;
    }
  }
  return top;
}

std::optional<SumOfProducts> match_sum_of_products(const BlockNode& block) {
  SumOfProducts update;
  for (const IterVar& iv : block.iter_vars) {
    if (iv->kind == IterKind::Spatial) {
      update.spatial.push_back(iv->var);
    } else if (iv->kind != IterKind::Reduce) {
      return std::nullopt;
    }
  }
  const auto* store = block.body.as<BufferStoreNode>();
  const auto* init = block.init.defined() ? block.init.as<BufferStoreNode>() : nullptr;
  if (store == nullptr || init == nullptr) return std::nullopt;
  update.c = store->buffer;
  DataType acc = update.c->dtype;
  if (!acc.is_float() || acc.lanes() != 1 || (acc.bits() != 32 && acc.bits() != 16)) {
    return std::nullopt;
  }
  const auto* zero = init->value.as<FloatImmNode>();
  if (!init->buffer.same_as(update.c) || !indices_are(init->indices, update.spatial) ||
      !indices_are(store->indices, update.spatial) || zero == nullptr || zero->value != 0.0) {
    return std::nullopt;
  }
  const auto* add = store->value.as<AddNode>();
  if (add == nullptr) return std::nullopt;
  PrimExpr product = add->b;
  const auto* self = add->a.as<BufferLoadNode>();
  if (self == nullptr || !self->buffer.same_as(update.c)) {
    self = add->b.as<BufferLoadNode>();
    product = add->a;
  }
  const auto* mul = product.as<MulNode>();
  if (self == nullptr || !self->buffer.same_as(update.c) ||
      !indices_are(self->indices, update.spatial) || mul == nullptr) {
    return std::nullopt;
  }
  update.lhs = mul->a;
  update.rhs = mul->b;
  return update;
}

std::optional<std::vector<std::string>> match_epilogue(const PrimFunc& func,
                                                       const std::vector<BlockRealize>& top,
                                                       const Buffer& c,
                                                       std::span<const Buffer> operands) {
  std::vector<std::string> epilogue;
  std::unordered_set<const BufferNode*> produced = {c.get()};
  Buffer last = c;
  for (size_t n = 1; n < top.size(); ++n) {
    if (!is_epilogue(func, top[n], c, operands, produced)) return std::nullopt;
    // Everything before the last block stays inside the function.
    if (is_param(func, last)) return std::nullopt;
    last = top[n]->block->body.as<BufferStoreNode>()->buffer;
    produced.insert(last.get());
    epilogue.push_back(top[n]->block->name);
  }
  // The result leaves through a parameter.
  if (!is_param(func, last)) return std::nullopt;
  return epilogue;
}

std::optional<MatmulMatch> match_matmul(const PrimFunc& func) {
  std::optional<std::vector<BlockRealize>> top = top_level_nests(func);
  if (!top) return std::nullopt;
  std::optional<MatmulMatch> m = match_reduction(top->front());
  if (!m) return std::nullopt;
  const Buffer operands[] = {m->a, m->b};
  std::optional<std::vector<std::string>> epilogue = match_epilogue(func, *top, m->c, operands);
  if (!epilogue) return std::nullopt;
  m->epilogue = std::move(*epilogue);
  return m;
}

void set_intermediates_scope(Schedule& s, const MatmulMatch& m, const std::string& scope) {
  if (m.epilogue.empty()) return;
  s.set_scope(s.get_block(m.block), 0, scope);
  for (size_t e = 0; e + 1 < m.epilogue.size(); ++e) {
    s.set_scope(s.get_block(m.epilogue[e]), 0, scope);
  }
}

}  // namespace relaxc::tir
