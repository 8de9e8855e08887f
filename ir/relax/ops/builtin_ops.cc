// Registration of the built-in Relax operators.
#include "ir/relax/ops/builtin_ops.h"

namespace relaxc::relax {

void register_builtin_ops() {}

}  // namespace relaxc::relax
