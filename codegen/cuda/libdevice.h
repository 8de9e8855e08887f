// libdevice (NVIDIA's bitcode library of math functions, __nv_expf ...): where it is
// installed, and linking the functions a kernel calls into its module.
#pragma once
#include <string>

namespace llvm {
class Module;
}

namespace relaxc::codegen {

// The path of libdevice.10.bc, or empty where it is not installed. Looked for in
// $RELAXC_LIBDEVICE (a file; "none" turns libdevice off, so that the NVVM fallbacks are
// used), then $CUDA_HOME/nvvm/libdevice, /usr/local/cuda/nvvm/libdevice and
// /usr/lib/nvidia-cuda-toolkit/libdevice.
std::string find_libdevice();

// Links the libdevice functions that `module` calls into it, with internal linkage (so
// that they inline and the unused ones vanish), and sets the "nvvm-reflect-ftz" flag to 0:
// libdevice then keeps fp32 denormals. The file is read once per process. A file that is
// not LLVM bitcode is a UserError naming it.
void link_libdevice(llvm::Module& module, const std::string& path);

}  // namespace relaxc::codegen
