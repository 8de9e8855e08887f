// The kernel report: counts from passes/tir/kernel_counts.h, registers from ptxas -v,
// evaluated at the shapes given and turned into roofline times for a device preset.
#include "driver/kernel_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <set>
#include <sstream>

#include "codegen/target_backend.h"
#include "driver/external_tool.h"
#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/tir/kernel_counts.h"

namespace relaxc::driver {
namespace {

using tir::PrimExpr;

// What ptxas -v says of one kernel.
struct Registers {
  int64_t registers = 0;
  int64_t spill_bytes = 0;  // spill stores + spill loads
};

// The number before `what` in `line` ("Used 12 registers" -> 12), or nullopt.
std::optional<int64_t> number_before(const std::string& line, const std::string& what) {
  size_t at = line.find(what);
  if (at == std::string::npos || at < 2) return std::nullopt;
  size_t end = at - 1;  // the space before `what`
  size_t begin = end;
  while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1]))) --begin;
  if (begin == end) return std::nullopt;
  return std::stoll(line.substr(begin, end - begin));
}

// ptxas -v on `code`: the registers and spills of its (one) entry, or why there are none.
std::string registers_of(const runtime::KernelBinary& binary,
                         const std::optional<std::string>& ptxas) {
  if (!ptxas) return "registers: ptxas is not installed";
  ToolRun run =
      run_tool(*ptxas, "-v -arch=" + ptx_arch(binary.code) + " -o /dev/null", binary.code);
  if (run.status != 0) return "registers: ptxas failed";
  Registers r;
  bool found = false;
  std::istringstream in(run.output);
  for (std::string line; std::getline(in, line);) {
    if (auto n = number_before(line, "registers")) r.registers = *n, found = true;
    if (auto n = number_before(line, "bytes spill stores")) r.spill_bytes += *n;
    if (auto n = number_before(line, "bytes spill loads")) r.spill_bytes += *n;
  }
  if (!found) return "registers: not in ptxas's output";
  return "registers " + std::to_string(r.registers) + ", spills " + std::to_string(r.spill_bytes) +
         " B";
}

// `e` as the report writes counts and conditions: integers bare, variables by name,
// or and not, comparisons, + - * // % with Python's precedence, min, max and select as
// calls; anything else as the printer prints it.
std::string format(const PrimExpr& e, int outer_level) {
  if (const int64_t* c = tir::as_const_int(e)) return std::to_string(*c);
  if (const auto* v = e.as<tir::VarNode>()) return v->name;
  if (const auto* c = e.as<tir::CastNode>(); c != nullptr && c->dtype.is_int()) {
    return format(c->value, outer_level);
  }
  auto call = [](const char* name, const auto* node) {
    return std::string(name) + "(" + format(node->a, 0) + ", " + format(node->b, 0) + ")";
  };
  if (const auto* n = e.as<tir::MinNode>()) return call("min", n);
  if (const auto* n = e.as<tir::MaxNode>()) return call("max", n);
  if (const auto* n = e.as<tir::SelectNode>()) {
    return "select(" + format(n->condition, 0) + ", " + format(n->true_value, 0) + ", " +
           format(n->false_value, 0) + ")";
  }
  // Python's levels, loosest first.
  enum Level { kNone, kOr, kAnd, kNot, kCompare, kSum, kProduct };
  std::string text;
  int level = kNone;
  auto infix = [&](const char* op, int op_level, const auto* node) {
    if (node == nullptr) return;
    level = op_level;
    // Left-associative: the right operand of - // % needs parentheses at its own level
    // (and comparisons do not chain).
    text = format(node->a, op_level + (op_level == kCompare ? 1 : 0)) + " " + op + " " +
           format(node->b, op_level + 1);
  };
  infix("or", kOr, e.as<tir::OrNode>());
  infix("and", kAnd, e.as<tir::AndNode>());
  infix("==", kCompare, e.as<tir::EQNode>());
  infix("!=", kCompare, e.as<tir::NENode>());
  infix("<", kCompare, e.as<tir::LTNode>());
  infix("<=", kCompare, e.as<tir::LENode>());
  infix(">", kCompare, e.as<tir::GTNode>());
  infix(">=", kCompare, e.as<tir::GENode>());
  infix("+", kSum, e.as<tir::AddNode>());
  infix("-", kSum, e.as<tir::SubNode>());
  infix("*", kProduct, e.as<tir::MulNode>());
  infix("//", kProduct, e.as<tir::FloorDivNode>());
  infix("%", kProduct, e.as<tir::FloorModNode>());
  if (const auto* n = e.as<tir::NotNode>()) {
    level = kNot;
    text = "not " + format(n->a, kNot);
  }
  if (level == kNone) return text::print_node(e);
  return level < outer_level ? "(" + text + ")" : text;
}

