// split_host_device: a block-free PrimFunc becomes kernels and the host's launches.
//
// Algorithm: the top level of the body may hold only Allocates, sequences and
// conditions over the host vars around thread-bound loops. A root "global" Allocate is a
// workspace of the host; a root "shared"/"local" Allocate moves into the one kernel that
// uses it. The conditions around a region (a schedule specialized by shape: `if n <= 4`
// for one variant, else another) become its launch's condition. Each outermost
// ThreadBinding loop is a region that becomes a kernel:
// - its thread-bound loops are collected per axis; each axis gets one var (the first
//   loop's, or a fresh one of that name when its min is not 0) and one extent (threadIdx:
//   the largest constant extent; blockIdx: the common extent, or the largest constant);
// - a blockIdx axis whose extent E may exceed the target's grid limit L on that axis
//   (a capability of the Target: 65535 on Vulkan, 65535 in y and z on CUDA; CUDA's
//   2^31 - 1 in x is above any extent an int32-indexed kernel has) runs on min(E, L)
//   blocks b. Where the kernel leaves another blockIdx axis free (unused, or used only by
//   loops of extent 1, whose vars become their min) and that axis holds ceil(E / L) blocks
//   o for any int32 E, the blocks past L overflow onto it: the axis var is b + o * L,
//   under the guard `b + o * L < E` around the body. Otherwise the axis becomes a
//   grid-stride loop: block b runs b, b + L, b + 2L, ... below E in a serial loop of
//   ceil((E - b) / L) steps under the thread-bound loops. Either way the guard or the trip
//   count is the same for every thread of a block, so barriers in the body stay uniform,
//   and kernels run at any size the memory allows, whichever schedule bound them. The
//   overflow axis is preferred: a loop around the body's barriers costs some drivers
//   (lavapipe) 2.6x on a softmax, where a guard that holds costs a compare. Whether E
//   may exceed L is decided with what int32 indexing bounds (int32_index_bounds): a
//   batch n of a buffer (n, 96, 112, 112) is at most 1783, within any grid limit;
// - every thread-bound loop is replaced by its body with its var rewritten to the axis
//   var (plus its min), guarded by "axis var < extent" where its extent is smaller
//   (barriers between the regions are insert_shared_barriers' work, on the kernel);
// - the axes are re-created outermost (blockIdx, then threadIdx, each in order of first
//   appearance), params are the buffers it touches (in LoweredFunc::buffers() order)
//   then the host vars it uses (in host var order).
#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "ir/arith/analyzer.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {

Stmt storage_sync() {
  return evaluate(call(DataType::Void(), "tir.tvm_storage_sync", {string_imm("shared")}));
}

bool is_storage_sync(const Stmt& stmt) {
  const auto* eval = stmt.as<EvaluateNode>();
  if (eval == nullptr) return false;
  const auto* c = eval->value.as<CallNode>();
  return c != nullptr && c->op == "tir.tvm_storage_sync";
}

