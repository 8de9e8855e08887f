// The regions a TensorIR block reads and writes, derived from its accesses.
#pragma once

#include "ir/tir/stmt.h"

namespace relaxc::tir {

// Fills in the regions of `block` from the accesses in its init and body: its reads (if
// `reads`) and writes (if `writes`). The parser completes a block whose text leaves out
// T.reads or T.writes with it; the compute builder completes every block it makes.
void complete_block_regions(BlockNode* block, bool reads, bool writes);

}  // namespace relaxc::tir
