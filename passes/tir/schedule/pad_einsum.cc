// pad_einsum: rounds the iteration domain of a block up to multiples of given factors
// (TVM's pad_einsum), so that tiles divide it: the tiled loops then need no tail guard,
// and the guards stay where the padded values come and go.
//
// The block E must be one store, alone in its own perfect loop nest under the root block
// (one loop from 0 per iteration variable, bound to it, no predicate), and index every
// buffer by iteration variables, or by expressions that use no padded one (a broadcast's
// constant). Each buffer it accesses along a padded variable gets a padded copy X_pad,
// its extent in that dimension the variable's padded extent:
// - a buffer X that E reads (and does not write) is read through X_pad, which a new block
//   `X_pad` (a spatial nest before E's) fills with X's values inside X and zeros past its
//   end (tir.if_then_else: nothing is read out of bounds);
// - the buffer C that E writes becomes C_pad, copied back into C by a new block `C_crop`
//   (a spatial nest after E's) over C's own extents.
// E's loops and iteration variables then run over the padded extents. Padded spatial
// positions compute values that the crop drops. A padded reduction variable adds terms
// that must be zero: E must then be C = C + x * y * ... with an init of 0 and every
// factor a load (or a cast of one) that reads the variable, so that each added term is a
// product of zeros.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/text/printer.h"
#include "ir/tir/block_regions.h"
#include "ir/tir/functor.h"
#include "passes/tir/schedule/block_scope.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// How E indexes one buffer: per dimension, the padded iteration variable that indexes it,
// or null where the dimension keeps its extent.
struct PaddedAccess {
  Buffer buffer;
  std::vector<const VarNode*> dims;
};

class PadEinsum {
 public:
  PadEinsum(const PrimFunc& func, const BlockRef& ref) : func_(func), name_(ref.name) {
    path_ = find_block_path(func->body, ref.name);
    if (path_.empty())
      user_error(func->span) << "pad_einsum: no block named '" << ref.name << "' in the function";
    realize_ = path_.back().cast<BlockRealizeNode>();
    block_ = realize_->block;
  }

  PaddedEinsum apply(const std::vector<int64_t>& padding) {
    check_nest(padding.size());
    if (!pad_extents(padding)) return {};
    collect_accesses(block_->init);
    collect_accesses(block_->body);
    check_reduction();
    return rebuild();
  }

  const PrimFunc& func() const { return func_; }

 private:
  // E alone in a perfect nest of loops from 0, one per iteration variable, bound to it.
  void check_nest(size_t factors) {
    const BlockNode* root = root_block(func_);
    if (is_root(func_, realize_.get()) || innermost_block(path_) != root) {
      user_error(block_->span) << "pad_einsum: block '" << name_
                               << "' is not directly under the root block";
    }
    const size_t n = block_->iter_vars.size();
    if (factors != n) {
      user_error(block_->span) << "pad_einsum: block '" << name_ << "' has " << n
                               << " iteration variables; " << factors
                               << " padding factors were given";
    }
    loops_ = loops_on_path(StmtPath(path_.begin(), path_.end() - 1));
    bool perfect = loops_.size() == n && is_true_predicate(realize_->predicate) &&
                   block_->body.is<BufferStoreNode>() &&
                   own_nest_path(path_).back().same_as(n == 0 ? Stmt(realize_) : Stmt(loops_[0]));
    for (size_t d = 0; perfect && d < n; ++d) {
      const IterVar& iv = block_->iter_vars[d];
      perfect = realize_->iter_values[d].same_as(loops_[d]->loop_var) &&
                is_const_int(loops_[d]->min, 0) && is_const_int(iv->dom->min, 0) &&
                structural_equal(loops_[d]->extent, iv->dom->extent);
    }
    if (!perfect) {
      user_error(block_->span)
          << "pad_einsum: block '" << name_
          << "' is not one store alone in a perfect loop nest whose loops, from "
             "0 and unpredicated, bind its iteration variables in order";
    }
  }

  // The padded extent of each iteration variable; false where none changes.
  bool pad_extents(const std::vector<int64_t>& padding) {
    arith::Analyzer analyzer;
    for (size_t d = 0; d < padding.size(); ++d) {
      const IterVar& iv = block_->iter_vars[d];
      if (padding[d] < 1) {
        user_error(block_->span) << "pad_einsum: padding factor " << padding[d]
                                 << " of iteration variable '" << iv->var->name << "' of block '"
                                 << name_ << "' is not positive";
      }
      PrimExpr extent = iv->dom->extent;
      PrimExpr factor = int_imm(extent->dtype, padding[d]);
      PrimExpr padded = analyzer.simplify(floordiv(extent + (padding[d] - 1), factor) * factor);
      extents_.push_back(padded);
      if (padding[d] > 1 && !analyzer.can_prove_equal(padded, extent)) {
        padded_[iv->var.get()] = iv;
      }
    }
    return !padded_.empty();
  }