namespace {

using VarSet = std::unordered_set<Var, RefHash, RefEq>;
// Upper bounds of host vars (their lower bound is 0: they are sizes).
using VarBounds = std::vector<std::pair<Var, int64_t>>;

// What int32 indexing tells of the host vars: the VM refuses a buffer of 2^31 elements
// or more (runtime/vm/kernel_launch.h), so a buffer param of shape (c0, .., v, .., ck),
// one dimension a var v and the others constants, bounds v by (2^31 - 1) / (c0 .. ck);
// the smallest such bound of each var.
VarBounds int32_index_bounds(const PrimFunc& func) {
  std::map<const VarNode*, std::pair<Var, int64_t>> bounds;
  for (const Var& param : func->params) {
    Buffer buf = func->buffer_of(param);
    if (!buf.defined()) continue;
    Var v;
    int64_t others = 1;  // the constant dimensions' product, while below 2^31
    bool bounds_v = true;
    for (const PrimExpr& dim : buf->shape) {
      const int64_t* c = as_const_int(dim);
      if (c != nullptr && *c > 0 && *c <= std::numeric_limits<int32_t>::max() / others) {
        others *= *c;
      } else if (const auto* dim_var = dim.as<VarNode>(); dim_var != nullptr && !v.defined()) {
        v = Var(dim_var);
      } else {
        bounds_v = false;  // a second var, an expression, an empty or a huge dimension
      }
    }
    if (!bounds_v || !v.defined()) continue;
    int64_t max = std::numeric_limits<int32_t>::max() / others;
    auto [it, added] = bounds.emplace(v.get(), std::pair(v, max));
    if (!added) it->second.second = std::min(it->second.second, max);
  }
  VarBounds result;
  for (const auto& [node, bound] : bounds) result.push_back(bound);
  return result;
}

// kThreadAxes' index of `tag`, or -1 for anything else.
int thread_tag_index(const std::string& tag) {
  const ThreadAxis* axis = find_thread_axis(tag);
  return axis != nullptr ? axis->index() : -1;
}

bool holds_barrier(const Stmt& stmt) {
  bool found = false;
  post_order_visit(stmt, [&](const Ref<Object>& n) {
    if (const auto* s = n.as<EvaluateNode>(); s != nullptr && is_storage_sync(Stmt(s))) {
      found = true;
    }
  });
  return found;
}

std::string describe(const Stmt& stmt) {
  std::string text = text::print_node(stmt);
  size_t eol = text.find('\n');
  if (eol != std::string::npos) text = text.substr(0, eol);
  return text;
}

// One thread axis of a kernel.
struct KernelAxis {
  int tag_index = -1;
  Var var;
  PrimExpr extent;
  Span span;
  std::vector<const ForNode*> loops;
  // A blockIdx axis whose extent may pass the grid limit: the hardware block index (the
  // loop var of the thread-bound loop) and the limit. Undefined otherwise. With
  // `overflow_tag`, the axis (of axes_) that counts the blocks past the limit; without
  // it, the axis strides over its extent in a loop.
  Var grid_index;
  int64_t grid_limit = 0;
  int overflow_tag = -1;

  // The extent of the thread-bound loop, which is the launch's grid size on a blockIdx axis.
  PrimExpr launched_extent() const {
    if (!grid_index.defined()) return extent;
    if (const int64_t* value = as_const_int(extent)) {
      return int_imm(extent->dtype, std::min(*value, grid_limit));
    }
    return min(extent, int_imm(extent->dtype, grid_limit));
  }
};

class KernelBuilder {
 public:
  KernelBuilder(const For& region, const Target& target, const VarBounds& host_var_bounds)
      : region_(region), target_(target), host_var_bounds_(host_var_bounds) {}

  // The kernel body with its axes outermost; `axes_` describes them.
  Stmt build() {
    std::vector<int> enclosing;
    walk_loops(region_, enclosing);
    choose_extents();
    return rewrite(region_);
  }

