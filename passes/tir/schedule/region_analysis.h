// Region analysis for compute_at and reverse_compute_at: the part of a buffer that a
// block accesses during one iteration of a loop, as per-dimension inclusive bounds.
#pragma once
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

// Inclusive symbolic bounds [min, max] of an integer expression.
struct IntBounds {
  PrimExpr min, max;
};

// Loop variables that range over their loops' domains ("relaxed"); every other variable
// holds one value.
using RelaxedVars = std::unordered_map<Var, Range, RefHash, RefEq>;

// The bounds of `e` when each relaxed variable ranges over its range, or nullopt where
// `e` has a form that interval arithmetic does not bound (a product of two relaxed
// terms, a division by a non-constant, a buffer load of a relaxed index, ...).
std::optional<IntBounds> relax_expr(const PrimExpr& e, const RelaxedVars& relaxed,
                                    arith::Analyzer& analyzer);

// The bounds, per dimension, of the region `access` (a read or write region of
// `realize`'s block, written over its iteration variables) once the iteration variables
// take `realize`'s iteration values and the relaxed variables range over their ranges.
// A dimension that cannot be bounded covers the whole buffer dimension.
std::vector<IntBounds> access_bounds(const BufferRegion& access, const BlockRealizeNode& realize,
                                     const RelaxedVars& relaxed, arith::Analyzer& analyzer);

// Widens `into` to cover `other` too (dimension-wise hull).
void unite_bounds(std::vector<IntBounds>& into, const std::vector<IntBounds>& other,
                  arith::Analyzer& analyzer);

// Whether the threads of the axis `thread_tag` ("blockIdx.x", "threadIdx.y", ...) may
// fill a buffer in `scope` together: then the region a block computes under a loop
// bound to the axis covers all those threads' accesses (so that its loops can be bound
// to the threads again for a cooperative copy), and the loop is relaxed. The threads of
// one thread block share "shared" and "global" buffers and can synchronize; thread
// blocks cannot, so blockIdx loops are never relaxed, nor anything for "local".
bool threads_share_scope(const std::string& thread_tag, const std::string& scope);

// Both operands in one integer dtype: the wider of the two (int64 when they differ).
std::pair<PrimExpr, PrimExpr> unify_int_dtypes(PrimExpr a, PrimExpr b);
// `e` in the integer dtype `dtype` (a constant is rebuilt, anything else cast).
PrimExpr to_dtype(const PrimExpr& e, DataType dtype);

}  // namespace relaxc::tir
