// The fusion pattern of a PrimFunc (tir::OpPattern): the "op_pattern" attribute that
// LegalizeOps sets, or one computed from the blocks of hand-written TensorIR.
#pragma once

#include "ir/tir/compute.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

// The attribute "op_pattern" of `func` if it has one (opaque if it names no pattern of
// a PrimFunc: "tuple" or an unknown number), else analyze_op_pattern(func).
OpPattern op_pattern_of(const PrimFunc& func);

// The pattern computed from the blocks of `func` (TVM's AnalyzeOpPatternKind): each
// block's store compared with its loads — the same indices are elementwise, indices
// that keep the store's in order and drop some (or index a unit dimension with 0) a
// broadcast, indices over the store's variables an injective map; a block with reduce
// iterators is a reduction (out-elementwise-fusable if it is a multiply-accumulate or
// reads its inputs through more than its reduce variables); a reduction followed by an
// output block that maps it elementwise is out-elementwise-fusable; anything else
// (several store indexings in one block, no store, a non-reduction read of other
// elements) is opaque. The pattern of the function is the largest of its blocks'.
OpPattern analyze_op_pattern(const PrimFunc& func);

}  // namespace relaxc::tir
