// compute_inline and reverse_compute_inline: remove an injective block by substituting
// its computation into its neighbours, so that its buffer never exists.
//
// Both take a spatial block (no reduction iteration variable, no init, no predicate, no
// buffers of its own) whose body is one store.
//
// compute_inline(P), P being `B[v0, ..., vn] = f(v)` with its indices its iteration
// variables, each once (so that every element of B is one iteration of P): every load
// B[e0, ..., en] elsewhere becomes f with vi := ei, P and its own loops are removed, and
// so is B's allocation. B must be allocated (not a parameter: its values are the
// function's result) and written by P alone; no block after P may write what P reads (the
// consumers would see the new values), and no block before P may read B.
//
// reverse_compute_inline(C), C being `D[g(w)] = h(w, B[w0, ..., wm])` where B is the one
// buffer C reads that a block writes, its producer P (`B[p] = f(...)`, injective as above
// except that its indices may be any expressions) the only writer: every load of B in C
// reads it at the same indices, C's iteration variables each once, each ranging over the
// whole dimension of B; then P's store becomes `D[g(p)] = h(p, f(...))` (wi := pi), C
// and its loops are removed, and so is B. B must be allocated and read by C alone; no
// block between P and C may touch D or write what C reads.
//
// The regions of the blocks whose accesses change are derived again from their bodies.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// A block that one of the inlining primitives may remove or rewrite.
struct InjectiveBlock {
  StmtPath path;  // to its realize
  Block block;
  const BufferStoreNode* store = nullptr;
};

InjectiveBlock check_injective(const PrimFunc& func, const std::string& name,
                               const char* primitive) {
  InjectiveBlock site;
  site.path = find_block_path(func->body, name);
  if (site.path.empty() || is_root(func, site.path.back().as<BlockRealizeNode>())) {
    user_error(func->span) << primitive << ": no block named '" << name << "' in the function";
  }
  const auto& realize = site.path.back().cast<BlockRealizeNode>();
  site.block = realize->block;
  const BlockNode& block = *site.block;
  for (const IterVar& iv : block.iter_vars) {
    if (iv->kind != IterKind::Spatial) {
      user_error(block.span) << primitive << ": block '" << name << "' has the "
                             << iter_kind_name(iv->kind) << " iteration variable '" << iv->var->name
                             << "'; only a spatial block can be inlined";
    }
  }
  if (block.init.defined()) {
    user_error(block.span) << primitive << ": block '" << name
                           << "' has a T.init; only a spatial block can be inlined";
  }
  if (!is_true_predicate(realize->predicate)) {
    user_error(block.span) << primitive << ": block '" << name
                           << "' has a predicate; inlining would compute it everywhere";
  }
  if (!block.alloc_buffers.empty() || !block.match_buffers.empty()) {
    user_error(block.span) << primitive << ": block '" << name
                           << "' allocates or matches buffers of its own";
  }
  site.store = block.body.as<BufferStoreNode>();
  if (site.store == nullptr) {
    user_error(block.span) << primitive << ": the body of block '" << name
                           << "' is not a single buffer store";
  }
  return site;
}

bool is_param(const PrimFunc& func, const Buffer& buffer) {
  return std::any_of(func->buffer_map.begin(), func->buffer_map.end(),
                     [&](const auto& entry) { return entry.second.same_as(buffer); });
}

// The blocks of the function other than the root, in program order.
std::vector<Block> all_blocks(const PrimFunc& func) {
  std::vector<Block> blocks;
  for (const BlockRealize& realize : blocks_under(func->body)) {
    if (!is_root(func, realize.get())) blocks.push_back(realize->block);
  }
  return blocks;
}

size_t index_of(const std::vector<Block>& blocks, const Block& block) {
  return static_cast<size_t>(
      std::find_if(blocks.begin(), blocks.end(), [&](const Block& b) { return b.same_as(block); }) -
      blocks.begin());
}

std::vector<Ref<BufferLoadNode>> loads_of(const Ref<Object>& root, const BufferNode* buffer) {
  std::vector<Ref<BufferLoadNode>> loads;
  post_order_visit(root, [&](const Ref<Object>& node) {
    if (const auto* load = node.as<BufferLoadNode>();
        load != nullptr && load->buffer.get() == buffer)
      loads.emplace_back(load);
  });
  return loads;
}

// The removed buffer's last traces: each load of it becomes `store`'s value (its indices
// its iteration variables) at the load's indices, when `store` is given, its allocation and write
// regions go, and blocks that listed it among their reads get their reads derived again.
class BufferEraser : public Mutator {
 public:
  BufferEraser(const BufferNode* buffer, const BufferStoreNode* store)
      : buffer_(buffer), store_(store) {}

 protected:
  PrimExpr mutate_node(const BufferLoadNode* node) override {
    PrimExpr rebuilt = Mutator::mutate_node(node);
    const auto* load = rebuilt.as<BufferLoadNode>();
    if (store_ == nullptr || load == nullptr || load->buffer.get() != buffer_) return rebuilt;
    VarMap map;
    for (size_t d = 0; d < load->indices.size(); ++d) {
      map[Var(store_->indices[d].as<VarNode>())] = load->indices[d];
    }
    return substitute(store_->value, map);
  }

