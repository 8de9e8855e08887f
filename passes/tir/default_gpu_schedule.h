// The default GPU schedule: makes any unscheduled PrimFunc runnable and reasonable.
#pragma once
#include "ir/module.h"
#include "ir/target/target.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

// Schedules every block of `func` that is not under a thread-bound loop yet:
// - a spatial block: its spatial loops fused, split over blocks and threads
//   (threads per block within the target's limit; a grid over the limit is split_host_device's);
// - a reduction block: its spatial loops over blockIdx, its reduction loops split with
//   the inner part bound to threadIdx.x (a cross-thread reduction).
// Symbolic extents work (tail guards). Already scheduled functions are returned as is.
PrimFunc default_gpu_schedule(const PrimFunc& func, const Target& target);

// Applies default_gpu_schedule to every PrimFunc of the module.
IRModule default_gpu_schedule(const IRModule& mod, const Target& target);

}  // namespace relaxc::tir
