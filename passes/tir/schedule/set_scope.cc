// set_scope: moves a buffer that a block allocates into another storage scope ("shared":
// one copy per thread block; "local": one per thread), by replacing it everywhere with a
// buffer that differs in its scope alone. Whether the threads then still see the values
// they need is the schedule's business (compute_at under the loops bound to blockIdx);
// the lowering checks the accesses of the kernel it builds.
#include <algorithm>
#include <string>

#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

void Schedule::set_scope(const BlockRef& block, int write_index, const std::string& scope) {
  if (scope != "shared" && scope != "local" && scope != "global") {
    user_error(func_->span) << "set_scope: unknown storage scope '" << scope
                            << "' (expected \"shared\", \"local\" or \"global\")";
  }
  const Block& target = get_block_realize(block)->block;
  if (write_index < 0 || static_cast<size_t>(write_index) >= target->writes.size()) {
    user_error(target->span) << "set_scope: block '" << block.name << "' has "
                             << target->writes.size() << " write regions; write_index "
                             << write_index << " is out of range";
  }
  const Buffer& old = target->writes[static_cast<size_t>(write_index)]->buffer;
  bool is_param = std::any_of(func_->buffer_map.begin(), func_->buffer_map.end(),
                              [&](const auto& entry) { return entry.second.same_as(old); });
  if (is_param) {
    user_error(target->span) << "set_scope: '" << old->name << "', written by block '" << block.name
                             << "', is a parameter of the function; its storage is the caller's";
  }
  if (old->scope == scope) return;
  auto* copy = copy_node(*old);
  copy->scope = scope;
  BufferReplacer replacer(old, Buffer(copy));
  func_ = with_body(func_, replacer.mutate(func_->body));
}

}  // namespace relaxc::tir
