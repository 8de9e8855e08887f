// Registration of the built-in Relax operators (called once by the op registry).
#pragma once

namespace relaxc::relax {

void register_builtin_ops();

}  // namespace relaxc::relax