std::string show(const PrimExpr& e) { return e.defined() ? format(e, 0) : "unknown"; }

// A duration in s as "14.7 us".
std::string show_time(double seconds) {
  const char* unit = "s";
  double value = seconds;
  if (seconds < 1e-6) {
    value = seconds * 1e9, unit = "ns";
  } else if (seconds < 1e-3) {
    value = seconds * 1e6, unit = "us";
  } else if (seconds < 1) {
    value = seconds * 1e3, unit = "ms";
  }
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.3g %s", value, unit);
  return buffer;
}

// The counts of one target, evaluated at the shapes given.
class Evaluator {
 public:
  explicit Evaluator(const ShapeValues& shapes) : shapes_(shapes) {}

  // `e` with the shape variables of `shapes` bound, simplified; its value when constant.
  std::optional<int64_t> value(const PrimExpr& e) {
    if (!e.defined()) return std::nullopt;
    PrimExpr bound = tir::substitute(e, [this](const tir::Var& v) -> PrimExpr {
      auto it = shapes_.find(v->name);
      return it == shapes_.end() ? PrimExpr() : tir::int_imm(v->dtype, it->second);
    });
    PrimExpr simplified = analyzer_.simplify(bound);  // kept alive: `c` points into it
    const int64_t* c = tir::as_const_int(simplified);
    return c != nullptr ? std::optional(*c) : std::nullopt;
  }

 private:
  const ShapeValues& shapes_;
  arith::Analyzer analyzer_;
};

// The roofline time of `bytes` and `flops` on `device` for a launch of `blocks` thread
// blocks (when known): fewer blocks than multiprocessors reach that fraction of the peaks.
double roofline(const DevicePreset& device, int64_t bytes, int64_t flops,
                std::optional<int64_t> blocks, bool* memory_bound) {
  double memory = static_cast<double>(bytes) / device.bytes_per_second;
  double compute = static_cast<double>(flops) / device.fp32_flops_per_second;
  *memory_bound = memory >= compute;
  double share = 1;
  if (blocks && *blocks > 0 && *blocks < device.multiprocessors) {
    share = static_cast<double>(*blocks) / static_cast<double>(device.multiprocessors);
  }
  return std::max(memory, compute) / share;
}

// The names of the shape variables of the functions (their parameters' shapes and the
// launches' grids and scalars).
std::set<std::string> shape_variables(const codegen::CompiledKernels& compiled) {
  std::set<std::string> names;
  auto collect = [&](const Ref<Object>& root) {
    tir::post_order_visit(root, [&](const Ref<Object>& n) {
      if (const auto* v = n.as<tir::VarNode>()) names.insert(v->name);
    });
  };
  for (const codegen::CompiledPrimFunc& func : compiled.funcs) {
    for (const tir::Buffer& param : func.lowered.params) {
      for (const PrimExpr& dim : param->shape) collect(dim);
    }
    for (const tir::KernelLaunch& launch : func.lowered.launches) {
      for (const PrimExpr& g : launch.grid_size) collect(g);
      for (const PrimExpr& s : launch.scalar_args) collect(s);
    }
  }
  return names;
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "none" : out;
}

}  // namespace

