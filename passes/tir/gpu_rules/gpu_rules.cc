// The list of the default GPU schedule's rules (gpu_rule.h), most specific first.
#include "passes/tir/gpu_rules/gpu_rule.h"

namespace relaxc::tir {

extern const GpuScheduleRule kMatmulRule;  // matmul.cc
extern const GpuScheduleRule kGemvRule;    // gemv.cc

const std::vector<GpuScheduleRule>& gpu_schedule_rules() {
  static const std::vector<GpuScheduleRule> rules = {
      kMatmulRule,
      kGemvRule,
  };
  return rules;
}

}  // namespace relaxc::tir
