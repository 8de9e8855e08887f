// The storage pool's range allocator, without a device: sub-allocation at aligned
// offsets, best fit and reuse, coalescing of freed neighbours in every order, a
// fragmented block, and trim. Offsets and sizes are counted by hand.
#include "runtime/vm/range_allocator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace relaxc::runtime::vm {
namespace {

using Range = RangeAllocator::Range;

Range take(RangeAllocator& ranges, size_t bytes) {
  std::optional<Range> range = ranges.allocate(bytes);
  EXPECT_TRUE(range.has_value()) << bytes << " bytes";
  return range.value_or(Range{});
}

TEST(RangeAllocatorTest, SubAllocatesAtAlignedOffsets) {
  RangeAllocator ranges(256);
  ranges.add_block(7, 4096);
  Range a = take(ranges, 100), b = take(ranges, 300), c = take(ranges, 0);
  EXPECT_EQ(a.block, 7u);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(a.bytes, 256u);
  EXPECT_EQ(b.offset, 256u);
  EXPECT_EQ(b.bytes, 512u);  // 300 rounded up
  EXPECT_EQ(c.offset, 768u);
  EXPECT_EQ(c.bytes, 256u);  // zero bytes take one unit
  EXPECT_EQ(ranges.bytes_reserved(), 4096u);
  EXPECT_EQ(ranges.bytes_free(), 4096u - 1024u);
  EXPECT_EQ(ranges.largest_free_range(), 3072u);
  EXPECT_FALSE(ranges.allocate(4096).has_value());
}

TEST(RangeAllocatorTest, BlockSizesRoundDownAndOverflowingRequestsFail) {
  RangeAllocator ranges(1024);
  ranges.add_block(1, 5000);  // 4 units of 1024
  EXPECT_EQ(ranges.bytes_reserved(), 4096u);
  EXPECT_EQ(ranges.aligned_size(SIZE_MAX), std::nullopt);
  EXPECT_FALSE(ranges.allocate(SIZE_MAX - 10).has_value());
  EXPECT_EQ(take(ranges, 4096).offset, 0u);
}

TEST(RangeAllocatorTest, AFreedRangeIsReusedByTheSameSize) {
  RangeAllocator ranges(256);
  ranges.add_block(1, 4096);
  Range a = take(ranges, 256), b = take(ranges, 512), c = take(ranges, 256);
  ranges.free(b);
  Range again = take(ranges, 512);
  EXPECT_EQ(again.offset, b.offset);
  EXPECT_EQ(again.offset, 256u);
  (void)a;
  (void)c;
}

TEST(RangeAllocatorTest, BestFitTakesTheSmallestFreeRangeThatHolds) {
  RangeAllocator ranges(256);
  ranges.add_block(1, 1024);
  ranges.add_block(2, 512);
  ranges.add_block(3, 2048);
  // Free ranges of 1024, 512, 2048: 300 bytes (512) fit exactly in block 2.
  Range a = take(ranges, 300);
  EXPECT_EQ(a.block, 2u);
  // Then 768 bytes go to block 1 (1024 is the smallest that holds them), leaving 256.
  Range b = take(ranges, 768);
  EXPECT_EQ(b.block, 1u);
  EXPECT_EQ(b.offset, 0u);
  Range c = take(ranges, 256);
  EXPECT_EQ(c.block, 1u);
  EXPECT_EQ(c.offset, 768u);
  EXPECT_EQ(ranges.bytes_free(), 2048u);
}

TEST(RangeAllocatorTest, FreeingThreeNeighboursInAnyOrderLeavesOneFreeRange) {
  std::array<int, 3> order = {0, 1, 2};
  do {
    for (size_t block_bytes : {size_t{768}, size_t{4096}}) {
      SCOPED_TRACE("order " + std::to_string(order[0]) + std::to_string(order[1]) +
                   std::to_string(order[2]) + ", block of " + std::to_string(block_bytes));
      RangeAllocator ranges(256);
      ranges.add_block(1, block_bytes);
      std::array<Range, 3> abc = {take(ranges, 256), take(ranges, 256), take(ranges, 256)};
      for (int i : order) ranges.free(abc[static_cast<size_t>(i)]);
      EXPECT_EQ(ranges.free_range_count(), 1u);
      EXPECT_EQ(ranges.largest_free_range(), block_bytes);
      EXPECT_EQ(ranges.bytes_free(), block_bytes);
      EXPECT_EQ(take(ranges, block_bytes).offset, 0u);
    }
  } while (std::next_permutation(order.begin(), order.end()));
}

TEST(RangeAllocatorTest, AFragmentedBlockRefusesWhatItsFreeBytesWouldHold) {
  RangeAllocator ranges(256);
  ranges.add_block(1, 1024);
  Range a = take(ranges, 256), b = take(ranges, 256), c = take(ranges, 256), d = take(ranges, 256);
  ranges.free(a);
  ranges.free(c);
  EXPECT_EQ(ranges.bytes_free(), 512u);
  EXPECT_EQ(ranges.largest_free_range(), 256u);
  EXPECT_FALSE(ranges.allocate(512).has_value());
  ranges.free(b);  // a, b and c merge
  EXPECT_EQ(ranges.largest_free_range(), 768u);
  EXPECT_EQ(take(ranges, 512).offset, 0u);
  (void)d;
}

TEST(RangeAllocatorTest, TrimRemovesOnlyBlocksWithNothingInUse) {
  RangeAllocator ranges(256);
  ranges.add_block(1, 1024);
  ranges.add_block(2, 2048);
  ranges.add_block(3, 512);
  Range in_block_1 = take(ranges, 1024);
  Range in_block_3 = take(ranges, 512);
  ranges.free(in_block_3);
  std::vector<uint64_t> removed = ranges.remove_free_blocks();
  EXPECT_EQ(removed, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(ranges.block_count(), 1u);
  EXPECT_EQ(ranges.bytes_reserved(), 1024u);
  EXPECT_EQ(ranges.bytes_free(), 0u);
  EXPECT_EQ(ranges.free_range_count(), 0u);
  ranges.free(in_block_1);
  EXPECT_EQ(ranges.remove_free_blocks(), (std::vector<uint64_t>{1}));
  EXPECT_EQ(ranges.bytes_reserved(), 0u);
}

}  // namespace
}  // namespace relaxc::runtime::vm