  Stmt wrap_in_axes(Stmt inner) const {
    // The overflow guards and grid-stride loops go innermost: a kernel's thread-bound
    // loops stay outermost.
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const KernelAxis& axis = axes_.at(*it);
      if (!axis.grid_index.defined()) continue;
      DataType dtype = axis.var->dtype;
      PrimExpr limit = int_imm(dtype, axis.grid_limit);
      PrimExpr extent = axis.extent->dtype == dtype ? axis.extent : cast(dtype, axis.extent);
      if (axis.overflow_tag >= 0) {
        PrimExpr index = add(axis.grid_index, mul(axes_.at(axis.overflow_tag).var, limit));
        VarMap map{{axis.var, index}};
        inner = if_then_else(lt(index, extent), substitute(inner, map), {}, axis.span);
        continue;
      }
      Var step = var(axis.var->name + "_stride", dtype);
      VarMap map{{axis.var, add(axis.grid_index, mul(step, limit))}};
      // ceil((E - b) / L): the iterations b + k L below E.
      PrimExpr steps =
          floordiv(add(sub(extent, axis.grid_index), int_imm(dtype, axis.grid_limit - 1)), limit);
      inner = for_loop(step, int_imm(dtype, 0), steps, ForKind::Serial, substitute(inner, map), "",
                       {}, axis.span);
    }
    for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
      const KernelAxis& axis = axes_.at(*it);
      Var index = axis.grid_index.defined() ? axis.grid_index : axis.var;
      inner =
          for_loop(index, int_imm(index->dtype, 0), axis.launched_extent(), ForKind::ThreadBinding,
                   inner, std::string(kThreadAxes[axis.tag_index].tag), {}, axis.span);
    }
    return inner;
  }

  const std::map<int, KernelAxis>& axes() const { return axes_; }

 private:
  void walk_loops(const Stmt& stmt, std::vector<int>& enclosing) {
    if (!stmt.defined()) return;
    if (const auto* loop = stmt.as<ForNode>()) {
      if (loop->kind == ForKind::ThreadBinding) {
        int index = thread_tag_index(loop->thread_tag);
        if (index < 0) {
          user_error(loop->span) << "loop '" << loop->loop_var->name << "' is bound to '"
                                 << loop->thread_tag
                                 << "'; expected blockIdx.x/y/z or threadIdx.x/y/z";
        }
        if (std::find(enclosing.begin(), enclosing.end(), index) != enclosing.end()) {
          user_error(loop->span) << "loop '" << loop->loop_var->name << "' is bound to "
                                 << loop->thread_tag
                                 << " inside another loop bound to the same axis";
        }
        KernelAxis& axis = axes_[index];
        if (axis.loops.empty()) {
          axis.tag_index = index;
          order_.push_back(index);
        }
        axis.loops.push_back(loop);
        enclosing.push_back(index);
        walk_loops(loop->body, enclosing);
        enclosing.pop_back();
        return;
      }
      walk_loops(loop->body, enclosing);
      return;
    }
    if (const auto* seq = stmt.as<SeqStmtNode>()) {
      for (const Stmt& s : seq->seq) walk_loops(s, enclosing);
    } else if (const auto* branch = stmt.as<IfThenElseNode>()) {
      walk_loops(branch->then_case, enclosing);
      walk_loops(branch->else_case, enclosing);
    } else if (const auto* let = stmt.as<LetStmtNode>()) {
      walk_loops(let->body, enclosing);
    } else if (const auto* alloc = stmt.as<AllocateNode>()) {
      walk_loops(alloc->body, enclosing);
    } else if (const auto* loop = stmt.as<WhileNode>()) {
      walk_loops(loop->body, enclosing);
    }
  }

  void choose_extents() {
    std::vector<int> blocks, thread_axes;
    for (int index : order_) (index < 3 ? blocks : thread_axes).push_back(index);
    order_ = blocks;
    order_.insert(order_.end(), thread_axes.begin(), thread_axes.end());
    arith::Analyzer analyzer;
    for (const auto& [v, max] : host_var_bounds_) analyzer.bind_bounds(v, 0, max);
    for (auto& [index, axis] : axes_) {
      const ForNode* first = axis.loops.front();
      axis.span = first->span;
      axis.var = is_const_int(first->min, 0) ? first->loop_var
                                             : var(first->loop_var->name, first->loop_var->dtype);
      bool is_thread = index >= 3;
      int64_t largest = -1;
      bool all_constant = true;
      for (const ForNode* loop : axis.loops) {
        const int64_t* extent = as_const_int(loop->extent);
        if (extent == nullptr) {
          all_constant = false;
          if (is_thread) {
            user_error(loop->span)
                << "loop '" << loop->loop_var->name << "' bound to " << loop->thread_tag
                << " has the symbolic extent " << text::print_node(loop->extent)
                << "; the threads of a block must be a constant number (split the loop by a "
                   "constant factor and bind the inner loop)";
          }
          continue;
        }
        if (is_thread && *extent > target_.max_block_size[index - 3]) {
          user_error(loop->span) << "loop '" << loop->loop_var->name << "' bound to "
                                 << loop->thread_tag << " has " << *extent
                                 << " threads per block; target '" << target_.str()
                                 << "' allows at most " << target_.max_block_size[index - 3];
        }
        largest = std::max(largest, *extent);
      }
      if (all_constant) {
        axis.extent = int_imm(first->extent->dtype, largest);
        if (!is_thread) stride_if_over_limit(axis, analyzer);
        continue;
      }
      axis.extent = first->extent;
      for (const ForNode* loop : axis.loops) {
        if (!analyzer.can_prove_equal(loop->extent, first->extent)) {
          user_error(loop->span) << "loop '" << loop->loop_var->name << "' bound to "
                                 << loop->thread_tag << " has the extent "
                                 << text::print_node(loop->extent) << " but loop '"
                                 << first->loop_var->name << "' bound to the same axis in this "
                                 << "kernel has " << text::print_node(first->extent)
                                 << "; blockIdx extents of one kernel must agree";
        }
      }
      if (!is_thread) stride_if_over_limit(axis, analyzer);
    }
    assign_overflow_axes();
    int64_t threads = 1;
    std::string loops;
    for (int index : order_) {
      if (index < 3) continue;
      const KernelAxis& axis = axes_.at(index);
      threads *= *as_const_int(axis.extent);
      loops += std::string(loops.empty() ? "" : ", ") + "'" + axis.loops.front()->loop_var->name +
               "' (" + std::string(kThreadAxes[index].tag) + " x " +
               std::to_string(*as_const_int(axis.extent)) + ")";
    }
    if (threads > target_.max_threads_per_block) {
      user_error(region_->span) << "loops " << loops << " have " << threads
                                << " threads per block; target '" << target_.str()
                                << "' allows at most " << target_.max_threads_per_block;
    }
  }

  // Marks a blockIdx axis whose extent may pass the grid limit (assign_overflow_axes then
  // gives it an overflow axis or a grid-stride loop).
  void stride_if_over_limit(KernelAxis& axis, arith::Analyzer& analyzer) const {
    int64_t limit = target_.max_grid_size[axis.tag_index];
    // Kernels index in int32 (narrow_to_int32): an extent a kernel can index is below
    // 2^31, so a limit of 2^31 - 1 (CUDA's x) always fits.
    if (limit >= std::numeric_limits<int32_t>::max()) return;
    if (analyzer.can_prove(le(axis.extent, int_imm(axis.extent->dtype, limit)))) return;
    axis.grid_index = var(axis.var->name, axis.var->dtype);
    axis.grid_limit = limit;
  }

  // Gives each blockIdx axis past its limit a free blockIdx axis for the blocks past it,
  // where one holds ceil(E / L) blocks for any int32 extent E (see the file comment); the
  // others stay grid-stride loops.
  void assign_overflow_axes() {
    constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();
    for (int index = 0; index < 3; ++index) {
      auto found = axes_.find(index);
      if (found == axes_.end() || !found->second.grid_index.defined()) continue;
      KernelAxis& axis = found->second;
      const int64_t limit = axis.grid_limit;
      for (int free = 0; free < 3; ++free) {
        if (free == index || unit_axes_.count(free) != 0 ||
            (kMaxExtent + limit - 1) / limit > target_.max_grid_size[free]) {
          continue;
        }
        if (auto taken = axes_.find(free); taken == axes_.end()) {
          order_.insert(std::find_if(order_.begin(), order_.end(), [](int i) { return i >= 3; }),
                        free);
        } else if (is_const_int(taken->second.extent, 1)) {
          unit_axes_.insert(free);
        } else {
          continue;
        }
        DataType dtype = axis.var->dtype;
        PrimExpr extent = axis.extent->dtype == dtype ? axis.extent : cast(dtype, axis.extent);
        KernelAxis overflow;
        overflow.tag_index = free;
        overflow.var = var(axis.var->name + "_overflow", dtype);
        arith::Analyzer analyzer;
        overflow.extent = analyzer.simplify(
            floordiv(add(extent, int_imm(dtype, limit - 1)), int_imm(dtype, limit)));
        overflow.span = axis.span;
        axes_[free] = overflow;
        axis.overflow_tag = free;
        break;
      }
    }
  }

  // The statement with its thread-bound loops replaced by their bodies over the axis vars.
  Stmt rewrite(const Stmt& stmt) {
    if (!stmt.defined()) return stmt;
    if (const auto* loop = stmt.as<ForNode>()) {
      if (loop->kind == ForKind::ThreadBinding) return rewrite_thread_loop(loop);
      Stmt body = rewrite(loop->body);
      if (body.same_as(loop->body)) return stmt;
      auto* copy = copy_node(*loop);
      copy->body = body;
      return Stmt(copy);
    }
    if (const auto* seq = stmt.as<SeqStmtNode>()) {
      std::vector<Stmt> items;
      for (const Stmt& item : seq->seq) items.push_back(rewrite(item));
      return seq_stmt(items, seq->span);
    }
    if (const auto* branch = stmt.as<IfThenElseNode>()) {
      return if_then_else(branch->condition, rewrite(branch->then_case), rewrite(branch->else_case),
                          branch->span);
    }
    if (const auto* let = stmt.as<LetStmtNode>()) {
      return let_stmt(let->var, let->value, rewrite(let->body), let->span);
    }
    if (const auto* alloc = stmt.as<AllocateNode>()) {
      return allocate(alloc->buffer, rewrite(alloc->body), alloc->span);
    }
    if (const auto* loop = stmt.as<WhileNode>()) {
      return while_loop(loop->condition, rewrite(loop->body), loop->span);
    }
    return stmt;
  }

  Stmt rewrite_thread_loop(const ForNode* loop) {
    const int tag = thread_tag_index(loop->thread_tag);
    if (unit_axes_.count(tag) != 0) {
      // A loop of extent 1 on an axis the overflow took: its var is its min.
      VarMap map{{loop->loop_var, loop->min}};
      return substitute(rewrite(loop->body), map);
    }
    const KernelAxis& axis = axes_.at(tag);
    arith::Analyzer analyzer;
    bool guarded = !analyzer.can_prove_equal(loop->extent, axis.extent);
    Stmt body = rewrite(loop->body);
    if (guarded && holds_barrier(body)) {
      user_error(loop->span) << "loop '" << loop->loop_var->name << "' bound to "
                             << loop->thread_tag << " has " << text::print_node(loop->extent)
                             << " threads where its kernel has " << text::print_node(axis.extent)
                             << ", and it synchronizes its threads (a cross-thread reduction): "
                                "bind it to the same number of threads";
    }
    PrimExpr value = axis.var;
    if (value->dtype != loop->loop_var->dtype) value = cast(loop->loop_var->dtype, value);
    if (!is_const_int(loop->min, 0)) value = add(value, loop->min);
    if (!value.same_as(loop->loop_var)) {
      VarMap map{{loop->loop_var, value}};
      body = substitute(body, map);
    }
    if (guarded) {
      PrimExpr extent = loop->extent;
      if (extent->dtype != axis.var->dtype) extent = cast(axis.var->dtype, extent);
      body = if_then_else(lt(axis.var, extent), body, {}, loop->span);
    }
    return body;
  }

  For region_;
  const Target& target_;
  const VarBounds& host_var_bounds_;
  std::map<int, KernelAxis> axes_;
  std::vector<int> order_;
  // blockIdx axes of extent-1 loops whose tag an overflow took (their loops run once).
  std::set<int> unit_axes_;
};

