// relaxc bench: PROGRAM loaded as 'relaxc run' loads it, its function called --warmup
// times, then --repeat times measured: latency per call (the call and the wait for the
// device), host time per call (until vm.call returns), peak device bytes in use during a
// call (the device pool's peak, reset before each call), then --repeat more calls with
// the device's kernel timing on, for the device time of each kernel. The measured calls
// run with timing off so that the latency is what a normal run pays. Printed as text,
// and with --json as Google Benchmark's JSON format.
#include "tools/bench_command.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ir/support/json_text.h"
#include "runtime/vm/storage_pool.h"
#include "runtime/vm/vm.h"
#include "tools/vm_commands.h"

namespace relaxc::tools {
namespace {

using Clock = std::chrono::steady_clock;
using runtime::vm::Value;

constexpr const char* kBenchHelp =
    R"(Usage: relaxc bench PROGRAM [--function NAME] [--input FILE.npy ...] [--device DEVICE]
                    [--warmup N] [--repeat N] [--json FILE]

Times the function NAME of PROGRAM on a device. PROGRAM, --function, --input and
--device are as for 'relaxc run' (the inputs are copied to the device once, before the
calls). The function is called N (--warmup) times unmeasured, then N (--repeat) times
measured, each call followed by a wait for the device; then N (--repeat) more times
with the device's kernel timing on (CUDA events, Vulkan timestamp queries), for the
device time of each kernel. Prints:
  latency per call      min, median and p90 of the call and the wait for the device
  host time per call    median time until the call returns, which is the host's work
                        (the VM waits for the device only where it reads device data)
  launches per call     kernel launches of a measured call, and how many of them were
                        replayed from an earlier call's recording (Vulkan keeps runs of
                        dispatches, CUDA makes them CUDA graphs; RELAXC_VULKAN_REPLAY=0
                        and RELAXC_CUDA_REPLAY=0 turn that off)
  peak device memory    the most bytes held by live storages and tensors during a call
                        (the inputs and constants included), and the bytes the pool
                        has reserved from the device
  device time per kernel  mean device time per call of each kernel (all its launches),
                        or a note where the device cannot time kernels

Options:
  --function NAME   the exported function to call (default: main)
  --input FILE      a .npy file, once per argument, in order
  --device DEVICE   as for 'relaxc run' (default: auto)
  --warmup N        unmeasured calls first, 0 to 1000000 (default: 3)
  --repeat N        measured calls, 1 to 1000000 (default: 20)
  --json FILE       also write the results as Google Benchmark's JSON ('-': standard
                    output, instead of the text): the function's entry (name NAME,
                    real_time the median latency, cpu_time the host time, in us, and
                    min_us, p90_us, host_us_per_call, launches_per_call,
                    replayed_launches_per_call, peak_device_bytes,
                    reserved_device_bytes), then one entry per kernel (name
                    NAME/KERNEL, real_time its device time per call, launches_per_call)
  -h, --help        print this help

Errors (a wrong number of inputs, a device missing, a failing call) print
'relaxc bench: error: ...' and exit 1; a bad count exits 2.
)";

double micros(Clock::duration d) { return std::chrono::duration<double, std::micro>(d).count(); }

