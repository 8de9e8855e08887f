// The list of the default GPU schedule's rules (gpu_rule.h), most specific first.
#include "passes/tir/gpu_rules/gpu_rule.h"

namespace relaxc::tir {

const std::vector<GpuScheduleRule>& gpu_schedule_rules() {
  static const std::vector<GpuScheduleRule> rules = {
      conv_gemm_rule(), gemv_rule(),          matmul_rule(),      column_reduction_rule(),
      window_rule(),    row_reduction_rule(), elementwise_rule(),
  };
  return rules;
}

}  // namespace relaxc::tir
