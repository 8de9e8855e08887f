// Constructors of TensorIR statements and buffers.
#include "ir/tir/stmt.h"

namespace relaxc::tir {

const char* iter_kind_name(IterKind kind) {
  switch (kind) {
    case IterKind::Spatial: return "spatial";
    case IterKind::Reduce: return "reduce";
    case IterKind::Scan: return "scan";
    case IterKind::Opaque: return "opaque";
  }
  return "?";
}

const char* for_kind_name(ForKind kind) {
  switch (kind) {
    case ForKind::Serial: return "serial";
    case ForKind::Parallel: return "parallel";
    case ForKind::Vectorized: return "vectorized";
    case ForKind::Unrolled: return "unroll";
    case ForKind::ThreadBinding: return "thread_binding";
  }
  return "?";
}

Buffer PrimFuncNode::buffer_of(const Var& param) const {
  for (const auto& [p, b] : buffer_map) {
    if (p.same_as(param)) return b;
  }
  return {};
}

Range range(PrimExpr min, PrimExpr extent) {
  auto* n = make_node<RangeNode>();
  n->min = std::move(min);
  n->extent = std::move(extent);
  return Range(n);
}

Buffer buffer(std::string name, DataType dtype, std::vector<PrimExpr> shape, std::string scope,
              Span span) {
  auto* n = make_node<BufferNode>();
  n->data = var(name, DataType::Handle(), span);
  n->name = std::move(name);
  n->dtype = dtype;
  n->shape = std::move(shape);
  n->scope = std::move(scope);
  n->span = span;
  return Buffer(n);
}

namespace {

template <typename T>
Stmt finish(T* node, Span span) {
  node->span = span;
  return Stmt(node);
}

}  // namespace

Stmt buffer_store(Buffer buffer, PrimExpr value, std::vector<PrimExpr> indices, Span span) {
  auto* n = make_node<BufferStoreNode>();
  n->buffer = std::move(buffer);
  n->value = std::move(value);
  n->indices = std::move(indices);
  return finish(n, span);
}

Stmt evaluate(PrimExpr value, Span span) {
  auto* n = make_node<EvaluateNode>();
  n->value = std::move(value);
  return finish(n, span);
}

Stmt let_stmt(Var var, PrimExpr value, Stmt body, Span span) {
  auto* n = make_node<LetStmtNode>();
  n->var = std::move(var);
  n->value = std::move(value);
  n->body = std::move(body);
  return finish(n, span);
}

Stmt if_then_else(PrimExpr condition, Stmt then_case, Stmt else_case, Span span) {
  auto* n = make_node<IfThenElseNode>();
  n->condition = std::move(condition);
  n->then_case = std::move(then_case);
  n->else_case = std::move(else_case);
  return finish(n, span);
}

Stmt for_loop(Var loop_var, PrimExpr min, PrimExpr extent, ForKind kind, Stmt body,
              std::string thread_tag, Attrs annotations, Span span) {
  auto* n = make_node<ForNode>();
  n->loop_var = std::move(loop_var);
  n->min = std::move(min);
  n->extent = std::move(extent);
  n->kind = kind;
  n->thread_tag = std::move(thread_tag);
  n->body = std::move(body);
  n->annotations = std::move(annotations);
  return finish(n, span);
}

Stmt while_loop(PrimExpr condition, Stmt body, Span span) {
  auto* n = make_node<WhileNode>();
  n->condition = std::move(condition);
  n->body = std::move(body);
  return finish(n, span);
}

Stmt seq_stmt(std::vector<Stmt> seq, Span span) {
  std::vector<Stmt> flat;
  for (Stmt& s : seq) {
    if (const auto* inner = s.as<SeqStmtNode>()) {
      flat.insert(flat.end(), inner->seq.begin(), inner->seq.end());
    } else if (s.defined()) {
      flat.push_back(std::move(s));
    }
  }
  if (flat.size() == 1) return flat[0];
  auto* n = make_node<SeqStmtNode>();
  n->seq = std::move(flat);
  return finish(n, span);
}

Stmt allocate(Buffer buffer, Stmt body, Span span) {
  auto* n = make_node<AllocateNode>();
  n->buffer = std::move(buffer);
  n->body = std::move(body);
  return finish(n, span);
}

BlockRealize block_realize(std::vector<PrimExpr> iter_values, PrimExpr predicate, Block block,
                           Span span) {
  auto* n = make_node<BlockRealizeNode>();
  n->iter_values = std::move(iter_values);
  n->predicate = predicate.defined() ? std::move(predicate) : bool_imm(true);
  n->block = std::move(block);
  n->span = span;
  return BlockRealize(n);
}

}  // namespace relaxc::tir