const std::vector<DevicePreset>& device_presets() {
  static const std::vector<DevicePreset> presets = {
      {"h100",
       "NVIDIA H100 SXM: 3.35 TB/s HBM3, 67 TFLOP/s FP32, 990 TFLOP/s FP16 tensor (dense), 132 "
       "SMs",
       3.35e12, 67e12, 990e12, 132},
      // A phone GPU of the Adreno 7xx / Mali-G7xx class, shared LPDDR5 on a 64-bit bus
      // (6400 MT/s x 8 bytes); the order of magnitude of the class, not one chip's sheet.
      {"mobile",
       "a phone GPU (Adreno 7xx / Mali-G7xx class): 51.2 GB/s LPDDR5, 1.5 TFLOP/s FP32, 3 "
       "TFLOP/s FP16, 8 compute units",
       51.2e9, 1.5e12, 3e12, 8},
  };
  return presets;
}

const DevicePreset* find_device_preset(const std::string& name) {
  for (const DevicePreset& preset : device_presets()) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

std::string known_device_presets() {
  std::string out;
  for (const DevicePreset& preset : device_presets())
    out += (out.empty() ? "" : ", ") + preset.name;
  return out;
}

std::string parse_shape_values(const std::string& text, ShapeValues& values) {
  size_t begin = 0;
  while (true) {
    size_t end = text.find(',', begin);
    std::string item = text.substr(begin, end == std::string::npos ? end : end - begin);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) {
      return "expected NAME=VALUE (e.g. n=4096), got '" + item + "'";
    }
    std::string name = item.substr(0, eq), number = item.substr(eq + 1);
    bool digits = !number.empty() && number.size() <= 18;
    for (char c : number) digits = digits && std::isdigit(static_cast<unsigned char>(c));
    if (!digits) {
      return "the value of '" + name + "' must be a non-negative integer below 10^18, got '" +
             number + "'";
    }
    values[name] = std::stoll(number);
    if (end == std::string::npos) return "";
    begin = end + 1;
  }
}