  Stmt mutate_node(const BlockNode* node) override {
    Stmt rebuilt = Mutator::mutate_node(node);
    const auto& block = rebuilt.cast<BlockNode>();
    BufferSet erased{buffer_};
    bool allocates = std::any_of(block->alloc_buffers.begin(), block->alloc_buffers.end(),
                                 [&](const Buffer& b) { return b.get() == buffer_; });
    bool reads = touches_any(block->reads, erased);
    if (!allocates && !reads && !touches_any(block->writes, erased)) return rebuilt;
    auto* copy = copy_node(*block);
    std::erase_if(copy->alloc_buffers, [&](const Buffer& b) { return b.get() == buffer_; });
    std::erase_if(copy->writes, [&](const BufferRegion& r) { return r->buffer.get() == buffer_; });
    if (reads) complete_block_regions(copy, /*reads=*/true, /*writes=*/false);
    return Stmt(copy);
  }

 private:
  const BufferNode* buffer_;
  const BufferStoreNode* store_;
};

// `body` without the block at `path` and its own loops.
Stmt remove_block(const Stmt& body, const std::string& name, const char* primitive) {
  StmtPath nest = own_nest_path(find_block_path(body, name));
  if (nest.size() < 2 || !nest[nest.size() - 2].is<SeqStmtNode>()) {
    user_error(nest.back()->span) << primitive << ": block '" << name
                                  << "' is the only statement of its scope; nothing would be left";
  }
  return replace_in_path(nest, Stmt());
}

PrimFunc erase_buffer(const PrimFunc& func, Stmt body, const BufferNode* buffer,
                      const BufferStoreNode* store) {
  BufferEraser eraser(buffer, store);
  return with_body(func, eraser.mutate(body));
}

}  // namespace

void Schedule::compute_inline(const BlockRef& block) {
  InjectiveBlock site = check_injective(func_, block.name, "compute_inline");
  const BufferStoreNode& store = *site.store;
  const Buffer& buffer = store.buffer;
  if (is_param(func_, buffer)) {
    user_error(site.block->span) << "compute_inline: block '" << block.name << "' writes '"
                                 << buffer->name
                                 << "', a parameter of the function; its values are a result";
  }
  std::vector<const VarNode*> seen;
  bool indices_are_iter_vars = store.indices.size() == site.block->iter_vars.size();
  for (const PrimExpr& index : store.indices) {
    const auto* v = index.as<VarNode>();
    bool is_iter = std::any_of(site.block->iter_vars.begin(), site.block->iter_vars.end(),
                               [&](const IterVar& iv) { return iv->var.get() == v; });
    if (v == nullptr || !is_iter || std::count(seen.begin(), seen.end(), v) != 0) {
      indices_are_iter_vars = false;
      break;
    }
    seen.push_back(v);
  }
  if (!indices_are_iter_vars) {
    user_error(store.span) << "compute_inline: block '" << block.name << "' stores to '"
                           << buffer->name
                           << "' at indices that are not its iteration variables, each once";
  }
  std::vector<Block> blocks = all_blocks(func_);
  size_t order = index_of(blocks, site.block);
  BufferSet written{buffer.get()};
  BufferSet inputs = buffers_of(site.block->reads);
  for (size_t i = 0; i < blocks.size(); ++i) {
    const BlockNode& other = *blocks[i];
    if (i == order) continue;
    if (touches_any(other.writes, written)) {
      user_error(site.block->span) << "compute_inline: '" << buffer->name
                                   << "' is also written by block '" << other.name << "'";
    }
    if (i < order && touches_any(other.reads, written)) {
      user_error(site.block->span)
          << "compute_inline: block '" << other.name << "' reads '" << buffer->name
          << "' before block '" << block.name << "' writes it";
    }
    for (const BufferRegion& region : other.writes) {
      if (i > order && inputs.count(region->buffer.get()) != 0) {
        user_error(site.block->span)
            << "compute_inline: block '" << other.name << "' writes '" << region->buffer->name
            << "', which block '" << block.name
            << "' reads, after it; the inlined loads would see the new values";
      }
    }
  }
  Stmt body = remove_block(func_->body, block.name, "compute_inline");
  func_ = erase_buffer(func_, body, buffer.get(), &store);
}

