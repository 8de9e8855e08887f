// The TensorIR part of the well-formedness checker: the cheap checks of a PrimFunc.
//
// Algorithm: one walk of the body with the variables and buffers in scope. Parameters,
// the buffers of the buffer map (with the shape variables that stand alone in their
// shapes, strides and offsets), loop, let and block iteration variables, allocated and
// matched buffers enter scope where TensorIR defines them; any other variable or buffer
// that the function reads or writes is reported, once each. A block realize must give
// one iteration value per iteration variable of its block.
#include <unordered_map>

#include "ir/relax/well_formed_checker.h"
#include "ir/tir/expr_functor.h"

namespace relaxc::relax::well_formed {

namespace {

class TirChecker final : private tir::StmtFunctor<void(Span)> {
 public:
  TirChecker(const std::string& name, Reporter* reporter) : name_(name), reporter_(reporter) {}

  void check(const tir::PrimFuncNode* func) {
    Span span = func->span;
    push_frame();
    for (const tir::Var& param : func->params) {
      if (param.defined()) define_var(param.get());
    }
    for (const auto& [param, buffer] : func->buffer_map) {
      if (!buffer.defined()) {
        error(span, "[tir] the buffer map of PrimFunc '" + name_ + "' holds a null buffer");
        continue;
      }
      bool is_param = false;
      for (const tir::Var& p : func->params) is_param = is_param || p.same_as(param);
      if (!is_param) {
        error(span, "[tir] buffer '" + buffer->name + "' of PrimFunc '" + name_ +
                        "' is matched to a handle that is not a parameter");
      }
      define_buffer(buffer.get());
      define_buffer_layout_vars(buffer.get());
    }
    // Like a Relax signature, the buffer map binds its shape variables in any order.
    for (const auto& [param, buffer] : func->buffer_map) {
      if (buffer.defined()) check_buffer_layout(buffer.get(), span);
    }
    if (!func->body.defined()) {
      error(span, "[tir] PrimFunc '" + name_ + "' has no body");
    } else {
      check_stmt(func->body, span);
    }
    pop_frame();
  }

 private:
  void error(Span span, std::string message) { reporter_->error(span, std::move(message)); }

  void push_frame() { frames_.emplace_back(); }
  void pop_frame() {
    for (const Object* node : frames_.back()) --in_scope_[node];
    frames_.pop_back();
  }
  void define(const Object* node) {
    ++in_scope_[node];
    frames_.back().push_back(node);
  }
  bool defined(const Object* node) const {
    auto it = in_scope_.find(node);
    return it != in_scope_.end() && it->second > 0;
  }

  void define_var(const tir::VarNode* var) { define(var); }
  void define_buffer(const tir::BufferNode* buffer) {
    define(buffer);
    if (buffer->data.defined()) define(buffer->data.get());
  }
  // A buffer that views memory it is given (a parameter, a matched region) binds the
  // variables that stand alone in its shape, strides and offset.
  void define_buffer_layout_vars(const tir::BufferNode* buffer) {
    auto define_alone = [&](const tir::PrimExpr& e) {
      const auto* var = e.as<tir::VarNode>();
      if (var != nullptr && !defined(var)) define(var);
    };
    for (const tir::PrimExpr& dim : buffer->shape) define_alone(dim);
    for (const tir::PrimExpr& stride : buffer->strides) define_alone(stride);
    define_alone(buffer->elem_offset);
  }
  void check_buffer_layout(const tir::BufferNode* buffer, Span span) {
    if (buffer->span.defined()) span = buffer->span;
    for (const tir::PrimExpr& dim : buffer->shape) check_expr(dim, span);
    for (const tir::PrimExpr& stride : buffer->strides) check_expr(stride, span);
    if (buffer->elem_offset.defined()) check_expr(buffer->elem_offset, span);
  }

  void use_var(const tir::VarNode* var, Span span) {
    if (defined(var) || !reported_.insert(var).second) return;
    error(span,
          "[tir] variable '" + var->name + "' is used but not defined in PrimFunc '" + name_ + "'");
  }
  void use_buffer(const tir::BufferNode* buffer, Span span) {
    if (defined(buffer) || !reported_.insert(buffer).second) return;
    error(span, "[tir] buffer '" + buffer->name + "' is used but not defined in PrimFunc '" +
                    name_ + "'");
  }

  void check_expr(const tir::PrimExpr& e, Span span) {
    if (!e.defined()) {
      error(span, "[tir] a null expression in PrimFunc '" + name_ + "'");
      return;
    }
    PrimExprUses uses(
        reporter_, [&](const tir::VarNode* var, Span at) { use_var(var, at); },
        [&](const tir::BufferNode* buffer, Span at) { use_buffer(buffer, at); });
    uses.visit(e, span);
  }

  void check_region(const tir::BufferRegion& region, Span span) {
    if (!region.defined() || !region->buffer.defined()) {
      error(span, "[tir] a buffer region without a buffer in PrimFunc '" + name_ + "'");
      return;
    }
    use_buffer(region->buffer.get(), span);
    for (const tir::Range& range : region->region) check_range(range, span);
  }

  void check_range(const tir::Range& range, Span span) {
    if (!range.defined()) {
      error(span, "[tir] a null range in PrimFunc '" + name_ + "'");
      return;
    }
    check_expr(range->min, span);
    check_expr(range->extent, span);
  }