  void record(const Buffer& buffer, const std::vector<PrimExpr>& indices) {
    std::vector<const VarNode*> dims(indices.size(), nullptr);
    for (size_t d = 0; d < indices.size(); ++d) {
      const auto* v = indices[d].as<VarNode>();
      if (v != nullptr && padded_.count(v) != 0) {
        dims[d] = v;
        const IterVar& iv = padded_.at(v);
        if (!structural_equal(buffer->shape[d], iv->dom->extent)) {
          user_error(block_->span)
              << "pad_einsum: block '" << name_ << "' indexes dimension " << d << " of '"
              << buffer->name << "' (extent " << text::print_node(buffer->shape[d])
              << ") by iteration variable '" << v->name << "' over "
              << text::print_node(iv->dom->extent) << "; padding needs them equal";
        }
        continue;
      }
      for (const auto& [padded, iv] : padded_) {
        if (uses_var(indices[d], iv->var)) {
          user_error(block_->span)
              << "pad_einsum: block '" << name_ << "' indexes '" << buffer->name << "' by "
              << text::print_node(indices[d]) << ", which uses padded iteration variable '"
              << iv->var->name << "' but is not that variable";
        }
      }
    }
    if (std::all_of(dims.begin(), dims.end(), [](const VarNode* v) { return v == nullptr; })) {
      return;
    }
    for (const PaddedAccess& a : accesses_) {
      if (!a.buffer.same_as(buffer)) continue;
      if (a.dims != dims) {
        user_error(block_->span) << "pad_einsum: block '" << name_ << "' indexes '" << buffer->name
                                 << "' by different padded iteration variables in one dimension";
      }
      return;
    }
    accesses_.push_back({buffer, dims});
  }

  void collect_accesses(const Stmt& stmt) {
    if (!stmt.defined()) return;
    post_order_visit(stmt, [&](const Ref<Object>& node) {
      if (const auto* load = node.as<BufferLoadNode>()) record(load->buffer, load->indices);
      if (const auto* store = node.as<BufferStoreNode>()) record(store->buffer, store->indices);
    });
  }

  // A padded reduction variable: E is C = C + x * y * ..., every factor reading it.
  void check_reduction() {
    std::vector<const IterVarNode*> reductions;
    for (const auto& [v, iv] : padded_) {
      if (iv->kind != IterKind::Spatial) reductions.push_back(iv.get());
    }
    if (reductions.empty()) return;
    const auto& store = *block_->body.as<BufferStoreNode>();
    const auto* init = block_->init.defined() ? block_->init.as<BufferStoreNode>() : nullptr;
    const auto* sum = store.value.as<AddNode>();
    std::vector<PrimExpr> factors;
    bool ok = init != nullptr && is_zero(init->value) && sum != nullptr;
    if (ok) {
      auto is_acc = [&](const PrimExpr& e) {
        const auto* load = e.as<BufferLoadNode>();
        return load != nullptr && load->buffer.same_as(store.buffer);
      };
      PrimExpr product = is_acc(sum->a) ? sum->b : is_acc(sum->b) ? sum->a : PrimExpr();
      ok = product.defined();
      if (ok) gather_factors(product, factors);
    }
    for (const PrimExpr& f : factors) {
      const PrimExpr* operand = &f;
      if (const auto* c = f.as<CastNode>()) operand = &c->value;
      const auto* load = operand->as<BufferLoadNode>();
      for (const IterVarNode* r : reductions) {
        ok = ok && load != nullptr &&
             std::any_of(load->indices.begin(), load->indices.end(),
                         [&](const PrimExpr& i) { return i.get() == r->var.get(); });
      }
    }
    if (!ok) {
      user_error(block_->span) << "pad_einsum: block '" << name_
                               << "' would add terms over padded reduction "
                               << "variable '" << reductions.front()->var->name
                               << "'; that keeps its result only for C = C + x * y * ... with an "
                                  "init of 0 and every factor a load that reads the variable";
    }
  }

  static bool is_zero(const PrimExpr& e) {
    if (const auto* f = e.as<FloatImmNode>()) return f->value == 0.0;
    return is_const_int(e, 0);
  }

