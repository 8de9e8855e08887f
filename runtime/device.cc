// Names of the device interface's enums, for messages.
#include "runtime/device.h"

namespace relaxc::runtime {

const char* kernel_format_name(KernelFormat format) {
  return format == KernelFormat::SpirV ? "SPIR-V" : "PTX";
}

}  // namespace relaxc::runtime
