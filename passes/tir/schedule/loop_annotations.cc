// Schedule primitives that change how a loop runs, not what it iterates over: bind (to
// a GPU thread axis), unroll, vectorize, each of which checks the loop and sets its kind;
// and annotate, which sets one of its annotations.
#include <functional>
#include <string>

#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

namespace {

// The first loop under `stmt` (itself included) satisfying `pred`, or null.
const ForNode* find_loop_under(const Stmt& stmt, const std::function<bool(const ForNode&)>& pred) {
  const ForNode* found = nullptr;
  post_order_visit(stmt, [&](const Ref<Object>& node) {
    const auto* loop = node.as<ForNode>();
    if (found == nullptr && loop != nullptr && pred(*loop)) found = loop;
  });
  return found;
}

// `loop` with its kind (and thread axis) replaced.
Stmt with_kind(const For& loop, ForKind kind, std::string thread_tag = {}) {
  auto* copy = copy_node(*loop);
  copy->kind = kind;
  copy->thread_tag = std::move(thread_tag);
  return Stmt(copy);
}

void require_serial(const For& loop, const char* primitive) {
  if (loop->kind == ForKind::Serial) return;
  user_error(loop->span) << primitive << " of " << loop_name(loop->loop_var) << ": the loop is "
                         << (loop->kind == ForKind::ThreadBinding ? "bound to " + loop->thread_tag
                                                                  : for_kind_name(loop->kind))
                         << " already";
}

void require_constant_extent(const For& loop, const char* primitive) {
  if (as_const_int(loop->extent) != nullptr) return;
  user_error(loop->span) << primitive << " of " << loop_name(loop->loop_var) << ": its extent "
                         << text::print_node(loop->extent) << " is not a constant";
}

}  // namespace

void Schedule::bind(const LoopRef& loop_ref, const std::string& thread_axis) {
  For loop = get_for(loop_ref);
  const Var& v = loop->loop_var;
  if (find_thread_axis(thread_axis) == nullptr) {
    user_error(loop->span) << "bind of " << loop_name(v) << ": unknown thread axis '" << thread_axis
                           << "' (expected blockIdx.x/y/z or threadIdx.x/y/z)";
  }
  require_serial(loop, "bind");
  if (!is_const_int(loop->min, 0)) {
    user_error(loop->span) << "bind of " << loop_name(v) << ": the loop starts at "
                           << text::print_node(loop->min) << "; a thread-bound loop starts at 0";
  }
  StmtPath path = find_loop_path(func_->body, v);
  // A threadIdx loop nested in one bound to the same axis is a cooperative fetch (a copy
  // computed at a loop under the consumer's threads): kernel lowering merges the two
  // (unify_thread_bindings). Blocks have no such use.
  bool nesting_allowed = is_thread_index(thread_axis);
  for (const Stmt& s : path) {
    const auto* outer = s.as<ForNode>();
    if (!nesting_allowed && outer != nullptr && outer->thread_tag == thread_axis) {
      user_error(loop->span) << "bind of " << loop_name(v) << ": " << thread_axis
                             << " is bound already to the enclosing " << loop_name(outer->loop_var);
    }
  }
  const ForNode* inner =
      find_loop_under(loop->body, [&](const ForNode& l) { return l.thread_tag == thread_axis; });
  if (!nesting_allowed && inner != nullptr) {
    user_error(loop->span) << "bind of " << loop_name(v) << ": " << thread_axis
                           << " is bound already to " << loop_name(inner->loop_var) << " inside it";
  }
  LoopIterUse use = loop_iter_use(loop);
  if (use.reduce && is_block_index(thread_axis)) {
    user_error(loop->span) << "bind of " << loop_name(v) << " to " << thread_axis
                           << ": the loop iterates over a reduction of block '" << use.reduce_block
                           << "'; only threadIdx.* may take a reduction loop (a cross-thread "
                              "reduction)";
  }
  func_ =
      with_body(func_, replace_in_path(path, with_kind(loop, ForKind::ThreadBinding, thread_axis)));
}

void Schedule::unroll(const LoopRef& loop_ref) {
  For loop = get_for(loop_ref);
  require_serial(loop, "unroll");
  require_constant_extent(loop, "unroll");
  func_ = with_body(func_, replace_in_path(find_loop_path(func_->body, loop->loop_var),
                                           with_kind(loop, ForKind::Unrolled)));
}

void Schedule::vectorize(const LoopRef& loop_ref) {
  For loop = get_for(loop_ref);
  const Var& v = loop->loop_var;
  require_serial(loop, "vectorize");
  require_constant_extent(loop, "vectorize");
  const ForNode* inner = find_loop_under(loop->body, [](const ForNode&) { return true; });
  if (inner != nullptr) {
    user_error(loop->span) << "vectorize of " << loop_name(v) << ": it is not the innermost loop ("
                           << loop_name(inner->loop_var) << " is inside it)";
  }
  LoopIterUse use = loop_iter_use(loop);
  if (use.reduce) {
    user_error(loop->span) << "vectorize of " << loop_name(v)
                           << ": the loop carries a reduction of block '" << use.reduce_block
                           << "'";
  }
  func_ = with_body(
      func_, replace_in_path(find_loop_path(func_->body, v), with_kind(loop, ForKind::Vectorized)));
}

void Schedule::annotate(const LoopRef& loop_ref, const std::string& key, AttrValue value) {
  For loop = get_for(loop_ref);
  auto* copy = copy_node(*loop);
  copy->annotations = loop->annotations.with(key, std::move(value));
  func_ =
      with_body(func_, replace_in_path(find_loop_path(func_->body, loop->loop_var), Stmt(copy)));
}

}  // namespace relaxc::tir
