// RangeAllocator: the bookkeeping of a storage pool, independent of any device. Blocks
// (each one device allocation, named by the caller's id) are carved into ranges at
// offsets that are multiples of the alignment. A request takes the best fit: the smallest
// free range that holds it (the lowest block id and offset among equals), and the rest
// of that range stays free; so each exact size is its own size class, and an exact fit
// reuses a freed range whole. A freed range merges with its free neighbours at once, so
// a block with nothing in use is one free range again, which trim hands back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

namespace relaxc::runtime::vm {

class RangeAllocator {
 public:
  struct Range {
    uint64_t block = 0;
    size_t offset = 0;
    size_t bytes = 0;
  };

  // `alignment`: a power of two; every range's offset and size is a multiple of it.
  explicit RangeAllocator(size_t alignment);

  size_t alignment() const { return alignment_; }
  // `bytes` rounded up to the alignment (zero bytes: one alignment unit); nullopt when
  // that overflows.
  std::optional<size_t> aligned_size(size_t bytes) const;

  // A new block of `bytes` (rounded down to the alignment), all free. `block` is the
  // caller's name for it, not in use by another block.
  void add_block(uint64_t block, size_t bytes);
  // A range of aligned_size(bytes) from the best-fitting free range; nullopt when no
  // free range holds it (or the size overflows).
  std::optional<Range> allocate(size_t bytes);
  // Gives back a range that allocate returned.
  void free(const Range& range);
  // Removes the blocks that have nothing in use and returns their ids (trim).
  std::vector<uint64_t> remove_free_blocks();

  size_t bytes_reserved() const { return bytes_reserved_; }  // all blocks
  size_t bytes_free() const { return bytes_free_; }
  size_t largest_free_range() const;
  size_t block_count() const { return blocks_.size(); }
  size_t free_range_count() const { return by_size_.size(); }

 private:
  struct Block {
    size_t bytes = 0;
    std::map<size_t, size_t> free;  // offset -> size, neighbours never both free
  };
  void insert_free(uint64_t block, Block& b, size_t offset, size_t bytes);
  void erase_free(uint64_t block, Block& b, std::map<size_t, size_t>::iterator it);

  size_t alignment_;
  std::map<uint64_t, Block> blocks_;
  std::set<std::tuple<size_t, uint64_t, size_t>> by_size_;  // (size, block, offset)
  size_t bytes_reserved_ = 0, bytes_free_ = 0;
};

}  // namespace relaxc::runtime::vm