// The value at quantile q (0..1) of `sorted`, by nearest rank.
double quantile(const std::vector<double>& sorted, double q) {
  auto rank = static_cast<size_t>(q * static_cast<double>(sorted.size()) + 0.999999);
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

struct KernelTime {
  std::string name;
  double device_us_per_call = 0;
  double launches_per_call = 0;
};

struct Results {
  std::string function;
  std::string device;
  std::string kernel_format;
  int64_t repeat = 0;
  double min_us = 0, median_us = 0, p90_us = 0, host_us = 0;
  double launches_per_call = 0, replayed_per_call = 0;
  size_t peak_bytes = 0, reserved_bytes = 0;
  bool kernel_timing = false;       // whether the device timed its kernels
  std::vector<KernelTime> kernels;  // in the order of their first launch
};

std::string to_json(const Results& r, const std::string& program) {
  std::ostringstream os;
  os << std::setprecision(6) << std::fixed;
  os << "{\n  \"context\": {\n"
     << "    \"executable\": \"relaxc bench\",\n"
     << "    \"program\": " << json_string(program) << ",\n"
     << "    \"device\": " << json_string(r.device) << ",\n"
     << "    \"kernel_format\": " << json_string(r.kernel_format) << ",\n"
     << "    \"kernel_timing\": " << (r.kernel_timing ? "true" : "false") << "\n"
     << "  },\n  \"benchmarks\": [\n";
  os << "    {\"name\": " << json_string(r.function)
     << ", \"run_name\": " << json_string(r.function)
     << ", \"run_type\": \"iteration\", \"iterations\": " << r.repeat
     << ", \"real_time\": " << r.median_us << ", \"cpu_time\": " << r.host_us
     << ", \"time_unit\": \"us\", \"min_us\": " << r.min_us << ", \"p90_us\": " << r.p90_us
     << ", \"host_us_per_call\": " << r.host_us
     << ", \"launches_per_call\": " << r.launches_per_call
     << ", \"replayed_launches_per_call\": " << r.replayed_per_call
     << ", \"peak_device_bytes\": " << r.peak_bytes
     << ", \"reserved_device_bytes\": " << r.reserved_bytes << "}";
  for (const KernelTime& k : r.kernels) {
    std::string name = r.function + "/" + k.name;
    os << ",\n    {\"name\": " << json_string(name) << ", \"run_name\": " << json_string(name)
       << ", \"run_type\": \"iteration\", \"iterations\": " << r.repeat
       << ", \"real_time\": " << k.device_us_per_call << ", \"cpu_time\": " << k.device_us_per_call
       << ", \"time_unit\": \"us\", \"launches_per_call\": " << k.launches_per_call << "}";
  }
  os << "\n  ]\n}\n";
  return os.str();
}

std::string to_text(const Results& r) {
  std::ostringstream os;
  os << std::setprecision(1) << std::fixed;
  os << "device: " << r.device << " (" << r.kernel_format << ")\n";
  os << r.function << ": " << r.repeat << (r.repeat == 1 ? " call" : " calls") << " measured\n";
  os << "  latency per call:   min " << r.min_us << " us, median " << r.median_us << " us, p90 "
     << r.p90_us << " us\n";
  os << "  host time per call: " << r.host_us << " us (median)\n";
  os << std::setprecision(0) << "  launches per call:  " << r.launches_per_call << " ("
     << r.replayed_per_call << " replayed)\n"
     << std::setprecision(1);
  os << "  peak device memory: " << r.peak_bytes << " bytes in use (" << r.reserved_bytes
     << " bytes reserved)\n";
  if (!r.kernel_timing) {
    os << "  device time per kernel: not measured (the device cannot time kernels)\n";
    return os.str();
  }
  os << "  device time per kernel (mean per call):\n";
  size_t width = 0;
  for (const KernelTime& k : r.kernels) width = std::max(width, k.name.size());
  for (const KernelTime& k : r.kernels) {
    os << "    " << k.name << std::string(width - k.name.size() + 2, ' ') << std::setw(10)
       << k.device_us_per_call << " us  (" << std::setprecision(0) << k.launches_per_call
       << std::setprecision(1) << (k.launches_per_call == 1 ? " launch)\n" : " launches)\n");
  }
  return os.str();
}

Results measure(runtime::vm::VirtualMachine& vm, runtime::Device& device, const CommandLine& cl,
                const std::vector<Value>& args) {
  Results r;
  r.function = cl.function;
  r.device = device.limits().name;
  r.kernel_format = runtime::kernel_format_name(device.kernel_format());
  r.repeat = cl.repeat;
  // Each call's result is dropped before the next starts, so the peak is one call's.
  auto call = [&] {
    vm.call(cl.function, args);
    device.synchronize();
  };
  for (int64_t i = 0; i < cl.warmup; ++i) call();

  std::vector<double> latency, host;
  runtime::vm::StoragePool& pool = vm.device_pool();
  runtime::LaunchStats before = device.launch_stats();
  for (int64_t i = 0; i < cl.repeat; ++i) {
    pool.reset_peak();
    Clock::time_point start = Clock::now();
    Value result = vm.call(cl.function, args);
    Clock::time_point returned = Clock::now();
    device.synchronize();
    Clock::time_point done = Clock::now();
    r.peak_bytes = std::max(r.peak_bytes, pool.stats().peak_bytes_in_use);
    latency.push_back(micros(done - start));
    host.push_back(micros(returned - start));
  }
  runtime::LaunchStats after = device.launch_stats();
  auto per_call = [&](uint64_t count) {
    return static_cast<double>(count) / static_cast<double>(cl.repeat);
  };
  r.replayed_per_call = per_call(after.replayed - before.replayed);
  r.launches_per_call = per_call(after.recorded - before.recorded) + r.replayed_per_call;
  std::sort(latency.begin(), latency.end());
  std::sort(host.begin(), host.end());
  r.min_us = latency.front();
  r.median_us = quantile(latency, 0.5);
  r.p90_us = quantile(latency, 0.9);
  r.host_us = quantile(host, 0.5);
  runtime::vm::StoragePool::Stats stats = pool.stats();
  r.reserved_bytes = stats.bytes_reserved;

  r.kernel_timing = device.set_kernel_timing(true);
  if (!r.kernel_timing) return r;
  std::map<std::string, size_t> index;  // kernel name -> r.kernels
  try {
    for (int64_t i = 0; i < cl.repeat; ++i) {
      call();
      for (runtime::KernelTiming& t : device.take_kernel_timings()) {
        auto [it, added] = index.emplace(t.kernel, r.kernels.size());
        if (added) r.kernels.push_back({std::move(t.kernel), 0, 0});
        r.kernels[it->second].device_us_per_call += t.device_us;
        r.kernels[it->second].launches_per_call += 1;
      }
    }
  } catch (...) {
    device.set_kernel_timing(false);
    throw;
  }
  device.set_kernel_timing(false);
  for (KernelTime& k : r.kernels) {
    k.device_us_per_call /= static_cast<double>(cl.repeat);
    k.launches_per_call /= static_cast<double>(cl.repeat);
  }
  return r;
}

}  // namespace

std::string bench_help() { return kBenchHelp; }

int run_bench(const CommandLine& cl) {
  if (cl.json && cl.json != "-" && is_input_file(*cl.json, cl.input)) {
    throw FileError{*cl.json + ": --json names the program file"};
  }
  LoadedProgram program = load_program(cl);
  runtime::vm::VirtualMachine vm(program.exe, *program.device);
  Results results = measure(vm, *program.device, cl, load_inputs(vm, cl));
  if (cl.json == "-") {
    std::cout << to_json(results, cl.input);
    return kExitSuccess;
  }
  std::cout << to_text(results);
  if (cl.json) {
    std::string json = to_json(results, cl.input);
    write_file(*cl.json, std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
  }
  return kExitSuccess;
}

}  // namespace relaxc::tools