  void check_stmt(const tir::Stmt& stmt, Span span) {
    if (!stmt.defined()) {
      error(span, "[tir] a null statement in PrimFunc '" + name_ + "'");
      return;
    }
    if (stmt->span.defined()) span = stmt->span;
    DepthGuard guard(&depth_, reporter_, &depth_reported_, span);
    if (!guard.ok()) return;
    visit_stmt(stmt, span);
  }

  void visit_TirBufferStore(const tir::BufferStoreNode* store, Span span) override {
    if (store->buffer.defined()) use_buffer(store->buffer.get(), span);
    check_expr(store->value, span);
    for (const tir::PrimExpr& index : store->indices) check_expr(index, span);
  }

  void visit_TirEvaluate(const tir::EvaluateNode* evaluate, Span span) override {
    check_expr(evaluate->value, span);
  }

  void visit_TirLetStmt(const tir::LetStmtNode* let, Span span) override {
    check_expr(let->value, span);
    push_frame();
    if (let->var.defined()) define_var(let->var.get());
    check_stmt(let->body, span);
    pop_frame();
  }

  void visit_TirIfThenElse(const tir::IfThenElseNode* branch, Span span) override {
    check_expr(branch->condition, span);
    check_stmt(branch->then_case, span);
    if (branch->else_case.defined()) check_stmt(branch->else_case, span);
  }

  void visit_TirFor(const tir::ForNode* loop, Span span) override {
    check_expr(loop->min, span);
    check_expr(loop->extent, span);
    push_frame();
    if (loop->loop_var.defined()) define_var(loop->loop_var.get());
    check_stmt(loop->body, span);
    pop_frame();
  }

  void visit_TirWhile(const tir::WhileNode* loop, Span span) override {
    check_expr(loop->condition, span);
    check_stmt(loop->body, span);
  }

  void visit_TirSeqStmt(const tir::SeqStmtNode* seq, Span span) override {
    for (const tir::Stmt& item : seq->seq) check_stmt(item, span);
  }

  void visit_TirAllocate(const tir::AllocateNode* alloc, Span span) override {
    push_frame();
    if (alloc->buffer.defined()) {
      check_buffer_layout(alloc->buffer.get(), span);
      define_buffer(alloc->buffer.get());
    }
    check_stmt(alloc->body, span);
    pop_frame();
  }

  void visit_TirBlockRealize(const tir::BlockRealizeNode* realize, Span span) override {
    check_block_realize(realize, span);
  }

  void visit_TirBlock(const tir::BlockNode* block, Span span) override { check_block(block, span); }

  void visit_default(const tir::StmtNode*, Span span) override {
    error(span, "[tir] PrimFunc '" + name_ + "' holds a node that is not a statement");
  }

  void check_block_realize(const tir::BlockRealizeNode* realize, Span span) {
    for (const tir::PrimExpr& value : realize->iter_values) check_expr(value, span);
    if (realize->predicate.defined()) check_expr(realize->predicate, span);
    if (!realize->block.defined()) {
      error(span, "[tir] a block realize without a block in PrimFunc '" + name_ + "'");
      return;
    }
    const tir::BlockNode* block = realize->block.get();
    if (block->iter_vars.size() != realize->iter_values.size()) {
      error(span, "[tir] block '" + block->name + "' has " +
                      std::to_string(block->iter_vars.size()) + " iteration variables but " +
                      std::to_string(realize->iter_values.size()) + " iteration values");
    }
    check_block(block, span);
  }

  void check_block(const tir::BlockNode* block, Span span) {
    if (block->span.defined()) span = block->span;
    push_frame();
    for (const tir::IterVar& iter : block->iter_vars) {
      if (!iter.defined() || !iter->var.defined()) {
        error(span, "[tir] block '" + block->name + "' has a null iteration variable");
        continue;
      }
      check_range(iter->dom, span);
    }
    for (const tir::IterVar& iter : block->iter_vars) {
      if (iter.defined() && iter->var.defined()) define_var(iter->var.get());
    }
    for (const tir::Buffer& buffer : block->alloc_buffers) {
      if (!buffer.defined()) continue;
      check_buffer_layout(buffer.get(), span);
      define_buffer(buffer.get());
    }
    for (const tir::MatchBufferRegion& match : block->match_buffers) {
      if (!match.defined() || !match->buffer.defined()) {
        error(span, "[tir] block '" + block->name + "' has a null match_buffer");
        continue;
      }
      check_region(match->source, span);
      define_buffer(match->buffer.get());
      define_buffer_layout_vars(match->buffer.get());
      check_buffer_layout(match->buffer.get(), span);
    }
    for (const tir::BufferRegion& region : block->reads) check_region(region, span);
    for (const tir::BufferRegion& region : block->writes) check_region(region, span);
    if (block->init.defined()) check_stmt(block->init, span);
    check_stmt(block->body, span);
    pop_frame();
  }

  const std::string& name_;
  Reporter* reporter_;
  std::unordered_map<const Object*, int> in_scope_;  // how many frames define it
  std::vector<std::vector<const Object*>> frames_;
  std::unordered_set<const Object*> reported_;
  int depth_ = 0;
  bool depth_reported_ = false;
};

}  // namespace

void check_prim_func(const std::string& name, const tir::PrimFuncNode* func, Reporter* reporter) {
  TirChecker(name, reporter).check(func);
}

}  // namespace relaxc::relax::well_formed