// The host vars of `func` in order: scalar params, then the vars of the buffer params'
// shapes, strides and offsets.
std::vector<Var> host_vars_of(const PrimFunc& func) {
  std::vector<Var> vars;
  VarSet seen;
  auto add_vars = [&](const PrimExpr& e) {
    post_order_visit(e, [&](const Ref<Object>& n) {
      if (const auto* v = n.as<VarNode>(); v != nullptr && seen.insert(Var(v)).second) {
        vars.push_back(Var(v));
      }
    });
  };
  for (const Var& param : func->params) {
    if (func->buffer_of(param).defined()) continue;
    if (seen.insert(param).second) vars.push_back(param);
  }
  for (const Var& param : func->params) {
    Buffer buf = func->buffer_of(param);
    if (!buf.defined()) continue;
    for (const PrimExpr& e : buf->shape) add_vars(e);
    for (const PrimExpr& e : buf->strides) add_vars(e);
    if (buf->elem_offset.defined()) add_vars(buf->elem_offset);
  }
  return vars;
}

// The top level of a function: workspaces, kernels, and the root allocations that move
// into kernels.
class HostSplitter {
 public:
  HostSplitter(const PrimFunc& func, const std::string& name, const Target& target)
      : func_(func),
        name_(name),
        target_(target),
        host_vars_(host_vars_of(func)),
        host_var_bounds_(int32_index_bounds(func)) {
    for (const Var& v : host_vars_) host_var_set_.insert(v);
  }

