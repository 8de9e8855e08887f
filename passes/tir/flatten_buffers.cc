// flatten_buffers: every buffer of a kernel becomes one-dimensional.
//
// Algorithm: one mutator maps each buffer to a flat buffer of the same name, dtype and
// scope whose one extent is the element count (row-major, or the reach of its strides),
// and rewrites each access's indices into one: ((i0 * d1 + i1) * d2 + i2) ... plus the
// buffer's element offset, or sum(i_k * stride_k) when strides are given. A "shared" or
// "local" Allocate must have a constant size after simplification. Allocates move to the
// top of the kernel, below its thread-bound loops: each is declared once per kernel, as
// the back ends do (their contents never outlive one use: every user writes first).
#include <algorithm>
#include <utility>

#include "ir/arith/analyzer.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

// Shapes, strides and indices may mix int32 and int64 (T.grid(n, 4) with an int64 n):
// the flat arithmetic is done in the widest of them.
DataType index_type(const BufferNode& buf, const std::vector<PrimExpr>& indices) {
  DataType t = DataType::Int(32);
  auto widen_to = [&](const PrimExpr& e) {
    if (e.defined() && e->dtype.bits() > t.bits()) t = e->dtype;
  };
  for (const PrimExpr& e : buf.shape) widen_to(e);
  for (const PrimExpr& e : buf.strides) widen_to(e);
  widen_to(buf.elem_offset);
  for (const PrimExpr& e : indices) widen_to(e);
  return t;
}

PrimExpr as_type(const PrimExpr& e, DataType t) {
  if (e->dtype == t) return e;
  if (const auto* imm = e.as<IntImmNode>()) return int_imm(t, imm->value);
  return cast(t, e);
}

PrimExpr flat_size(const BufferNode& buf) {
  if (buf.shape.empty()) return int_imm(DataType::Int(64), 1);
  DataType t = index_type(buf, {});
  if (buf.strides.empty()) {
    PrimExpr size = as_type(buf.shape[0], t);
    for (size_t d = 1; d < buf.shape.size(); ++d) size = mul(size, as_type(buf.shape[d], t));
    return arith::simplify(size);
  }
  // The last element's offset plus one.
  PrimExpr size = int_imm(t, 1);
  for (size_t d = 0; d < buf.shape.size() && d < buf.strides.size(); ++d) {
    size = add(size, mul(sub(as_type(buf.shape[d], t), int_imm(t, 1)), as_type(buf.strides[d], t)));
  }
  return arith::simplify(size);
}

PrimExpr flat_index(const BufferNode& buf, const std::vector<PrimExpr>& indices, Span span) {
  if (indices.size() != buf.shape.size()) {
    user_error(span) << "buffer '" << buf.name << "' has " << buf.shape.size()
                     << " dimension(s) but is accessed with " << indices.size() << " index(es)";
  }
  if (indices.empty()) return int_imm(DataType::Int(32), 0);
  DataType t = index_type(buf, indices);
  PrimExpr index;
  if (buf.strides.empty()) {
    index = as_type(indices[0], t);
    for (size_t d = 1; d < indices.size(); ++d) {
      index = add(mul(index, as_type(buf.shape[d], t)), as_type(indices[d], t));
    }
  } else {
    for (size_t d = 0; d < indices.size() && d < buf.strides.size(); ++d) {
      PrimExpr term = mul(as_type(indices[d], t), as_type(buf.strides[d], t));
      index = index.defined() ? add(index, term) : term;
    }
  }
  if (buf.elem_offset.defined() && !is_const_int(buf.elem_offset, 0)) {
    index = add(index, as_type(buf.elem_offset, t));
  }
  return index;
}

class Flattener final : public Mutator {
 private:
  Ref<BufferNode> mutate_node(const BufferNode* node) override {
    if (node->shape.size() == 1 && node->strides.empty() && !node->elem_offset.defined()) {
      return Ref<BufferNode>(node);
    }
    PrimExpr size = flat_size(*node);
    return buffer(node->name, node->dtype, {size}, node->scope, node->span);
  }

