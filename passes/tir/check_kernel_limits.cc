// check_kernel_limits: a finished kernel against its target's limits.
//
// Algorithm: reads the kernel's thread-bound loops (threads per block per axis and in all,
// constant grid extents), sums its "shared" Allocates, and walks every buffer and
// expression for a dtype the target lacks. The first violation is a UserError naming the
// loop, buffer or expression, the value, the limit and the target.
#include <sstream>

#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

// The kernel's outermost thread-bound loops.
std::vector<const ForNode*> thread_loops(const PrimFunc& kernel) {
  std::vector<const ForNode*> loops;
  const StmtNode* s = kernel->body.get();
  while (const auto* loop = Stmt(s).as<ForNode>()) {
    if (loop->kind != ForKind::ThreadBinding) break;
    loops.push_back(loop);
    s = loop->body.get();
  }
  return loops;
}

const ForNode* loop_of(const std::vector<const ForNode*>& loops, std::string_view tag) {
  for (const ForNode* loop : loops) {
    if (loop->thread_tag == tag) return loop;
  }
  return nullptr;
}

std::string loop_name(const ForNode* loop, std::string_view tag) {
  return loop != nullptr ? "loop '" + loop->loop_var->name + "' bound to " + std::string(tag)
                         : std::string(tag);
}

void check_dtypes(const DeviceKernel& kernel, const Target& target) {
  auto refuse = [&](Span span, const std::string& what, DataType dtype) {
    user_error(span) << what << " of kernel '" << kernel.name << "' has dtype " << dtype.str()
                     << ", which target '" << target.str() << "' does not support";
  };
  for (const auto& [handle, buf] : kernel.func->buffer_map) {
    if (!target.supports(buf->dtype)) refuse(buf->span, "buffer '" + buf->name + "'", buf->dtype);
  }
  for (const Var& param : kernel.func->params) {
    if (!target.supports(param->dtype))
      refuse(param->span, "scalar '" + param->name + "'", param->dtype);
  }
  post_order_visit(kernel.func->body, [&](const Ref<Object>& n) {
    if (const auto* alloc = n.as<AllocateNode>()) {
      const Buffer& buf = alloc->buffer;
      if (!target.supports(buf->dtype)) refuse(buf->span, "buffer '" + buf->name + "'", buf->dtype);
    } else if (const auto* e = n.as<PrimExprNode>()) {
      if (e->dtype.is_void() || e->dtype.is_handle()) return;
      if (!target.supports(e->dtype.element_of())) {
        refuse(e->span, "expression '" + text::print_node(n) + "'", e->dtype);
      }
    }
  });
}

}  // namespace

KernelLaunch launch_of_kernel(const PrimFunc& kernel, const std::string& name) {
  KernelLaunch launch;
  launch.kernel.name = name;
  launch.kernel.func = kernel;
  launch.kernel.shared_memory_bytes = shared_memory_bytes(kernel);
  for (int axis = 0; axis < 3; ++axis) launch.grid_size[axis] = int_imm(DataType::Int(64), 1);
  std::vector<const ForNode*> loops = thread_loops(kernel);
  for (int axis = 0; axis < 3; ++axis) {
    if (const ForNode* block = loop_of(loops, block_axis(axis).tag)) {
      launch.grid_size[axis] = block->extent;
    }
    std::string_view tag = thread_axis(axis).tag;
    const ForNode* thread = loop_of(loops, tag);
    if (thread == nullptr) continue;
    const int64_t* extent = as_const_int(thread->extent);
    if (extent == nullptr) {
      user_error(thread->span) << loop_name(thread, tag) << " of kernel '" << name
                               << "' has a symbolic extent; a block's threads must be constant";
    }
    launch.kernel.block_size[axis] = *extent;
  }
  for (int i = 0; i < launch.kernel.num_buffer_params(); ++i) launch.buffer_args.push_back(i);
  for (size_t i = static_cast<size_t>(launch.kernel.num_buffer_params()); i < kernel->params.size();
       ++i) {
    launch.scalar_args.push_back(kernel->params[i]);
  }
  return launch;
}

int64_t shared_memory_bytes(const PrimFunc& kernel) {
  int64_t bytes = 0;
  post_order_visit(kernel->body, [&](const Ref<Object>& n) {
    const auto* alloc = n.as<AllocateNode>();
    if (alloc == nullptr || alloc->buffer->scope != "shared") return;
    int64_t elems = 1;
    for (const PrimExpr& dim : alloc->buffer->shape) {
      const int64_t* v = as_const_int(dim);
      elems *= v != nullptr ? *v : 0;
    }
    bytes += elems * alloc->buffer->dtype.bytes();
  });
  return bytes;
}

void check_kernel_limits(const KernelLaunch& launch, const Target& target) {
  const DeviceKernel& kernel = launch.kernel;
  std::vector<const ForNode*> loops = thread_loops(kernel.func);
  int64_t threads = 1;
  for (int axis = 0; axis < 3; ++axis) {
    std::string_view tag = thread_axis(axis).tag;
    const ForNode* loop = loop_of(loops, tag);
    int64_t extent = kernel.block_size[axis];
    threads *= extent;
    if (extent > target.max_block_size[axis]) {
      user_error(loop != nullptr ? loop->span : Span{})
          << loop_name(loop, tag) << " has " << extent << " threads per block; target '"
          << target.str() << "' allows at most " << target.max_block_size[axis];
    }
  }
  if (threads > target.max_threads_per_block) {
    user_error(kernel.func->span) << "kernel '" << kernel.name << "' has " << kernel.block_size[0]
                                  << " x " << kernel.block_size[1] << " x " << kernel.block_size[2]
                                  << " = " << threads << " threads per block; target '"
                                  << target.str() << "' allows at most "
                                  << target.max_threads_per_block;
  }
  for (int axis = 0; axis < 3; ++axis) {
    const PrimExpr& extent = launch.grid_size[axis];
    const int64_t* value = extent.defined() ? as_const_int(extent) : nullptr;
    if (value == nullptr || *value <= target.max_grid_size[axis]) continue;
    std::string_view tag = block_axis(axis).tag;
    const ForNode* loop = loop_of(loops, tag);
    user_error(loop != nullptr ? loop->span : Span{})
        << loop_name(loop, tag) << " has " << *value << " blocks; target '" << target.str()
        << "' allows at most " << target.max_grid_size[axis];
  }
  if (kernel.shared_memory_bytes > target.max_shared_memory_bytes) {
    std::ostringstream buffers;
    post_order_visit(kernel.func->body, [&](const Ref<Object>& n) {
      const auto* alloc = n.as<AllocateNode>();
      if (alloc == nullptr || alloc->buffer->scope != "shared") return;
      const int64_t* elems = as_const_int(alloc->buffer->shape[0]);
      buffers << (buffers.tellp() > 0 ? ", " : "") << "'" << alloc->buffer->name << "' "
              << (elems != nullptr ? *elems * alloc->buffer->dtype.bytes() : 0);
    });
    user_error(kernel.func->span) << "kernel '" << kernel.name << "' uses "
                                  << kernel.shared_memory_bytes
                                  << " bytes of shared memory (buffers " << buffers.str()
                                  << " bytes); target '" << target.str() << "' allows at most "
                                  << target.max_shared_memory_bytes;
  }
  check_dtypes(kernel, target);
}

}  // namespace relaxc::tir
