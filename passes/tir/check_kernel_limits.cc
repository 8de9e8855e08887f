// check_kernel_limits: a finished kernel against its target's limits.
//
// Algorithm: reads the kernel's thread-bound loops (threads per block per axis and in all,
// constant grid extents), sums its "shared" Allocates (per block) and its "local" ones
// (per thread), and walks every buffer and expression for a dtype the target lacks. The
// first violation is a UserError naming the loop, buffer or expression, the value, the
// limit and the target.
#include <limits>
#include <sstream>
#include <string_view>

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

// Sizes saturate at INT64_MAX: a constant shape may multiply past int64, and any size
// that large is over every limit.
int64_t saturating_add(int64_t a, int64_t b) {
  int64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? std::numeric_limits<int64_t>::max() : sum;
}

// The bytes of an allocation of constant shape (a symbolic dimension counts 0:
// flatten_buffers refuses those in shared and local memory).
int64_t allocation_bytes(const BufferNode& buf) {
  int64_t bytes = buf.dtype.bytes();
  for (const PrimExpr& dim : buf.shape) {
    const int64_t* extent = as_const_int(dim);
    if (extent == nullptr) return 0;
    if (__builtin_mul_overflow(bytes, *extent, &bytes)) return std::numeric_limits<int64_t>::max();
  }
  return bytes;
}

// The kernel's Allocates in `scope`, in the order they appear.
std::vector<const BufferNode*> allocations_in(const PrimFunc& kernel, std::string_view scope) {
  std::vector<const BufferNode*> buffers;
  post_order_visit(kernel->body, [&](const Ref<Object>& n) {
    const auto* alloc = n.as<AllocateNode>();
    if (alloc != nullptr && alloc->buffer->scope == scope) buffers.push_back(alloc->buffer.get());
  });
  return buffers;
}

// The kernel's allocations in `scope` ("shared": per block, "local": per thread) against
// `limit`; the error stands at the largest buffer and lists them all.
void check_memory(const DeviceKernel& kernel, const Target& target, std::string_view scope,
                  std::string_view per, int64_t limit) {
  std::vector<const BufferNode*> buffers = allocations_in(kernel.func, scope);
  int64_t total = 0;
  const BufferNode* largest = nullptr;
  for (const BufferNode* buf : buffers) {
    total = saturating_add(total, allocation_bytes(*buf));
    if (largest == nullptr || allocation_bytes(*buf) > allocation_bytes(*largest)) largest = buf;
  }
  if (total <= limit) return;
  std::ostringstream list;
  for (const BufferNode* buf : buffers) {
    list << (list.tellp() > 0 ? ", " : "") << "'" << buf->name << "' " << allocation_bytes(*buf);
  }
  user_error(largest->span.defined() ? largest->span : kernel.func->span)
      << "kernel '" << kernel.name << "' uses " << total << " bytes of " << scope << " memory "
      << per << " (buffers " << list.str() << " bytes); target '" << target.str()
      << "' allows at most " << limit;
}

// Why bfloat16 is missing: legalize_bfloat16 leaves it only where it cannot emulate it.
std::string bfloat16_remedy(const Target& target) {
  if (target.kind == TargetKind::Cuda) return "; bfloat16 arithmetic needs sm_80 or later";
  return target.emulates_bfloat16()
             ? ""
             : "; bfloat16 is emulated in 16-bit integer storage, which it lacks";
}

void check_dtypes(const DeviceKernel& kernel, const Target& target) {
  auto refuse = [&](Span span, const std::string& what, DataType dtype) {
    user_error(span) << what << " of kernel '" << kernel.name << "' has dtype " << dtype.str()
                     << ", which target '" << target.str() << "' does not support"
                     << (dtype.is_bfloat() ? bfloat16_remedy(target) : "");
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
  for (const BufferNode* buf : allocations_in(kernel, "shared")) {
    bytes = saturating_add(bytes, allocation_bytes(*buf));
  }
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
  check_memory(kernel, target, "shared", "per block", target.max_shared_memory_bytes);
  check_memory(kernel, target, "local", "per thread", target.max_local_memory_bytes);
  check_dtypes(kernel, target);
}

}  // namespace relaxc::tir