void Schedule::reverse_compute_inline(const BlockRef& block) {
  constexpr const char* kPrimitive = "reverse_compute_inline";
  InjectiveBlock consumer = check_injective(func_, block.name, kPrimitive);
  const BlockNode& c = *consumer.block;
  std::vector<Block> blocks = all_blocks(func_);
  size_t c_order = index_of(blocks, consumer.block);
  // The producer: the one block that writes a buffer `block` reads.
  std::vector<Buffer> produced;
  for (const BufferRegion& read : c.reads) {
    BufferSet one{read->buffer.get()};
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (i != c_order && touches_any(blocks[i]->writes, one)) {
        produced.push_back(read->buffer);
        break;
      }
    }
  }
  if (produced.size() != 1) {
    auto error = user_error(c.span);
    error << kPrimitive << ": block '" << block.name << "' reads " << produced.size()
          << " buffers that other blocks write";
    for (size_t i = 0; i < produced.size(); ++i) {
      error << (i == 0 ? " ('" : ", '") << produced[i]->name << "'"
            << (i + 1 == produced.size() ? ")" : "");
    }
    error << "; it needs exactly one producer";
  }
  const Buffer& buffer = produced.front();
  if (is_param(func_, buffer)) {
    user_error(c.span) << kPrimitive << ": '" << buffer->name
                       << "' is a parameter of the function; its values are a result";
  }
  BufferSet b_set{buffer.get()};
  std::vector<size_t> writers;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (i == c_order) continue;
    if (touches_any(blocks[i]->writes, b_set)) writers.push_back(i);
    if (!touches_any(blocks[i]->writes, b_set) && touches_any(blocks[i]->reads, b_set)) {
      user_error(c.span) << kPrimitive << ": '" << buffer->name << "' is also read by block '"
                         << blocks[i]->name << "'; it must stay";
    }
  }
  if (writers.size() != 1) {
    user_error(c.span) << kPrimitive << ": '" << buffer->name << "' is written by "
                       << writers.size() << " blocks ('" << blocks[writers[0]]->name << "', '"
                       << blocks[writers[1]]->name << "', ...); it needs a single producer";
  }
  size_t p_order = writers.front();
  if (p_order > c_order) {
    user_error(c.span) << kPrimitive << ": block '" << block.name << "' reads '" << buffer->name
                       << "' before its producer '" << blocks[p_order]->name << "' writes it";
  }
  InjectiveBlock producer = check_injective(func_, blocks[p_order]->name, kPrimitive);
  // The loads of B: all at the same indices, the consumer's iteration variables.
  std::vector<Ref<BufferLoadNode>> loads = loads_of(c.body, buffer.get());
  bool simple = !loads.empty() && loads.front()->indices.size() == c.iter_vars.size();
  VarMap to_producer;
  arith::Analyzer analyzer;
  for (size_t d = 0; simple && d < loads.front()->indices.size(); ++d) {
    const auto* v = loads.front()->indices[d].as<VarNode>();
    auto iv = std::find_if(c.iter_vars.begin(), c.iter_vars.end(),
                           [&](const IterVar& it) { return it->var.get() == v; });
    simple = v != nullptr && iv != c.iter_vars.end() && to_producer.count(Var(v)) == 0;
    if (!simple) break;
    if (!is_const_int((*iv)->dom->min, 0) ||
        !analyzer.can_prove_equal((*iv)->dom->extent, buffer->shape[d])) {
      user_error(c.span) << kPrimitive << ": block '" << block.name << "' reads only part of '"
                         << buffer->name << "' in dimension " << d
                         << "; the producer computes all of it";
    }
    to_producer[Var(v)] = producer.store->indices[d];
  }
  for (const Ref<BufferLoadNode>& load : loads) {
    simple = simple && structural_equal(load, loads.front());
  }
  if (!simple) {
    user_error(c.span) << kPrimitive << ": block '" << block.name << "' reads '" << buffer->name
                       << "' at indices that are not its iteration variables, each once";
  }
  BufferSet c_writes = buffers_of(c.writes);
  BufferSet c_reads = buffers_of(c.reads);
  for (size_t i = p_order + 1; i < c_order; ++i) {
    const BlockNode& other = *blocks[i];
    if (touches_any(other.reads, c_writes) || touches_any(other.writes, c_writes)) {
      user_error(c.span) << kPrimitive << ": block '" << other.name << "' between producer '"
                         << blocks[p_order]->name << "' and block '" << block.name << "' accesses '"
                         << consumer.store->buffer->name << "'";
    }
    for (const BufferRegion& region : other.writes) {
      if (c_reads.count(region->buffer.get()) != 0) {
        user_error(c.span) << kPrimitive << ": block '" << other.name << "' between producer '"
                           << blocks[p_order]->name << "' and block '" << block.name << "' writes '"
                           << region->buffer->name << "', which block '" << block.name << "' reads";
      }
    }
  }
  // The consumer's store at the producer's iteration, reading the producer's value.
  Stmt folded = substitute(c.body, to_producer);
  folded = transform(folded, [&](const PrimExpr& e) -> PrimExpr {
    const auto* load = e.as<BufferLoadNode>();
    return load != nullptr && load->buffer.same_as(buffer) ? producer.store->value : PrimExpr();
  });
  auto* rewritten = copy_node(*producer.block);
  rewritten->body = folded;
  rewritten->reads.clear();
  rewritten->writes.clear();
  complete_block_regions(rewritten, /*reads=*/true, /*writes=*/true);
  auto* realize = copy_node(*producer.path.back().cast<BlockRealizeNode>());
  realize->block = Block(rewritten);
  Stmt body = replace_in_path(producer.path, Stmt(realize));
  body = remove_block(body, block.name, kPrimitive);
  func_ = erase_buffer(func_, body, buffer.get(), nullptr);
}

}  // namespace relaxc::tir
