// The compute builder (compute.h). Variables the caller's shapes and bodies use are
// renamed to fresh ones as they arrive (each stage substitutes its shape and body), so
// the function owns its variables and call sites with different shape variables build
// structurally equal functions.
#include "ir/tir/compute.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/arith/analyzer.h"
#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"

namespace relaxc::tir {

const char* op_pattern_name(OpPattern pattern) {
  switch (pattern) {
    case OpPattern::ElemWise:
      return "elemwise";
    case OpPattern::Broadcast:
      return "broadcast";
    case OpPattern::Injective:
      return "injective";
    case OpPattern::CommReduce:
      return "comm_reduce";
    case OpPattern::OutEWiseFusable:
      return "out_ewise_fusable";
    case OpPattern::Tuple:
      return "tuple";
    case OpPattern::Opaque:
      return "opaque";
  }
  RELAXC_UNREACHABLE();
}

PrimExpr Tensor::operator()(std::vector<PrimExpr> indices) const {
  RELAXC_ICHECK(indices.size() == buffer->shape.size())
      << "tensor " << buffer->name << " has " << buffer->shape.size()
      << " dimension(s), indexed with " << indices.size();
  return buffer_load(buffer, std::move(indices));
}

PrimExpr Tensor::operator()(const std::vector<Var>& indices) const {
  return (*this)(std::vector<PrimExpr>(indices.begin(), indices.end()));
}

PrimExpr Tensor::operator()(std::initializer_list<PrimExpr> indices) const {
  return (*this)(std::vector<PrimExpr>(indices));
}

PrimExpr reduce_identity(ReduceKind kind, DataType dtype) {
  switch (kind) {
    case ReduceKind::Sum:
      return make_const(dtype, 0);
    case ReduceKind::Prod:
      return make_const(dtype, 1);
    case ReduceKind::Max:
      return dtype.is_bool() ? bool_imm(false) : min_value(dtype);
    case ReduceKind::Min:
      return dtype.is_bool() ? bool_imm(true) : max_value(dtype);
  }
  RELAXC_UNREACHABLE();
}

PrimExpr load_if(const PrimExpr& condition, const Tensor& tensor, std::vector<PrimExpr> indices,
                 const PrimExpr& otherwise) {
  return call(tensor.dtype(), "tir.if_then_else",
              {condition, tensor(std::move(indices)), otherwise});
}

namespace {

PrimExpr combine(ReduceKind kind, const PrimExpr& acc, const PrimExpr& value) {
  switch (kind) {
    case ReduceKind::Sum:
      return add(acc, value);
    case ReduceKind::Prod:
      return mul(acc, value);
    case ReduceKind::Max:
      return max(acc, value);
    case ReduceKind::Min:
      return min(acc, value);
  }
  RELAXC_UNREACHABLE();
}

// The read regions of the buffers `block` reads under a guard (load_if), cut to each
// buffer's shape: a guarded read may index outside the buffer where its guard is false,
// and the region says what is read.
void clamp_guarded_reads(BlockNode* block) {
  std::unordered_set<const BufferNode*> guarded;
  post_order_visit(block->body, [&](const Ref<Object>& node) {
    const auto* c = node.as<CallNode>();
    if (c == nullptr || c->op != "tir.if_then_else") return;
    post_order_visit(c->args[1], [&](const Ref<Object>& inner) {
      if (const auto* load = inner.as<BufferLoadNode>()) guarded.insert(load->buffer.get());
    });
  });
  if (guarded.empty()) return;
  arith::Analyzer analyzer;
  for (const IterVar& iv : block->iter_vars) analyzer.bind(iv->var, iv->dom);
  for (BufferRegion& region : block->reads) {
    if (guarded.count(region->buffer.get()) == 0) continue;
    const std::vector<PrimExpr>& shape = region->buffer->shape;
    auto* clamped = make_node<BufferRegionNode>();
    clamped->buffer = region->buffer;
    for (size_t d = 0; d < region->region.size(); ++d) {
      PrimExpr lo = region->region[d]->min;
      PrimExpr end = lo + region->region[d]->extent;
      PrimExpr new_lo = analyzer.simplify(max(lo, make_const(lo->dtype, 0)));
      PrimExpr new_end = analyzer.simplify(min(end, shape[d]));
      clamped->region.push_back(range(new_lo, analyzer.simplify(new_end - new_lo)));
    }
    region = BufferRegion(clamped);
  }
}

IterVar iter_var(const Var& v, const PrimExpr& extent, IterKind kind) {
  auto* iv = make_node<IterVarNode>();
  iv->var = v;
  iv->dom = range(make_const(extent->dtype, 0), extent);
  iv->kind = kind;
  return IterVar(iv);
}

}  // namespace

// The renaming of the caller's variables, shared by the stages of one builder.
struct ComputeBuilder::Renaming {
  VarMap fresh;                              // caller's var -> the function's
  std::vector<std::pair<Var, Var>> order;    // (caller's, function's), first use first
  std::unordered_set<const VarNode*> owned;  // variables the builder made

