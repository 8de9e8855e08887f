// compact_buffer_allocations: a kernel's "shared"/"local" buffers shrink to what one
// block (shared) or one thread (local) touches, allocated where they are used.
//
// Algorithm, per Allocate (inner ones first): walk down from the Allocate while a single
// child statement holds every access of its buffer; that statement is the new place of
// the allocation, and the loops passed on the way stay fixed. The vars that vary within
// one allocation are the loops below that place, plus the threadIdx vars for a "shared"
// buffer (all threads of a block share it). Per dimension, the offset is the first
// access's index with those vars at their minimum; an access fits when
// index - offset lies in [0, bound] for every value of the vars (arith's bounds, with
// every loop's range known): the extent is the largest bound + 1. A dimension whose
// offset uses vars out of scope at the new place, or whose accesses cannot be bounded,
// keeps its extent (flatten_buffers then asks for it to be constant). Accesses are
// rewritten to index - offset.
#include <unordered_set>

#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

using VarSet = std::unordered_set<const VarNode*>;

bool touches(const Stmt& stmt, const VarNode* data) {
  if (!stmt.defined()) return false;
  bool found = false;
  post_order_visit(stmt, [&](const Ref<Object>& n) {
    if (const auto* load = n.as<BufferLoadNode>(); load && load->buffer->data.get() == data) {
      found = true;
    } else if (const auto* store = n.as<BufferStoreNode>();
               store && store->buffer->data.get() == data) {
      found = true;
    }
  });
  return found;
}

struct Access {
  std::vector<PrimExpr> indices;
};

// The accesses of one buffer under a statement, and the loops below it.
class AccessCollector final : public Visitor {
 public:
  explicit AccessCollector(const VarNode* data) : data_(data) {}
  std::vector<Access> accesses;
  std::vector<const ForNode*> loops;
  std::vector<const VarNode*> lets;

 private:
  void visit_node(const ForNode* node) override {
    loops.push_back(node);
    Visitor::visit_node(node);
  }
  void visit_node(const LetStmtNode* node) override {
    lets.push_back(node->var.get());
    Visitor::visit_node(node);
  }
  void visit_node(const BufferLoadNode* node) override {
    if (node->buffer->data.get() == data_) accesses.push_back({node->indices});
    Visitor::visit_node(node);
  }
  void visit_node(const BufferStoreNode* node) override {
    if (node->buffer->data.get() == data_) accesses.push_back({node->indices});
    Visitor::visit_node(node);
  }

  const VarNode* data_;
};

class AccessShifter final : public Mutator {
 public:
  AccessShifter(const Buffer& from, const Buffer& to, const std::vector<PrimExpr>& offsets)
      : from_(from), to_(to), offsets_(offsets) {}

 private:
  std::vector<PrimExpr> shifted(const std::vector<PrimExpr>& indices) {
    std::vector<PrimExpr> out;
    for (size_t d = 0; d < indices.size(); ++d) {
      PrimExpr i = mutate(indices[d]);
      out.push_back(d < offsets_.size() && offsets_[d].defined() ? sub(i, offsets_[d]) : i);
    }
    return out;
  }
  PrimExpr mutate_node(const BufferLoadNode* node) override {
    if (!node->buffer.same_as(from_)) return Mutator::mutate_node(node);
    return buffer_load(to_, shifted(node->indices), node->span);
  }
  Stmt mutate_node(const BufferStoreNode* node) override {
    if (!node->buffer.same_as(from_)) return Mutator::mutate_node(node);
    return buffer_store(to_, mutate(node->value), shifted(node->indices), node->span);
  }

  Buffer from_, to_;
  const std::vector<PrimExpr>& offsets_;
};

class Compactor final : public Mutator {
 public:
  explicit Compactor(const PrimFunc& kernel) {
    for (const Var& p : kernel->params) in_scope_.insert(p.get());
  }

 private:
  Stmt mutate_node(const ForNode* node) override {
    fixed_loops_.push_back(node);
    in_scope_.insert(node->loop_var.get());
    if (node->kind == ForKind::ThreadBinding && is_thread_index(node->thread_tag)) {
      thread_loops_.push_back(node);
    }
    Stmt result = Mutator::mutate_node(node);
    fixed_loops_.pop_back();
    return result;
  }

  Stmt mutate_node(const LetStmtNode* node) override {
    in_scope_.insert(node->var.get());
    return Mutator::mutate_node(node);
  }

  Stmt mutate_node(const AllocateNode* node) override {
    Stmt body = mutate(node->body);
    if (node->buffer->scope == "global") return allocate(node->buffer, body, node->span);
    if (!touches(body, node->buffer->data.get())) return body;
    size_t depth = fixed_loops_.size();
    Stmt placed = place(body, node);
    fixed_loops_.resize(depth);
    return placed;
  }

