// prefetch_tile_copies: the copies to shared memory at the head of a loop annotated
// "prefetch_tile_copies" (the matmul rule's k loop) load the next iteration's tiles into
// registers while this iteration computes, so that the wait on global memory overlaps the
// arithmetic (software pipelining in two stages, through registers).
//
// Algorithm: the loop's body (inside the allocations of its tiles) must start with tile
// copies, each a nest of loops of constant
// extents (serial, unrolled or vectorized) around one store into a "shared" buffer,
// possibly under a condition, whose value and condition read no "shared" or "local"
// buffer; the rest of the body follows them. Each copy gets a "local" buffer of its nest's
// size and splits in two: a load of its values into the registers (the same nest, fresh
// loop variables, the value at a given k) and a store of the registers into shared memory
// (the original nest). With k the loop variable, min and extent its range:
//
//   load(k = min)                                 // the first tiles
//   for k: store                                  // registers -> shared
//          if k < min + extent - 1: load(k + 1)   // next tiles in flight ...
//          rest                                   // ... while this one computes
//
// (the first load in a loop of min(extent, 1) iterations where the extent may be 0). The
// pass runs after compact-buffer-allocations, on tiles whose indices no longer depend
// on k (their allocations, at the head of the loop's body, stay there), and after
// insert-shared-barriers: the stores take the copies' place before the barrier that
// follows them, and the body still ends with the barrier before the next stores. (The
// loop is not rotated to drop the test of k: the last iteration's copy of the work after
// the loop took ptxas from 119 to 201 registers for a matmul tile with guarded rows.)
// Each element is still loaded from global memory once; the registers hold one tile's
// share per thread. A loop whose body does not have that form keeps it (the annotation
// is a request, not a promise); the annotation is dropped either way.
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

constexpr const char* kAnnotation = "prefetch_tile_copies";

// A tile copy: its loops (outermost first), the condition around its store (or null) and
// the store.
struct TileCopy {
  std::vector<const ForNode*> loops;
  PrimExpr condition;
  const BufferStoreNode* store = nullptr;
};

bool reads_on_chip_memory(const Ref<Object>& node) {
  bool found = false;
  post_order_visit(node, [&](const Ref<Object>& n) {
    const auto* load = n.as<BufferLoadNode>();
    found = found || (load != nullptr && load->buffer->scope != "global");
  });
  return found;
}

std::optional<TileCopy> as_tile_copy(const Stmt& stmt) {
  TileCopy copy;
  Stmt s = stmt;
  while (const auto* loop = s.as<ForNode>()) {
    bool plain_kind = loop->kind == ForKind::Serial || loop->kind == ForKind::Unrolled ||
                      loop->kind == ForKind::Vectorized;
    if (!plain_kind || as_const_int(loop->extent) == nullptr ||
        as_const_int(loop->min) == nullptr) {
      return std::nullopt;
    }
    copy.loops.push_back(loop);
    s = loop->body;
  }
  if (const auto* branch = s.as<IfThenElseNode>()) {
    if (branch->else_case.defined() || reads_on_chip_memory(branch->condition)) return std::nullopt;
    copy.condition = branch->condition;
    s = branch->then_case;
  }
  copy.store = s.as<BufferStoreNode>();
  if (copy.store == nullptr || copy.store->buffer->scope != "shared" ||
      reads_on_chip_memory(copy.store->value)) {
    return std::nullopt;
  }
  return copy;
}

// The copy's nest around `body` (built from the substitution of its loop variables),
// with fresh loop variables where `fresh`.
Stmt copy_nest(const TileCopy& copy, bool fresh, VarMap substitution,
               const std::function<Stmt(const VarMap&)>& body) {
  std::vector<Var> vars;
  for (const ForNode* loop : copy.loops) {
    Var v = fresh ? var(loop->loop_var->name + "_next", loop->loop_var->dtype) : loop->loop_var;
    if (fresh) substitution[loop->loop_var] = v;
    vars.push_back(v);
  }
  Stmt result = body(substitution);
  for (size_t i = copy.loops.size(); i-- > 0;) {
    const ForNode* loop = copy.loops[i];
    result = for_loop(vars[i], loop->min, loop->extent, loop->kind, result, "", loop->annotations,
                      loop->span);
  }
  return result;
}

class TileCopyPrefetcher final : public Mutator {
 private:
  Stmt mutate_node(const ForNode* node) override {
    Stmt result = mutate_children(node);
    const auto* loop = result.as<ForNode>();
    if (loop->annotations.find(kAnnotation) == nullptr) return result;
    auto* plain = copy_node(*loop);
    plain->annotations = loop->annotations.without(kAnnotation);
    For without_request(plain);
    return prefetch(without_request).value_or(without_request);
  }