  Var own(Var v) {
    owned.insert(v.get());
    return v;
  }

  PrimExpr apply(const PrimExpr& e) {
    if (!e.defined()) return e;
    post_order_visit(e, [&](const Ref<Object>& node) {
      const auto* v = node.as<VarNode>();
      if (v == nullptr || owned.count(v) != 0) return;
      Var caller(node.cast<VarNode>());
      if (fresh.count(caller) != 0) return;
      Var mine = own(caller->is_size_var ? size_var(caller->name, caller->dtype)
                                         : var(caller->name, caller->dtype));
      fresh[caller] = mine;
      order.emplace_back(caller, mine);
    });
    return substitute(e, fresh);
  }

  std::vector<PrimExpr> apply(const std::vector<PrimExpr>& exprs) {
    std::vector<PrimExpr> out;
    for (const PrimExpr& e : exprs) out.push_back(apply(e));
    return out;
  }
};

ComputeBuilder::ComputeBuilder() : renaming_(std::make_shared<Renaming>()) {}

PrimExpr ComputeBuilder::import(const PrimExpr& expr) { return renaming_->apply(expr); }

std::vector<PrimExpr> ComputeBuilder::import(const std::vector<PrimExpr>& exprs) {
  return renaming_->apply(exprs);
}

Tensor ComputeBuilder::input(const std::string& name, std::vector<PrimExpr> shape, DataType dtype) {
  Buffer b = buffer(name, dtype, renaming_->apply(shape));
  renaming_->own(b->data);
  inputs_.push_back(b);
  return Tensor{b};
}

Tensor ComputeBuilder::compute(const std::string& name, std::vector<PrimExpr> shape, DataType dtype,
                               const SpatialBody& body) {
  return add_stage(name, std::move(shape), dtype, std::nullopt, {},
                   [&](const std::vector<Var>& i, const std::vector<Var>&) { return body(i); });
}

Tensor ComputeBuilder::reduce(const std::string& name, std::vector<PrimExpr> shape, DataType dtype,
                              ReduceKind kind, std::vector<PrimExpr> reduce_extents,
                              const ReduceBody& body) {
  return add_stage(name, std::move(shape), dtype, kind, std::move(reduce_extents), body);
}

Tensor ComputeBuilder::add_stage(const std::string& name, std::vector<PrimExpr> shape,
                                 DataType dtype, std::optional<ReduceKind> kind,
                                 std::vector<PrimExpr> reduce_extents, const ReduceBody& body) {
  if (kind && dtype.is_bool()) {
    if (*kind == ReduceKind::Sum) kind = ReduceKind::Max;
    if (*kind == ReduceKind::Prod) kind = ReduceKind::Min;
  }
  Renaming& r = *renaming_;
  shape = r.apply(shape);
  reduce_extents = r.apply(reduce_extents);
  Buffer out = buffer(name, dtype, shape);
  r.own(out->data);

  std::vector<Var> loops, spatial, reduction;
  std::vector<IterVar> iter_vars;
  std::vector<PrimExpr> extents;
  for (size_t d = 0; d < shape.size(); ++d) {
    std::string suffix = std::to_string(d);
    loops.push_back(r.own(var("ax" + suffix, shape[d]->dtype)));
    spatial.push_back(r.own(var("v_ax" + suffix, shape[d]->dtype)));
    iter_vars.push_back(iter_var(spatial.back(), shape[d], IterKind::Spatial));
    extents.push_back(shape[d]);
  }
  for (size_t d = 0; d < reduce_extents.size(); ++d) {
    std::string suffix = std::to_string(d);
    loops.push_back(r.own(var("k" + suffix, reduce_extents[d]->dtype)));
    reduction.push_back(r.own(var("v_k" + suffix, reduce_extents[d]->dtype)));
    iter_vars.push_back(iter_var(reduction.back(), reduce_extents[d], IterKind::Reduce));
    extents.push_back(reduce_extents[d]);
  }

  PrimExpr value = r.apply(body(spatial, reduction));
  RELAXC_ICHECK(value->dtype == dtype) << "stage " << name << " computes " << value->dtype.str()
                                       << " for a " << dtype.str() << " buffer";
  std::vector<PrimExpr> indices(spatial.begin(), spatial.end());
  auto* block = make_node<BlockNode>();
  block->name = name;
  block->iter_vars = std::move(iter_vars);
  if (kind) {
    block->init = buffer_store(out, reduce_identity(*kind, dtype), indices);
    block->body = buffer_store(out, combine(*kind, buffer_load(out, indices), value), indices);
  } else {
    block->body = buffer_store(out, value, indices);
  }
  complete_block_regions(block, true, true);
  clamp_guarded_reads(block);

  Stmt nest = block_realize({loops.begin(), loops.end()}, PrimExpr(), Block(block));
  for (size_t d = loops.size(); d-- > 0;) {
    nest = for_loop(loops[d], make_const(extents[d]->dtype, 0), extents[d], ForKind::Serial, nest);
  }
  stages_.push_back(out);
  stage_nests_.push_back(nest);
  return Tensor{out};
}

ComputeBuilder::Result ComputeBuilder::build(const std::vector<Tensor>& outputs,
                                             OpPattern pattern) const {
  std::vector<Buffer> params = inputs_;
  std::unordered_set<const BufferNode*> is_output;
  for (const Tensor& t : outputs) {
    bool is_stage = false;
    for (const Buffer& s : stages_) is_stage = is_stage || s.same_as(t.buffer);
    RELAXC_ICHECK(is_stage) << "output " << t.buffer->name << " is not a stage of this builder";
    RELAXC_ICHECK(is_output.insert(t.buffer.get()).second)
        << "output " << t.buffer->name << " is given twice";
    params.push_back(t.buffer);
  }

  auto* root = make_node<BlockNode>();
  root->name = "root";
  for (const Buffer& s : stages_) {
    if (is_output.count(s.get()) == 0) root->alloc_buffers.push_back(s);
  }
  root->body = seq_stmt(stage_nests_);

  auto* func = make_node<PrimFuncNode>();
  std::unordered_set<const VarNode*> bound;
  for (const Buffer& b : params) {
    // As TVM names them: a buffer of constant shape is written in the signature
    // (`x: T.Buffer(...)`), any other is matched from a handle `var_x`.
    bool constant_shape = std::all_of(b->shape.begin(), b->shape.end(),
                                      [](const PrimExpr& d) { return d.is<IntImmNode>(); });
    Var param = var(constant_shape ? b->name : "var_" + b->name, DataType::Handle());
    func->params.push_back(param);
    func->buffer_map.emplace_back(param, b);
    for (const PrimExpr& d : b->shape) {
      if (const auto* v = d.as<VarNode>()) bound.insert(v);
    }
  }
  Result result;
  for (const auto& [caller, mine] : renaming_->order) {
    if (bound.count(mine.get()) != 0) continue;
    func->params.push_back(mine);
    result.scalar_params.push_back(caller);
  }
  func->body = block_realize({}, PrimExpr(), Block(root));
  func->attrs = Attrs({{"op_pattern", AttrValue::integer(static_cast<int>(pattern))},
                       {"tir.noalias", AttrValue::boolean(true)}});
  result.func = PrimFunc(func);
  return result;
}

}  // namespace relaxc::tir