  // Descends while one child holds every access, then compacts there.
  Stmt place(const Stmt& stmt, const AllocateNode* alloc) {
    const VarNode* data = alloc->buffer->data.get();
    if (const auto* loop = stmt.as<ForNode>()) {
      fixed_loops_.push_back(loop);
      in_scope_.insert(loop->loop_var.get());
      return for_loop(loop->loop_var, loop->min, loop->extent, loop->kind, place(loop->body, alloc),
                      loop->thread_tag, loop->annotations, loop->span);
    }
    if (const auto* seq = stmt.as<SeqStmtNode>()) {
      int holder = -1;
      for (size_t i = 0; i < seq->seq.size(); ++i) {
        if (!touches(seq->seq[i], data)) continue;
        if (holder >= 0) return compact_at(stmt, alloc);
        holder = static_cast<int>(i);
      }
      std::vector<Stmt> items = seq->seq;
      items[static_cast<size_t>(holder)] = place(items[static_cast<size_t>(holder)], alloc);
      return seq_stmt(items, seq->span);
    }
    if (const auto* let = stmt.as<LetStmtNode>()) {
      in_scope_.insert(let->var.get());
      return let_stmt(let->var, let->value, place(let->body, alloc), let->span);
    }
    if (const auto* inner = stmt.as<AllocateNode>()) {
      return allocate(inner->buffer, place(inner->body, alloc), inner->span);
    }
    return compact_at(stmt, alloc);
  }

  Stmt compact_at(const Stmt& stmt, const AllocateNode* alloc) {
    const Buffer& buf = alloc->buffer;
    AccessCollector collector(buf->data.get());
    collector.visit(stmt);
    arith::Analyzer analyzer;
    for (const ForNode* loop : fixed_loops_) {
      analyzer.bind(loop->loop_var, range(loop->min, loop->extent));
    }
    for (const ForNode* loop : collector.loops) {
      analyzer.bind(loop->loop_var, range(loop->min, loop->extent));
    }
    VarMap at_min;
    for (const ForNode* loop : collector.loops) at_min[loop->loop_var] = loop->min;
    if (buf->scope == "shared") {
      for (const ForNode* loop : thread_loops_) at_min[loop->loop_var] = loop->min;
    }
    std::vector<PrimExpr> shape = buf->shape;
    std::vector<PrimExpr> offsets(shape.size());
    bool changed = false;
    for (size_t d = 0; d < shape.size(); ++d) {
      if (collector.accesses.empty() || collector.accesses[0].indices.size() != shape.size()) {
        break;
      }
      PrimExpr offset = analyzer.simplify(substitute(collector.accesses[0].indices[d], at_min));
      bool in_scope = true;
      post_order_visit(offset, [&](const Ref<Object>& n) {
        if (const auto* v = n.as<VarNode>(); v != nullptr && in_scope_.count(v) == 0) {
          in_scope = false;
        }
      });
      if (!in_scope) continue;
      int64_t largest = -1;
      for (const Access& access : collector.accesses) {
        if (access.indices.size() != shape.size()) {
          largest = -1;
          break;
        }
        arith::ConstIntBound b = analyzer.const_int_bound(sub(access.indices[d], offset));
        if (b.min < 0 || b.max == arith::ConstIntBound::kPosInf) {
          largest = -1;
          break;
        }
        largest = std::max(largest, b.max);
      }
      if (largest < 0) continue;
      const int64_t* original = as_const_int(shape[d]);
      if (original != nullptr && largest + 1 >= *original && is_const_int(offset, 0)) continue;
      if (original != nullptr && largest + 1 > *original) continue;
      shape[d] = int_imm(shape[d]->dtype, largest + 1);
      offsets[d] = is_const_int(offset, 0) ? PrimExpr() : offset;
      changed = true;
    }
    if (!changed) return allocate(buf, stmt, alloc->span);
    auto* node = copy_node(*buf);
    node->shape = shape;
    Buffer compact(node);
    AccessShifter shifter(buf, compact, offsets);
    return allocate(compact, shifter.mutate(stmt), alloc->span);
  }

  std::vector<const ForNode*> fixed_loops_;
  std::vector<const ForNode*> thread_loops_;
  VarSet in_scope_;
};

}  // namespace

PrimFunc compact_buffer_allocations(const PrimFunc& kernel) {
  Compactor compactor(kernel);
  Stmt body = compactor.mutate(kernel->body);
  if (body.same_as(kernel->body)) return kernel;
  auto* result = copy_node(*kernel);
  result->body = body;
  return PrimFunc(result);
}

}  // namespace relaxc::tir
