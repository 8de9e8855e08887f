// transform_layout: reorders the dimensions of a buffer that the function allocates (TVM's
// transform_layout, for index maps that permute the indices): every load, store and
// region of it follows, so what the function computes is unchanged and only the order of
// the elements in memory moves. A matmul's tile of A staged in shared memory as [k][row]
// instead of [row][k] gives a thread its rows of one k step side by side.
#include <algorithm>
#include <string>
#include <vector>

#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

namespace {

template <typename T>
std::vector<T> permuted(const std::vector<T>& items, const std::vector<int>& permutation) {
  std::vector<T> result;
  result.reserve(permutation.size());
  for (int d : permutation) result.push_back(items[static_cast<size_t>(d)]);
  return result;
}

// Permutes the indices of every access to `buffer` and its regions (the buffer itself is
// replaced afterwards, by BufferReplacer).
class IndexPermuter final : public Mutator {
 public:
  IndexPermuter(const Buffer& buffer, const std::vector<int>& permutation)
      : buffer_(buffer), permutation_(permutation) {}

 private:
  PrimExpr mutate_node(const BufferLoadNode* node) override {
    PrimExpr result = Mutator::mutate_node(node);
    const auto* load = result.as<BufferLoadNode>();
    if (!load->buffer.same_as(buffer_)) return result;
    auto* copy = copy_node(*load);
    copy->indices = permuted(load->indices, permutation_);
    return PrimExpr(copy);
  }
  Stmt mutate_node(const BufferStoreNode* node) override {
    Stmt result = Mutator::mutate_node(node);
    const auto* store = result.as<BufferStoreNode>();
    if (!store->buffer.same_as(buffer_)) return result;
    auto* copy = copy_node(*store);
    copy->indices = permuted(store->indices, permutation_);
    return Stmt(copy);
  }
  Ref<BufferRegionNode> mutate_node(const BufferRegionNode* node) override {
    Ref<BufferRegionNode> result = Mutator::mutate_node(node);
    if (!result->buffer.same_as(buffer_)) return result;
    auto* copy = copy_node(*result);
    copy->region = permuted(result->region, permutation_);
    return Ref<BufferRegionNode>(copy);
  }

  const Buffer& buffer_;
  const std::vector<int>& permutation_;
};

}  // namespace

void Schedule::transform_layout(const BlockRef& block, int write_index,
                                const std::vector<int>& permutation) {
  const Block& target = get_block_realize(block)->block;
  if (write_index < 0 || static_cast<size_t>(write_index) >= target->writes.size()) {
    user_error(target->span) << "transform_layout: block '" << block.name << "' has "
                             << target->writes.size() << " write regions; write_index "
                             << write_index << " is out of range";
  }
  const Buffer old = target->writes[static_cast<size_t>(write_index)]->buffer;
  bool is_param = std::any_of(func_->buffer_map.begin(), func_->buffer_map.end(),
                              [&](const auto& entry) { return entry.second.same_as(old); });
  if (is_param) {
    user_error(target->span) << "transform_layout: '" << old->name << "', written by block '"
                             << block.name
                             << "', is a parameter of the function; its layout is the caller's";
  }
  std::vector<int> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  bool is_permutation = sorted.size() == old->shape.size();
  for (size_t d = 0; is_permutation && d < sorted.size(); ++d) {
    is_permutation = sorted[d] == static_cast<int>(d);
  }
  if (!is_permutation) {
    std::string given;
    for (int d : permutation) given += (given.empty() ? "" : ", ") + std::to_string(d);
    user_error(target->span) << "transform_layout of '" << old->name << "': [" << given
                             << "] is not a permutation of its " << old->shape.size()
                             << " dimensions";
  }
  if (!old->strides.empty()) {
    user_error(target->span) << "transform_layout of '" << old->name
                             << "': the buffer has explicit strides; only a dense buffer's "
                                "dimensions can be reordered";
  }
  auto* copy = copy_node(*old);
  copy->shape = permuted(old->shape, permutation);
  Stmt body = IndexPermuter(old, permutation).mutate(func_->body);
  func_ = with_body(func_, BufferReplacer(old, Buffer(copy)).mutate(body));
}

}  // namespace relaxc::tir