std::string kernel_report(const codegen::CompiledKernels& compiled, const ReportOptions& options) {
  const std::set<std::string> variables = shape_variables(compiled);
  for (const auto& [name, value] : options.shapes) {
    if (variables.count(name) == 0) {
      user_error() << "--report-shape: '" << name
                   << "' names no shape variable of the kernels (their variables: "
                   << join(variables) << ")";
    }
  }
  const bool cuda = compiled.target.kind == TargetKind::Cuda;
  const std::optional<std::string> ptxas =
      cuda ? find_tool("ptxas", "/usr/local/cuda/bin") : std::nullopt;
  Evaluator eval(options.shapes);
  std::string out = "kernel report: target \"" + compiled.target.str() + "\"";
  if (options.device != nullptr) out += ", device " + options.device->name;
  for (const auto& [name, value] : options.shapes) out += ", " + name + "=" + std::to_string(value);
  out += "\n";
  if (options.device != nullptr) {
    out += "  device: " + options.device->description +
           "; the roofline uses FP32 (no kernel uses tensor cores)\n";
  }
  std::optional<double> total_time = 0.0;
  for (size_t f = 0; f < compiled.funcs.size(); ++f) {
    const codegen::CompiledPrimFunc& func = compiled.funcs[f];
    const tir::FuncCounts counts = tir::count_lowered(func.lowered);
    out += "function '" + counts.name + "': " + std::to_string(counts.launches.size()) +
           (counts.launches.size() == 1 ? " kernel\n" : " kernels\n");
    PrimExpr traffic = tir::int_imm(DataType::Int(64), 0);
    std::optional<double> func_time = 0.0;
    for (size_t k = 0; k < counts.launches.size(); ++k) {
      const tir::LaunchCounts& launch = counts.launches[k];
      std::string when = launch.condition.defined() ? " (when " + show(launch.condition) + ")" : "";
      out += "  kernel '" + launch.kernel + "'" + when + ": grid [" + show(launch.grid[0]) + ", " +
             show(launch.grid[1]) + ", " + show(launch.grid[2]) + "], block [" +
             std::to_string(launch.block[0]) + ", " + std::to_string(launch.block[1]) + ", " +
             std::to_string(launch.block[2]) + "], shared " +
             std::to_string(launch.shared_memory_bytes) + " B, " +
             (cuda ? registers_of(func.binaries[k], ptxas) : "registers: not reported for SPIR-V") +
             "\n";
      auto bound = [&](const PrimExpr& e) {
        return std::string(launch.upper_bound && e.defined() ? "<= " : "");
      };
      out += "    read " + bound(launch.bytes_read) + show(launch.bytes_read) + " B, written " +
             bound(launch.bytes_written) + show(launch.bytes_written) + " B, flops " +
             bound(launch.flops) + show(launch.flops) + "\n";
      if (launch.shared_memory_bytes > 0) {
        out += "    shared read " + bound(launch.shared_bytes_read) +
               show(launch.shared_bytes_read) + " B, written " +
               bound(launch.shared_bytes_written) + show(launch.shared_bytes_written) + " B";
        std::optional<int64_t> shared_read = eval.value(launch.shared_bytes_read);
        std::optional<int64_t> shared_written = eval.value(launch.shared_bytes_written);
        if (!options.shapes.empty() && shared_read && shared_written) {
          out += " (at these shapes " + std::to_string(*shared_read) + " B, " +
                 std::to_string(*shared_written) + " B)";
        }
        out += "\n";
      }
      PrimExpr launched = launch.bytes_read.defined() && launch.bytes_written.defined()
                              ? launch.bytes_read + launch.bytes_written
                              : PrimExpr();
      if (launch.condition.defined() && launched.defined()) {
        launched = tir::select(launch.condition, launched, tir::int_imm(DataType::Int(64), 0));
      }
      traffic = traffic.defined() && launched.defined() ? traffic + launched : PrimExpr();
      std::optional<int64_t> runs = launch.condition.defined() ? eval.value(launch.condition) : 1;
      std::optional<int64_t> read = eval.value(launch.bytes_read);
      std::optional<int64_t> written = eval.value(launch.bytes_written);
      std::optional<int64_t> flops = eval.value(launch.flops);
      if (runs && *runs == 0) {
        out += "    at these shapes: not launched\n";
      } else if (runs && read && written && flops) {
        out += "    at these shapes: read " + std::to_string(*read) + " B, written " +
               std::to_string(*written) + " B, flops " + std::to_string(*flops);
        if (options.device != nullptr) {
          bool memory_bound = false;
          std::optional<int64_t> blocks =
              eval.value(launch.grid[0] * launch.grid[1] * launch.grid[2]);
          double t = roofline(*options.device, *read + *written, *flops, blocks, &memory_bound);
          out += ", roofline " + show_time(t) + " (" + (memory_bound ? "memory" : "compute");
          if (blocks && *blocks < options.device->multiprocessors) {
            out += ", " + std::to_string(*blocks) +
                   (*blocks == 1 ? " thread block" : " thread blocks") + " for " +
                   std::to_string(options.device->multiprocessors) + " multiprocessors";
          }
          out += ")";
          if (func_time) *func_time += t;
        }
        out += "\n";
      } else {
        func_time.reset();
      }
    }
    arith::Analyzer analyzer;
    PrimExpr compulsory = analyzer.simplify(counts.compulsory_read + counts.compulsory_written);
    if (traffic.defined()) traffic = analyzer.simplify(traffic);
    out += "  traffic " + show(traffic) + " B, compulsory " + show(compulsory) + " B (read " +
           show(counts.compulsory_read) + ", written " + show(counts.compulsory_written) + ")";
    std::optional<int64_t> t = eval.value(traffic), c = eval.value(compulsory);
    if (t && c && *c > 0) {
      char ratio[32];
      std::snprintf(ratio, sizeof(ratio), "%.2f",
                    static_cast<double>(*t) / static_cast<double>(*c));
      out += ", ratio " + std::string(ratio);
    } else if (traffic.defined() && analyzer.can_prove_equal(traffic, compulsory)) {
      out += ", ratio 1.00";
    }
    out += "\n";
    if (options.device != nullptr) {
      out += "  roofline " +
             (func_time ? show_time(*func_time) : "needs --report-shape for every shape variable") +
             "\n";
    }
    if (total_time && func_time) {
      *total_time += *func_time;
    } else {
      total_time.reset();
    }
  }
  if (options.device != nullptr && total_time) {
    out += "total roofline (each function once): " + show_time(*total_time) + "\n";
  }
  return out;
}

}  // namespace relaxc::driver
