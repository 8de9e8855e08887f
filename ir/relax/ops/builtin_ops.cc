// Registration of the built-in Relax operators, family by family.
#include "ir/relax/ops/builtin_ops.h"

#include "ir/relax/ops/op_common.h"

namespace relaxc::relax {

void register_builtin_ops() {
  register_call_ops();
  register_unary_ops();
  register_binary_ops();
  register_creation_ops();
  register_manipulate_ops();
  register_index_ops();
  register_memory_ops();
  register_data_dependent_ops();
  register_statistical_ops();
  register_linear_algebra_ops();
  register_nn_norm_ops();
  register_sort_ops();
  register_nn_conv_ops();
  register_nn_pool_ops();
  register_image_ops();
  register_nn_attention_ops();
}

}  // namespace relaxc::relax
