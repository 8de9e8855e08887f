// The thread axes: checking a lowered kernel's thread-bound loop against the table.
#include "ir/tir/thread_axis.h"

#include "ir/support/diagnostics.h"

namespace relaxc::tir {

const ThreadAxis& kernel_thread_axis(const ForNode& loop, const std::string& kernel) {
  const ThreadAxis* axis = find_thread_axis(loop.thread_tag);
  RELAXC_ICHECK(axis != nullptr) << "kernel '" << kernel << "': loop " << loop.loop_var->name
                                 << " is bound to unknown thread axis '" << loop.thread_tag << "'";
  RELAXC_ICHECK(is_const_int(loop.min, 0)) << "kernel '" << kernel << "': thread-bound loop "
                                           << loop.loop_var->name << " does not start at 0";
  return *axis;
}

}  // namespace relaxc::tir
