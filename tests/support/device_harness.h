// Running compiled PrimFuncs on runtime devices from tests and benchmarks: one device of
// each kind per process (Vulkan with its validation layer on), host arrays uploaded,
// results read back.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/target/target.h"
#include "runtime/device.h"
#include "tests/support/host_array.h"

namespace relaxc::testing {

// The process's device of `kind` (Vulkan with validation on), or nullptr with `why_not`
// set when there is none (no driver, no device): tests skip then.
runtime::Device* test_device(TargetKind kind, std::string* why_not);
// What the Vulkan validation layer reported so far (empty for CUDA).
std::vector<std::string> validation_messages(TargetKind kind);

// "vulkan", "cuda": for test names.
std::string device_kind_name(TargetKind kind);

// Uploads `args`, launches `func` once, downloads every argument back into `args`
// (outputs included), and waits.
void run_on_device(runtime::Device& device, const codegen::CompiledPrimFunc& func,
                   std::vector<HostArray*> args,
                   const std::map<std::string, int64_t>& scalars = {});

// Device buffers holding host arrays, released when it goes.
class DeviceArrays {
 public:
  DeviceArrays(runtime::Device& device, const std::vector<HostArray*>& arrays);
  ~DeviceArrays();
  DeviceArrays(const DeviceArrays&) = delete;
  DeviceArrays& operator=(const DeviceArrays&) = delete;
  const std::vector<driver::BufferArg>& args() const { return args_; }
  // Downloads every buffer into its host array.
  void read_back(const std::vector<HostArray*>& arrays);

 private:
  runtime::Device& device_;
  std::vector<driver::BufferArg> args_;
};

}  // namespace relaxc::testing