  LoweredFunc run() {
    LoweredFunc result;
    result.name = name_;
    result.source = func_;
    for (const Var& param : func_->params) {
      Buffer buf = func_->buffer_of(param);
      if (buf.defined()) {
        result.params.push_back(buf);
        handle_names_[buf->data.get()] = param->name;
      }
    }
    walk_top(func_->body, PrimExpr());
    result.workspaces = workspaces_;
    std::vector<Buffer> all = result.params;
    all.insert(all.end(), workspaces_.begin(), workspaces_.end());
    for (const Region& kernel : kernels_) {
      result.launches.push_back(make_launch(kernel.body, all, result.launches.size()));
      result.launches.back().condition = kernel.condition;
    }
    return result;
  }

 private:
  struct DeviceAlloc {
    Buffer buffer;
    Span span;
    bool used = false;
  };

  // A thread-bound loop nest that becomes a kernel, and the condition of the branches
  // around it (undefined: none).
  struct Region {
    Stmt body;
    PrimExpr condition;
  };

  void walk_top(const Stmt& stmt, const PrimExpr& condition) {
    if (!stmt.defined()) return;
    if (const auto* seq = stmt.as<SeqStmtNode>()) {
      for (const Stmt& s : seq->seq) walk_top(s, condition);
      return;
    }
    if (const auto* branch = stmt.as<IfThenElseNode>()) {
      if (uses_only_host_vars(branch->condition)) {
        auto both = [&](const PrimExpr& c) {
          arith::Analyzer analyzer;
          return analyzer.simplify(condition.defined() ? logical_and(condition, c) : c);
        };
        walk_top(branch->then_case, both(branch->condition));
        walk_top(branch->else_case, both(logical_not(branch->condition)));
        return;
      }
    }
    if (const auto* alloc = stmt.as<AllocateNode>()) {
      const Buffer& buf = alloc->buffer;
      if (buf->scope == "global") {
        for (const PrimExpr& dim : buf->shape) check_host_expr(dim, buf);
        workspaces_.push_back(buf);
      } else {
        device_allocs_.emplace(buf->data.get(), DeviceAlloc{buf, alloc->span});
        device_alloc_order_.push_back(buf->data.get());
      }
      walk_top(alloc->body, condition);
      return;
    }
    if (const auto* loop = stmt.as<ForNode>()) {
      if (loop->kind == ForKind::ThreadBinding) {
        kernels_.push_back({stmt, condition});
        return;
      }
      user_error(loop->span) << "loop '" << loop->loop_var->name << "' of '" << name_
                             << "' is not inside a thread-bound loop, so it would run on the "
                                "host; bind it (or an outer loop) to blockIdx/threadIdx, or run "
                                "default_gpu_schedule";
    }
    user_error(span_of(stmt.get()))
        << "statement '" << describe(stmt) << "' of '" << name_
        << "' is not inside a thread-bound loop, so it would run on the host; bind its loops "
           "to blockIdx/threadIdx, or run default_gpu_schedule";
  }