  PrimExpr mutate_node(const BufferLoadNode* node) override {
    std::vector<PrimExpr> indices;
    for (const PrimExpr& i : node->indices) indices.push_back(mutate(i));
    Buffer flat = mutate(node->buffer);
    return buffer_load(flat, {flat_index(*node->buffer, indices, node->span)}, node->span);
  }

  Stmt mutate_node(const BufferStoreNode* node) override {
    std::vector<PrimExpr> indices;
    for (const PrimExpr& i : node->indices) indices.push_back(mutate(i));
    Buffer flat = mutate(node->buffer);
    return buffer_store(flat, mutate(node->value), {flat_index(*node->buffer, indices, node->span)},
                        node->span);
  }

  // A hoisted Allocate leaves its body in its place: sequences are flattened again.
  Stmt mutate_node(const SeqStmtNode* node) override {
    std::vector<Stmt> items;
    for (const Stmt& item : node->seq) items.push_back(mutate(item));
    return seq_stmt(items, node->span);
  }

  Stmt mutate_node(const AllocateNode* node) override {
    Buffer flat = mutate(node->buffer);
    if (flat->scope != "global" && as_const_int(flat->shape[0]) == nullptr) {
      Span span = node->buffer->span.defined() ? node->buffer->span : node->span;
      bool constant_shape =
          std::all_of(node->buffer->shape.begin(), node->buffer->shape.end(),
                      [](const PrimExpr& dim) { return as_const_int(dim) != nullptr; });
      // Constant dimensions that fold to no constant: their product overflows.
      if (constant_shape) {
        user_error(span) << node->buffer->scope << " buffer '" << node->buffer->name
                         << "' has the constant size " << text::print_node(flat->shape[0])
                         << ", which overflows " << flat->shape[0]->dtype.str() << "; a kernel's "
                         << node->buffer->scope << " buffers hold what fits in the target's memory";
      }
      user_error(span)
          << node->buffer->scope << " buffer '" << node->buffer->name
          << "' has the non-constant size " << text::print_node(flat->shape[0]) << "; a kernel's "
          << node->buffer->scope
          << " buffers need a constant size (tile the loops that access it by constant "
             "factors)";
    }
    hoisted_.push_back({flat, node->span});
    return mutate(node->body);
  }

 public:
  struct Hoisted {
    Buffer buffer;
    Span span;
  };
  std::vector<Hoisted> hoisted_;
};

// Wraps the statement below the kernel's outermost thread-bound loops in `allocs`.
Stmt allocate_below_thread_loops(const Stmt& stmt, const std::vector<Flattener::Hoisted>& allocs) {
  if (const auto* loop = stmt.as<ForNode>();
      loop != nullptr && loop->kind == ForKind::ThreadBinding) {
    auto* copy = copy_node(*loop);
    copy->body = allocate_below_thread_loops(loop->body, allocs);
    return Stmt(copy);
  }
  Stmt body = stmt;
  for (auto it = allocs.rbegin(); it != allocs.rend(); ++it)
    body = allocate(it->buffer, body, it->span);
  return body;
}

}  // namespace

PrimFunc flatten_buffers(const PrimFunc& kernel) {
  Flattener flattener;
  // Everything that may throw (a size that overflows the index type) runs before the
  // copy is made: a raw node would leak on the way out.
  auto buffer_map = kernel->buffer_map;
  for (auto& [handle, buf] : buffer_map) buf = flattener.mutate(buf);
  Stmt body = allocate_below_thread_loops(flattener.mutate(kernel->body), flattener.hoisted_);
  auto* result = copy_node(*kernel);
  result->buffer_map = std::move(buffer_map);
  result->body = std::move(body);
  return PrimFunc(result);
}

}  // namespace relaxc::tir
