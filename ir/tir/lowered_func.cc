// A PrimFunc lowered to device kernels: the accessors of its parts.
#include "ir/tir/lowered_func.h"

namespace relaxc::tir {

int DeviceKernel::num_buffer_params() const {
  return func.defined() ? static_cast<int>(func->buffer_map.size()) : 0;
}

std::vector<Buffer> LoweredFunc::buffers() const {
  std::vector<Buffer> all = params;
  all.insert(all.end(), workspaces.begin(), workspaces.end());
  return all;
}

}  // namespace relaxc::tir