  std::optional<Stmt> prefetch(const For& loop) {
    // The tiles' allocations (compacted to one iteration's region) around the body.
    std::vector<Buffer> tiles;
    Stmt inner = loop->body;
    while (const auto* alloc = inner.as<AllocateNode>()) {
      tiles.push_back(alloc->buffer);
      inner = alloc->body;
    }
    std::vector<Stmt> body;
    if (const auto* seq = inner.as<SeqStmtNode>()) {
      body = seq->seq;
    } else {
      body = {inner};
    }
    std::vector<TileCopy> copies;
    while (copies.size() < body.size()) {
      std::optional<TileCopy> copy = as_tile_copy(body[copies.size()]);
      if (!copy) break;
      copies.push_back(*copy);
    }
    // Nothing to overlap: no copies, nothing but copies, or no next iteration.
    const int64_t* extent = as_const_int(loop->extent);
    if (copies.empty() || copies.size() == body.size() || (extent != nullptr && *extent < 2)) {
      return std::nullopt;
    }

    const Var& k = loop->loop_var;
    std::vector<Stmt> first_loads, stores, next_loads;
    std::vector<Buffer> registers;
    for (const TileCopy& copy : copies) {
      int64_t size = 1;
      for (const ForNode* l : copy.loops) size *= *as_const_int(l->extent);
      const Buffer& tile = copy.store->buffer;
      Buffer regs = buffer(tile->name + "_next", tile->dtype, {int_imm(k->dtype, size)}, "local",
                           copy.store->span);
      registers.push_back(regs);
      // The copy's element as an offset into its registers, row-major over its nest.
      auto element = [&](const VarMap& vars) {
        PrimExpr offset = int_imm(k->dtype, 0);
        for (const ForNode* l : copy.loops) {
          PrimExpr v = substitute(PrimExpr(l->loop_var), vars);
          offset = offset * l->extent + (v - l->min);
        }
        return arith::simplify(offset);
      };
      auto load = [&](PrimExpr at) {
        return copy_nest(copy, true, {{k, std::move(at)}}, [&](const VarMap& vars) {
          Stmt store = buffer_store(regs, substitute(copy.store->value, vars), {element(vars)},
                                    copy.store->span);
          if (!copy.condition.defined()) return store;
          return if_then_else(substitute(copy.condition, vars), store);
        });
      };
      first_loads.push_back(load(loop->min));
      next_loads.push_back(load(PrimExpr(k) + 1));
      stores.push_back(copy_nest(copy, false, {}, [&](const VarMap& vars) {
        Stmt store = buffer_store(tile, buffer_load(regs, {element(vars)}), copy.store->indices,
                                  copy.store->span);
        if (!copy.condition.defined()) return store;
        return if_then_else(copy.condition, store);
      }));
    }
    std::vector<Stmt> new_body = stores;
    new_body.push_back(if_then_else(lt(k, loop->min + loop->extent - 1), seq_stmt(next_loads)));
    new_body.insert(new_body.end(), body.begin() + static_cast<std::ptrdiff_t>(copies.size()),
                    body.end());
    Stmt new_inner = seq_stmt(new_body);
    for (size_t i = tiles.size(); i-- > 0;) new_inner = allocate(tiles[i], new_inner);
    Stmt first = seq_stmt(first_loads);
    // Where the extent may be 0, the first loads run in a loop of min(extent, 1)
    // iterations: none then, and counted exactly (kernel_counts), where a condition on
    // the extent would leave the counts an upper bound.
    if (extent == nullptr) {
      first = for_loop(var(k->name + "_first", k->dtype), int_imm(k->dtype, 0),
                       min(loop->extent, int_imm(loop->extent->dtype, 1)), ForKind::Serial, first);
    }
    Stmt pipelined = seq_stmt({first, for_loop(k, loop->min, loop->extent, loop->kind, new_inner,
                                               loop->thread_tag, loop->annotations, loop->span)});
    for (size_t i = registers.size(); i-- > 0;) pipelined = allocate(registers[i], pipelined);
    return pipelined;
  }
};

}  // namespace

PrimFunc prefetch_tile_copies(const PrimFunc& kernel) {
  Stmt body = TileCopyPrefetcher().mutate(kernel->body);
  if (body.same_as(kernel->body)) return kernel;
  auto* result = copy_node(*kernel);
  result->body = body;
  return PrimFunc(result);
}

}  // namespace relaxc::tir
