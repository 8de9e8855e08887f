// The rules of the default GPU schedule (the idea of TVM's dlight, in C++). Each rule
// recognizes one kind of PrimFunc by analysing its blocks (their iterators, accesses and
// reductions; never the function's name) and schedules the whole function, or declines.
// default_gpu_schedule tries them in the order of gpu_schedule_rules(); a function that no
// rule takes gets the generic per-block schedule, which makes anything runnable.
//
// A rule lives in its own file in this folder and is one line in gpu_schedule_rules()
// (gpu_rules.cc). It must handle symbolic extents (tail guards) and respect the target's
// limits (threads per block, shared memory), or decline.
#pragma once
#include <optional>
#include <string_view>
#include <vector>

#include "ir/target/target.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

struct GpuScheduleRule {
  std::string_view name;
  // The scheduled function, or nullopt when the rule does not apply to `func`. Called
  // only on functions that no thread binding has touched yet.
  std::optional<PrimFunc> (*apply)(const PrimFunc& func, const Target& target);
};

// Each rule, defined in its file of this folder.
GpuScheduleRule conv_gemm_rule();
GpuScheduleRule matmul_rule();
GpuScheduleRule gemv_rule();
GpuScheduleRule column_reduction_rule();
GpuScheduleRule window_rule();
GpuScheduleRule row_reduction_rule();
GpuScheduleRule elementwise_rule();

// The rules in the order default_gpu_schedule tries them: the most specific first.
const std::vector<GpuScheduleRule>& gpu_schedule_rules();

}  // namespace relaxc::tir
