// The TensorIR part of the well-formedness checker: the cheap checks of a PrimFunc.
//
// Algorithm: one walk of the body with the variables and buffers in scope. Parameters,
// the buffers of the buffer map (with the shape variables that stand alone in their
// shapes, strides and offsets), loop, let and block iteration variables, allocated and
// matched buffers enter scope where TensorIR defines them; any other variable or buffer
// that the function reads or writes is reported, once each. A block realize must give
// one iteration value per iteration variable of its block.
//
// It also refuses what no back end can run, where the code says so (a kernel's code
// generators assume these hold): a thread-bound loop of a constant extent below 1, a
// T.parallel loop inside a kernel, an
// allocation in a scope other than "global", "shared" or "local" (or in "global" inside a
// kernel, which the host cannot allocate per thread), a buffer dimension that is a
// negative constant (zero too for an allocation), a barrier of a scope other than
// "shared", and a constant index outside a constant dimension (the store or load would
// touch memory outside the buffer).
#include <unordered_map>

#include "ir/relax/well_formed_checker.h"
#include "ir/tir/expr_functor.h"
#include "ir/tir/stmt.h"

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
    for (size_t i = 0; i < buffer->shape.size(); ++i) {
      check_expr(buffer->shape[i], span);
      const int64_t* extent =
          buffer->shape[i].defined() ? tir::as_const_int(buffer->shape[i]) : nullptr;
      if (extent != nullptr && *extent < 0) {
        error(span, "[tir] dimension " + std::to_string(i) + " of buffer '" + buffer->name +
                        "' is " + std::to_string(*extent) + "; a dimension is at least 0");
      }
    }
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
        [&](const tir::BufferLoadNode* load, Span at) {
          use_buffer(load->buffer.get(), at);
          check_constant_indices(load->buffer.get(), load->indices, at);
        });
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
    if (store->buffer.defined()) check_constant_indices(store->buffer.get(), store->indices, span);
  }

  // A constant index outside a constant dimension: no run of the program can be right.
  void check_constant_indices(const tir::BufferNode* buffer,
                              const std::vector<tir::PrimExpr>& indices, Span span) {
    if (indices.size() != buffer->shape.size()) return;
    for (size_t i = 0; i < indices.size(); ++i) {
      const int64_t* index = indices[i].defined() ? tir::as_const_int(indices[i]) : nullptr;
      const int64_t* extent =
          buffer->shape[i].defined() ? tir::as_const_int(buffer->shape[i]) : nullptr;
      if (index == nullptr || extent == nullptr || (*index >= 0 && *index < *extent)) continue;
      error(span, "[tir] index " + std::to_string(*index) + " of dimension " + std::to_string(i) +
                      " of buffer '" + buffer->name + "' is outside its extent " +
                      std::to_string(*extent) + " (indices run from 0 to " +
                      std::to_string(*extent - 1) + ")");
    }
  }

  void visit_TirEvaluate(const tir::EvaluateNode* evaluate, Span span) override {
    check_expr(evaluate->value, span);
    const auto* call = evaluate->value.defined() ? evaluate->value.as<tir::CallNode>() : nullptr;
    if (call == nullptr || call->op != "tir.tvm_storage_sync") return;
    const auto* scope = call->args.size() == 1 && call->args[0].defined()
                            ? call->args[0].as<tir::StringImmNode>()
                            : nullptr;
    if (scope == nullptr || scope->value != "shared") {
      error(span,
            "[tir] T.tvm_storage_sync of " +
                (scope != nullptr ? "scope '" + scope->value + "'" : std::string("no scope")) +
                " in PrimFunc '" + name_ +
                "'; relaxc synchronizes the threads of a block with "
                "T.tvm_storage_sync(\"shared\")");
    }
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
    bool bound = loop->kind == tir::ForKind::ThreadBinding;
    if (bound) check_thread_extent(loop, span);
    if (loop->kind == tir::ForKind::Parallel && !thread_loops_.empty()) {
      const tir::ForNode* outer = thread_loops_.back();
      error(span, "[tir] loop '" + loop_var_name(loop) + "' is T.parallel inside loop '" +
                      loop_var_name(outer) + "' bound to " + outer->thread_tag +
                      "; a kernel's parallel work is its threads (bind the loop to a thread "
                      "axis, or make it serial)");
    }
    push_frame();
    if (loop->loop_var.defined()) define_var(loop->loop_var.get());
    if (bound) thread_loops_.push_back(loop);
    check_stmt(loop->body, span);
    if (bound) thread_loops_.pop_back();
    pop_frame();
  }

  // A block of no threads or a grid of no blocks is no kernel: its code never runs and
  // whatever it should have written stays uninitialized.
  void check_thread_extent(const tir::ForNode* loop, Span span) {
    const int64_t* extent = loop->extent.defined() ? tir::as_const_int(loop->extent) : nullptr;
    if (extent == nullptr || *extent >= 1) return;
    error(span, "[tir] loop '" + loop_var_name(loop) + "' bound to " + loop->thread_tag +
                    " has extent " + std::to_string(*extent) +
                    "; a thread-bound loop needs at least one thread or block");
  }

  static std::string loop_var_name(const tir::ForNode* loop) {
    return loop->loop_var.defined() ? loop->loop_var->name : std::string("?");
  }

  // What the kernel lowering and the back ends can allocate: "global" memory the host
  // allocates before the kernels run, a block's "shared" memory, a thread's "local" one.
  void check_allocation(const tir::BufferNode* buffer, Span span) {
    if (buffer->span.defined()) span = buffer->span;
    const std::string& scope = buffer->scope;
    if (scope != "global" && scope != "shared" && scope != "local") {
      error(span, "[tir] buffer '" + buffer->name + "' is allocated in scope '" + scope +
                      "'; relaxc allocates in 'global', 'shared' or 'local'");
    } else if (scope == "global" && !thread_loops_.empty()) {
      const tir::ForNode* loop = thread_loops_.back();
      error(span, "[tir] buffer '" + buffer->name +
                      "' is allocated in scope 'global' inside loop '" + loop_var_name(loop) +
                      "' bound to " + loop->thread_tag +
                      "; a kernel allocates in 'shared' or 'local' (allocate a global buffer "
                      "outside the thread-bound loops)");
    }
    for (size_t i = 0; i < buffer->shape.size(); ++i) {
      const int64_t* extent =
          buffer->shape[i].defined() ? tir::as_const_int(buffer->shape[i]) : nullptr;
      if (extent != nullptr && *extent == 0) {
        error(span, "[tir] dimension " + std::to_string(i) + " of allocated buffer '" +
                        buffer->name + "' is 0; an allocation holds at least one element");
      }
    }
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
      check_allocation(alloc->buffer.get(), span);
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
      check_allocation(buffer.get(), span);
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
  std::vector<const tir::ForNode*> thread_loops_;  // the thread-bound loops around the walk
  std::unordered_set<const Object*> reported_;
  int depth_ = 0;
  bool depth_reported_ = false;
};

}  // namespace

void check_prim_func(const std::string& name, const tir::PrimFuncNode* func, Reporter* reporter) {
  TirChecker(name, reporter).check(func);
}

}  // namespace relaxc::relax::well_formed
