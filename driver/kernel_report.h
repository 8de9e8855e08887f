// The kernel report: for each kernel a build compiled for a target, where it came from,
// its launch shape, shared memory, registers (ptxas -v), global traffic and FLOPs per
// launch (passes/tir/kernel_counts.h) against the compulsory traffic, and the roofline
// time on a named device. How a schedule is judged on a machine without a GPU.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/vm/vm_codegen.h"

namespace relaxc::driver {

// A device the roofline is computed for.
struct DevicePreset {
  std::string name;         // as --report-device names it
  std::string description;  // what the numbers are
  double bytes_per_second;
  double fp32_flops_per_second;  // the roofline's peak: no kernel uses tensor cores yet
  double fp16_tensor_flops_per_second;
  // Multiprocessors (CUDA SMs, compute units): a thread block runs on one, so a kernel of
  // fewer thread blocks reaches at most that fraction of the peaks.
  int64_t multiprocessors;
};

// h100, mobile.
const std::vector<DevicePreset>& device_presets();
// The preset named `name`, or nullptr.
const DevicePreset* find_device_preset(const std::string& name);
// "h100, mobile", for messages.
std::string known_device_presets();

// Values of shape variables, by name.
using ShapeValues = std::map<std::string, int64_t>;
// Adds the bindings of `text` ("n=4096" or "m=8,n=4096"; each value a non-negative
// integer) to `values`; returns why it is malformed, or empty.
std::string parse_shape_values(const std::string& text, ShapeValues& values);

struct ReportOptions {
  const DevicePreset* device = nullptr;  // no roofline without one
  ShapeValues shapes;                    // the counts are also evaluated at these
};

// The report of what one target's back end compiled, as text. Every name of
// options.shapes must be a shape variable of some function (a UserError lists them
// otherwise). On CUDA, registers and spills come from `ptxas -v` where it is installed.
std::string kernel_report(const codegen::CompiledKernels& compiled, const ReportOptions& options);

}  // namespace relaxc::driver
