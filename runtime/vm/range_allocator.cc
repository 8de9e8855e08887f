// RangeAllocator: best fit over an ordered set of free ranges by size, and per block an
// ordered map of its free ranges by offset, in which a freed range finds its neighbours.
#include "runtime/vm/range_allocator.h"

#include <cstdint>
#include <iterator>
#include <stdexcept>

namespace relaxc::runtime::vm {

RangeAllocator::RangeAllocator(size_t alignment) : alignment_(alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    throw std::logic_error("RangeAllocator: the alignment must be a power of two");
  }
}

std::optional<size_t> RangeAllocator::aligned_size(size_t bytes) const {
  if (bytes == 0) return alignment_;
  if (bytes > SIZE_MAX - (alignment_ - 1)) return std::nullopt;
  return (bytes + alignment_ - 1) & ~(alignment_ - 1);
}

void RangeAllocator::add_block(uint64_t block, size_t bytes) {
  auto [it, added] = blocks_.emplace(block, Block{});
  if (!added) throw std::logic_error("RangeAllocator: a block id added twice");
  size_t usable = bytes & ~(alignment_ - 1);
  it->second.bytes = usable;
  bytes_reserved_ += usable;
  if (usable > 0) insert_free(block, it->second, 0, usable);
}

std::optional<RangeAllocator::Range> RangeAllocator::allocate(size_t bytes) {
  std::optional<size_t> size = aligned_size(bytes);
  if (!size) return std::nullopt;
  auto fit = by_size_.lower_bound({*size, 0, 0});
  if (fit == by_size_.end()) return std::nullopt;
  auto [free_bytes, block, offset] = *fit;
  Block& b = blocks_.at(block);
  erase_free(block, b, b.free.find(offset));
  if (free_bytes > *size) insert_free(block, b, offset + *size, free_bytes - *size);
  return Range{block, offset, *size};
}

void RangeAllocator::free(const Range& range) {
  auto it = blocks_.find(range.block);
  if (it == blocks_.end()) throw std::logic_error("RangeAllocator: a range of no block freed");
  Block& b = it->second;
  size_t offset = range.offset, bytes = range.bytes;
  // Merge with the free range just after, then with the one just before.
  auto next = b.free.lower_bound(offset);
  if (next != b.free.end() && next->first == offset + bytes) {
    bytes += next->second;
    next = std::next(next);
    erase_free(range.block, b, std::prev(next));
  }
  if (next != b.free.begin()) {
    auto before = std::prev(next);
    if (before->first + before->second == offset) {
      offset = before->first;
      bytes += before->second;
      erase_free(range.block, b, before);
    }
  }
  insert_free(range.block, b, offset, bytes);
}

std::vector<uint64_t> RangeAllocator::remove_free_blocks() {
  std::vector<uint64_t> removed;
  for (auto it = blocks_.begin(); it != blocks_.end();) {
    Block& b = it->second;
    bool all_free = b.bytes == 0 || (b.free.size() == 1 && b.free.begin()->second == b.bytes);
    if (!all_free) {
      ++it;
      continue;
    }
    if (b.bytes > 0) erase_free(it->first, b, b.free.begin());
    bytes_reserved_ -= b.bytes;
    removed.push_back(it->first);
    it = blocks_.erase(it);
  }
  return removed;
}

size_t RangeAllocator::largest_free_range() const {
  return by_size_.empty() ? 0 : std::get<0>(*by_size_.rbegin());
}

void RangeAllocator::insert_free(uint64_t block, Block& b, size_t offset, size_t bytes) {
  b.free.emplace(offset, bytes);
  by_size_.emplace(bytes, block, offset);
  bytes_free_ += bytes;
}

void RangeAllocator::erase_free(uint64_t block, Block& b, std::map<size_t, size_t>::iterator it) {
  by_size_.erase({it->second, block, it->first});
  bytes_free_ -= it->second;
  b.free.erase(it);
}

}  // namespace relaxc::runtime::vm