  static void gather_factors(const PrimExpr& e, std::vector<PrimExpr>& out) {
    if (const auto* m = e.as<MulNode>()) {
      gather_factors(m->a, out);
      gather_factors(m->b, out);
      return;
    }
    out.push_back(e);
  }

  PaddedEinsum rebuild() {
    PaddedEinsum result;
    const Buffer& output = block_->body.as<BufferStoreNode>()->buffer;
    std::vector<Stmt> before, after;
    std::vector<Buffer> allocated;
    Block padded_block = block_;
    for (const PaddedAccess& a : accesses_) {
      const Buffer& x = a.buffer;
      std::vector<PrimExpr> shape = x->shape;
      for (size_t d = 0; d < shape.size(); ++d) {
        if (a.dims[d] != nullptr) shape[d] = extent_of(a.dims[d]);
      }
      std::string name = unique_name(func_, x->name + "_pad");
      Buffer pad = buffer(name, x->dtype, shape, is_param(x) ? "global" : x->scope, x->span);
      allocated.push_back(pad);
      padded_block = BufferReplacer(x, pad).mutate(padded_block);
      if (x.same_as(output)) {
        std::string crop = unique_name(func_, output->name + "_crop");
        after.push_back(copy_nest(crop, pad, x, x->shape));
        result.output = BlockRef{crop};
        continue;
      }
      before.push_back(store_nest(name, pad, shape, [&](const std::vector<PrimExpr>& v) {
        PrimExpr inside;
        for (size_t d = 0; d < v.size(); ++d) {
          if (a.dims[d] == nullptr) continue;
          PrimExpr in = lt(v[d], x->shape[d]);
          inside = inside.defined() ? logical_and(inside, in) : in;
        }
        return call(x->dtype, "tir.if_then_else",
                    {inside, buffer_load(x, v), make_const(x->dtype, 0)});
      }));
      result.inputs.push_back(BlockRef{name});
    }
    // E over the padded extents.
    auto* e = copy_node(*padded_block);
    for (size_t d = 0; d < e->iter_vars.size(); ++d) {
      auto* iv = copy_node(*e->iter_vars[d]);
      iv->dom = range(iv->dom->min, extents_[d]);
      e->iter_vars[d] = IterVar(iv);
    }
    e->reads.clear();
    e->writes.clear();
    complete_block_regions(e, /*reads=*/true, /*writes=*/true);
    auto* realize = copy_node(*realize_);
    realize->block = Block(e);
    Stmt nest(realize);
    for (size_t d = loops_.size(); d-- > 0;) {
      auto* loop = copy_node(*loops_[d]);
      loop->extent = extents_[d];
      loop->body = nest;
      nest = Stmt(loop);
    }
    std::vector<Stmt> stmts = before;
    stmts.push_back(nest);
    stmts.insert(stmts.end(), after.begin(), after.end());
    Stmt body = replace_in_path(own_nest_path(path_), seq_stmt(std::move(stmts)));
    auto* root_realize = copy_node(*body.as<BlockRealizeNode>());
    auto* root = copy_node(*root_realize->block);
    root->alloc_buffers.insert(root->alloc_buffers.end(), allocated.begin(), allocated.end());
    root_realize->block = Block(root);
    func_ = with_body(func_, Stmt(root_realize));
    return result;
  }

  PrimExpr extent_of(const VarNode* v) const {
    for (size_t d = 0; d < block_->iter_vars.size(); ++d) {
      if (block_->iter_vars[d]->var.get() == v) return extents_[d];
    }
    RELAXC_UNREACHABLE() << "a padded variable is not the block's";
    return {};
  }

  bool is_param(const Buffer& b) const {
    for (const auto& [param, buffer] : func_->buffer_map) {
      if (buffer.same_as(b)) return true;
    }
    return false;
  }

  PrimFunc func_;
  std::string name_;
  StmtPath path_;
  BlockRealize realize_;
  Block block_;
  std::vector<For> loops_;
  std::vector<PrimExpr> extents_;
  std::unordered_map<const VarNode*, IterVar> padded_;
  std::vector<PaddedAccess> accesses_;
};

}  // namespace

PaddedEinsum Schedule::pad_einsum(const BlockRef& block, const std::vector<int64_t>& padding) {
  PadEinsum pad(func_, block);
  PaddedEinsum result = pad.apply(padding);
  func_ = pad.func();
  return result;
}

}  // namespace relaxc::tir
