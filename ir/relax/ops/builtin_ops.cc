// Registration of the built-in Relax operators, family by family.
#include "ir/relax/ops/builtin_ops.h"

#include "ir/relax/ops/op_common.h"

namespace relaxc::relax {

void register_builtin_ops() {
  register_call_ops();
  register_elementwise_ops();
  register_unary_ops();
  register_binary_ops();
  register_creation_ops();
  register_tensor_ops();
  register_manipulate_ops();
  register_index_ops();
  register_memory_ops();
  register_data_dependent_ops();
}

}  // namespace relaxc::relax