  bool uses_only_host_vars(const PrimExpr& e) const {
    bool host = true;
    post_order_visit(e, [&](const Ref<Object>& n) {
      if (const auto* v = n.as<VarNode>(); v != nullptr && host_var_set_.count(Var(v)) == 0) {
        host = false;
      }
    });
    return host;
  }

  void check_host_expr(const PrimExpr& e, const Buffer& buf) {
    post_order_visit(e, [&](const Ref<Object>& n) {
      if (const auto* v = n.as<VarNode>(); v != nullptr && host_var_set_.count(Var(v)) == 0) {
        user_error(buf->span) << "workspace '" << buf->name << "' has a shape that uses '"
                              << v->name << "', which the host does not know";
      }
    });
  }

  KernelLaunch make_launch(const Stmt& region, const std::vector<Buffer>& all_buffers,
                           size_t index) {
    const For loop(region.as<ForNode>());
    KernelBuilder builder(loop, target_, host_var_bounds_);
    Stmt inner = builder.build();

    // Buffers touched, and the root allocations this kernel takes in.
    std::set<const VarNode*> touched;
    post_order_visit(inner, [&](const Ref<Object>& n) {
      if (const auto* load = n.as<BufferLoadNode>()) touched.insert(load->buffer->data.get());
      if (const auto* store = n.as<BufferStoreNode>()) touched.insert(store->buffer->data.get());
    });
    for (const VarNode* data : device_alloc_order_) {
      if (touched.count(data) == 0) continue;
      DeviceAlloc& alloc = device_allocs_.at(data);
      if (alloc.used) {
        user_error(alloc.buffer->span)
            << alloc.buffer->scope << " buffer '" << alloc.buffer->name
            << "' is used by two kernels, but " << alloc.buffer->scope
            << " memory lives only as long as one kernel; allocate it in global scope";
      }
      alloc.used = true;
      inner = allocate(alloc.buffer, inner, alloc.span);
    }
    Stmt body = builder.wrap_in_axes(inner);

    KernelLaunch launch;
    DeviceKernel& kernel = launch.kernel;
    kernel.name =
        kernels_.size() == 1 ? name_ + "_kernel" : name_ + "_kernel_" + std::to_string(index);
    auto node = make_node<PrimFuncNode>();
    for (size_t i = 0; i < all_buffers.size(); ++i) {
      const Buffer& buf = all_buffers[i];
      if (touched.count(buf->data.get()) == 0) continue;
      auto name_it = handle_names_.find(buf->data.get());
      std::string handle_name =
          name_it != handle_names_.end() ? name_it->second : "var_" + buf->name;
      Var handle = var(handle_name, DataType::Handle());
      node->params.push_back(handle);
      node->buffer_map.emplace_back(handle, buf);
      launch.buffer_args.push_back(static_cast<int>(i));
    }
    VarSet used;
    post_order_visit(body, [&](const Ref<Object>& n) {
      if (const auto* v = n.as<VarNode>()) used.insert(Var(v));
    });
    for (const auto& [handle, buf] : node->buffer_map) {
      for (const PrimExpr& e : buf->shape) {
        post_order_visit(e, [&](const Ref<Object>& n) {
          if (const auto* v = n.as<VarNode>()) used.insert(Var(v));
        });
      }
    }
    for (const Var& v : host_vars_) {
      if (used.count(v) == 0) continue;
      node->params.push_back(v);
      launch.scalar_args.push_back(v);
    }
    node->body = body;
    node->attrs = Attrs({{"global_symbol", AttrValue::string(kernel.name)}});
    if (const AttrValue* noalias = func_->attrs.find("tir.noalias")) {
      node->attrs = node->attrs.with("tir.noalias", *noalias);
    }
    node->span = loop->span;
    kernel.func = PrimFunc(node);

    for (int axis = 0; axis < 3; ++axis) {
      launch.grid_size[axis] = int_imm(DataType::Int(64), 1);
    }
    for (const auto& [tag_index, axis] : builder.axes()) {
      if (tag_index < 3) {
        PrimExpr extent = axis.launched_extent();
        if (extent->dtype != DataType::Int(64)) extent = cast(DataType::Int(64), extent);
        launch.grid_size[tag_index] = extent;
      } else {
        kernel.block_size[tag_index - 3] = *as_const_int(axis.extent);
      }
    }
    return launch;
  }

  const PrimFunc& func_;
  const std::string& name_;
  const Target& target_;
  std::vector<Var> host_vars_;
  VarSet host_var_set_;
  VarBounds host_var_bounds_;
  std::unordered_map<const VarNode*, std::string> handle_names_;
  std::vector<Buffer> workspaces_;
  std::vector<Region> kernels_;
  std::map<const VarNode*, DeviceAlloc> device_allocs_;
  std::vector<const VarNode*> device_alloc_order_;
};

}  // namespace

LoweredFunc split_host_device(const PrimFunc& func, const std::string& name, const Target& target) {
  return HostSplitter(func, name, target).run();
}

}  // namespace relaxc::tir
