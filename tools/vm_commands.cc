// relaxc build / run / inspect: a module compiled to an executable file, an executable
// (or a module built in memory) run on a device with .npy inputs and outputs, and an
// executable printed as text.
#include "tools/vm_commands.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "driver/build.h"
#include "driver/kernel_report.h"
#include "driver/module_files.h"
#include "frontend/onnx/importer.h"
#include "ir/relax/well_formed.h"
#include "ir/support/diagnostics.h"
#include "runtime/device_registry.h"
#include "runtime/input_file.h"
#include "runtime/npy.h"
#include "runtime/open_device.h"
#include "runtime/vm/executable.h"
#include "runtime/vm/vm.h"
#include "tools/kernel_verify.h"

namespace relaxc::tools {
namespace {

using runtime::vm::Executable;
using runtime::vm::Value;

constexpr const char* kBuildHelp =
    R"(Usage: relaxc build FILE --target TARGET [--target TARGET ...] [-o OUTPUT]

Compiles FILE to one executable file: the module is checked (as 'relaxc check'
does; FILE.onnx is an ONNX model, imported as 'relaxc import' does), its Relax functions are lowered for the VM (lambda-lift, to-non-dataflow,
remove-purity-checking, call-tir-rewrite, vm-builtin-lower, vm-shape-lower) and
compiled to bytecode, and its TensorIR functions to kernels for each target (the
kernel pipeline: the default GPU schedule where a function is not scheduled, then the
kernel lowering passes; then the target's back end). 'relaxc run' runs the file.

Targets (see 'relaxc codegen --help'):
  vulkan                    the limits of the Vulkan device present
  vulkan -profile=mobile    a named profile (also desktop); quote a target with options
  cuda -arch=sm_90          PTX for that architecture
Several --target put kernels for each back end in the executable (e.g. one for Vulkan
and one for CUDA); the VM runs those of the device it opens.

Options:
  --target TARGET      a target (also --target=TARGET); at least one
  -o OUTPUT            the executable to write (default: FILE's stem + '.rxe', in the
                       current directory; 'module.rxe' for standard input)
  --print-after-each   print the module after each pass (standard output); the kernel
                       passes once per target, their lines naming it
  --time-passes        print each pass's time (standard error)
  --disable-pass=NAME  skip the pass NAME (also --disable-pass NAME; repeatable): one
                       the build is correct without (marked * in the pipeline below)
  --report             print the kernel report of each target on standard output (the
                       executable is still written): per kernel its function, grid and
                       block, shared memory, registers (ptxas -v, CUDA), global bytes read
                       and written and FLOPs per launch over the shape variables, and per
                       function its traffic against the compulsory traffic (each input
                       read once, each output written once)
  --report-device DEV  also the roofline time on DEV: h100 (3.35 TB/s, 67 TFLOP/s FP32)
                       or mobile (51.2 GB/s, 1.5 TFLOP/s FP32)
  --report-shape N=V   evaluate the counts with the shape variable N = V (also
                       N=V,M=W; repeatable)
  -h, --help           print this help
)";

constexpr const char* kRunHelp =
    R"(Usage: relaxc run PROGRAM [--function NAME] [--input FILE.npy ...] [--output-dir DIR]
                  [--device DEVICE]

Runs the function NAME of PROGRAM on a device. PROGRAM is an executable written by
'relaxc build', or a text module (.py or .relax) or an ONNX model (.onnx, imported as
'relaxc import' does), which is built in memory for the device's target first; '-'
reads an executable or a text module from standard input (so may one --input).
Each --input is a NumPy .npy file (bool, int8-64, uint8-64, float16/32/64, C order;
bfloat16, which NumPy lacks, as the structured dtype [('bfloat16', '<u2')] of its bits),
the function's arguments in order; they are copied to the device, the function is
called, and the device's name is printed, then each output (the result, or each tensor
of a result tuple, recursively) as one line: its name NAME_I, dtype, shape and first
values. With --output-dir, each is also written to DIR/NAME_I.npy (a shape as a
one-dimensional int64 array, a PrimValue as a zero-dimensional int64, float64 or bool
array). For an ONNX model the outputs are the graph's, in its order (main_0, main_1,
...), each printed with its ONNX name: "main_0 'logits': float32 (2, 10) [...]".

Options:
  --function NAME     the exported function to call (default: main)
  --input FILE        a .npy file, once per argument, in order
  --output-dir DIR    write the outputs as .npy files into DIR (created if missing)
  --device DEVICE     auto (the default: a CUDA GPU, else a Vulkan GPU, else lavapipe;
                      for an executable, one that runs its kernels), vulkan, vulkan:INDEX,
                      vulkan:NAME (a part of the device's name), cuda, cuda:INDEX
  -h, --help          print this help

Errors (a wrong number of inputs, a shape or dtype check of the function failing, a
file that cannot be read) print 'relaxc run: error: ...' and exit 1.
)";

constexpr const char* kInspectHelp =
    R"(Usage: relaxc inspect [--verify] [-o OUTPUT] FILE

Prints the executable FILE (written by 'relaxc build'; '-' reads standard input) as
text: the exported functions, each function's instructions, the constants, the host
shape functions, and for each back end its kernel functions (parameters, launches) and
kernels (entry point, block size, shared memory, code size). Loading it checks each
section's checksum and each kernel's code as far as is cheap (docs/architecture.md).

Options:
  --verify     also give each kernel to its format's tool where it is installed
               (spirv-val for SPIR-V, ptxas for PTX) and print its verdict, one line
               per kernel under 'verify:'; a missing tool is reported, not an error;
               exit status 1 when a tool finds a kernel invalid
  -o OUTPUT    write the text to OUTPUT instead of standard output
  -h, --help   print this help
)";

bool is_executable(std::span<const uint8_t> bytes) {
  // The magic's first six bytes; the two format bytes that follow are the loader's to check.
  constexpr size_t kName = 6;
  return bytes.size() >= kName &&
         std::memcmp(bytes.data(), runtime::vm::kExecutableMagic.data(), kName) == 0;
}

// Parses and checks a module; UserError with every diagnostic when it is not well formed.
IRModule checked_module(const Source& source) {
  IRModule module = driver::parse_module_with_weights(source.text, source.name);
  relax::check_well_formed(module).throw_if_errors();
  return module;
}

std::string default_output(const std::string& input) {
  if (input == "-") return "module.rxe";
  return std::filesystem::path(input).stem().string() + ".rxe";
}

// The device a run asks for. "auto" with an executable: the best device whose kernel
// format the executable has (a CUDA GPU for PTX, else a Vulkan device for SPIR-V).
std::unique_ptr<runtime::Device> open_run_device(const std::string& spec,
                                                 const Executable* exe) {
  if (exe == nullptr || !(spec.empty() || spec == "auto") || exe->backends.empty()) {
    return runtime::open_device(spec);
  }
  std::string failures;
  for (const runtime::DeviceKind* kind : runtime::device_kinds_by_preference()) {
    bool has = false;
    for (const runtime::vm::Backend& b : exe->backends)
      has = has || b.format == kind->kernel_format;
    if (!has) continue;
    try {
      return runtime::open_device(std::string(kind->name));
    } catch (const runtime::RuntimeError& e) {
      failures += std::string(failures.empty() ? "" : "; ") + e.what();
    }
  }
  runtime::runtime_error() << "no device present runs the executable's kernels: " << failures;
}

// One output of a run: its name (FUNCTION_I) and value (a tensor, shape or PrimValue).
struct Output {
  std::string name;
  Value value;
};

void flatten_outputs(const Value& value, const std::string& function, std::vector<Output>* out) {
  if (value.kind() == Value::Kind::Tuple) {
    for (const Value& field : value.as_tuple()) flatten_outputs(field, function, out);
    return;
  }
  out->push_back({function + "_" + std::to_string(out->size()), value});
}

double half_to_double(uint16_t h) {
  int exponent = (h >> 10) & 0x1f;
  double mantissa = h & 0x3ff;
  double magnitude = exponent == 0    ? std::ldexp(mantissa, -24)
                     : exponent == 31 ? (mantissa == 0 ? INFINITY : NAN)
                                      : std::ldexp(mantissa + 1024, exponent - 25);
  return (h & 0x8000) != 0 ? -magnitude : magnitude;
}

// Element `i` of row-major `bytes` of `dtype`, as text.
std::string element_text(const std::vector<uint8_t>& bytes, runtime::DType dtype, size_t i) {
  const uint8_t* p = bytes.data() + i * static_cast<size_t>(dtype.bytes());
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  std::ostringstream os;
  os << std::setprecision(6);
  if (dtype.is_bool()) return p[0] != 0 ? "true" : "false";
  switch (dtype.code) {
    case runtime::DType::Code::Float:
      if (dtype.bits == 16) os << half_to_double(load(uint16_t{}));
      if (dtype.bits == 32) os << load(float{});
      if (dtype.bits == 64) os << load(double{});
      break;
    case runtime::DType::Code::Int:
      if (dtype.bits == 8) os << static_cast<int>(load(int8_t{}));
      if (dtype.bits == 16) os << load(int16_t{});
      if (dtype.bits == 32) os << load(int32_t{});
      if (dtype.bits == 64) os << load(int64_t{});
      break;
    case runtime::DType::Code::UInt:
      if (dtype.bits == 8) os << static_cast<int>(load(uint8_t{}));
      if (dtype.bits == 16) os << load(uint16_t{});
      if (dtype.bits == 32) os << load(uint32_t{});
      if (dtype.bits == 64) os << load(uint64_t{});
      break;
    case runtime::DType::Code::BFloat:  // the high half of a float32
      os << std::bit_cast<float>(static_cast<uint32_t>(load(uint16_t{})) << 16);
      break;
  }
  return os.str();
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// The output as an array, or nullopt for a value that is not one (null, a string, ...).
std::optional<runtime::NpyArray> output_array(runtime::vm::VirtualMachine& vm,
                                              const Value& value) {
  runtime::NpyArray array;
  auto put = [&array](auto v) {
    array.data.resize(sizeof(v));
    std::memcpy(array.data.data(), &v, sizeof(v));
  };
  switch (value.kind()) {
    case Value::Kind::Tensor:
      array.dtype = value.as_tensor().dtype;
      array.shape = value.as_tensor().shape;
      array.data = vm.to_host(value.as_tensor());
      return array;
    case Value::Kind::Shape:
      array.dtype = runtime::DType::Int(64);
      array.shape = {static_cast<int64_t>(value.as_shape().size())};
      array.data.resize(value.as_shape().size() * sizeof(int64_t));
      std::memcpy(array.data.data(), value.as_shape().data(), array.data.size());
      return array;
    case Value::Kind::Int:
      if (value.dtype().is_bool()) {
        array.dtype = runtime::DType::Bool();
        array.data = {static_cast<uint8_t>(value.as_int() != 0)};
      } else {
        array.dtype = runtime::DType::Int(64);
        put(value.as_int());
      }
      return array;
    case Value::Kind::Float:
      array.dtype = runtime::DType::Float(64);
      put(value.as_float());
      return array;
    default:
      return std::nullopt;
  }
}

std::string summary(const runtime::NpyArray& array) {
  constexpr size_t kShown = 8;
  size_t count = array.data.size() / static_cast<size_t>(std::max(1, array.dtype.bytes()));
  std::string values = "[";
  for (size_t i = 0; i < count && i < kShown; ++i) {
    values += (i == 0 ? "" : ", ") + element_text(array.data, array.dtype, i);
  }
  values += count > kShown ? ", ...]" : "]";
  return array.dtype.str() + " " + shape_text(array.shape) + " " + values;
}

}  // namespace

std::vector<Value> load_inputs(runtime::vm::VirtualMachine& vm, const CommandLine& cl) {
  const Executable& exe = vm.executable();
  int64_t index = exe.find_export(cl.function);
  if (index >= 0) {
    const std::vector<std::string>& params = exe.functions[index].param_names;
    if (params.size() != cl.inputs.size()) {
      std::string names;
      for (const std::string& p : params) names += (names.empty() ? "" : ", ") + p;
      runtime::runtime_error() << "function '" << cl.function << "' takes " << params.size()
                               << (params.size() == 1 ? " argument" : " arguments")
                               << (names.empty() ? "" : " (" + names + ")") << ", got "
                               << cl.inputs.size() << " --input";
    }
  }
  std::vector<Value> args;
  for (const std::string& path : cl.inputs) {
    runtime::NpyArray array = runtime::read_npy(path);
    args.push_back(Value::tensor(vm.from_host(array.dtype, array.shape, array.data.data())));
  }
  return args;
}

LoadedProgram load_program(const CommandLine& cl) {
  LoadedProgram program;
  // An executable or a text module, from a file or standard input: mapped (or read) once,
  // then told apart by the executable's magic.
  std::shared_ptr<const runtime::InputBytes> file =
      runtime::map_input_file(cl.input, runtime::kMaxDataFileBytes);
  const std::span<const uint8_t> bytes = file->bytes();
  const std::string name = cl.input == "-" ? runtime::kStdinName : cl.input;
  if (onnx_import::is_onnx_path(cl.input)) {
    IRModule module = onnx_import::import_model(bytes, name);
    program.onnx_names = onnx_import::output_names(module);
    program.device = open_run_device(cl.device, nullptr);
    program.exe =
        std::make_shared<const Executable>(driver::build(module, {device_target(*program.device)}));
  } else if (is_executable(bytes)) {
    program.exe = std::make_shared<const Executable>(runtime::vm::load_executable_from(file, name));
    program.device = open_run_device(cl.device, program.exe.get());
  } else {
    if (bytes.size() > runtime::kMaxTextFileBytes) {
      throw FileError{name + ": larger than the limit of " +
                      std::to_string(runtime::kMaxTextFileBytes) + " bytes for a text module"};
    }
    IRModule module = checked_module(Source{name, std::string(bytes.begin(), bytes.end())});
    program.device = open_run_device(cl.device, nullptr);
    program.exe =
        std::make_shared<const Executable>(driver::build(module, {device_target(*program.device)}));
  }
  return program;
}

std::string build_help() {
  std::string help = kBuildHelp;
  auto list = [&](const std::vector<std::string>& names) {
    for (const std::string& name : names) {
      help += "  " + name + (find_pass(name)->may_disable ? " *" : "") + "\n";
    }
  };
  help += "\nPipeline, in order (* may be disabled):\n";
  list(vm_lowering_passes());
  help += "then for each target, on the TensorIR functions:\n";
  list(kernel_passes());
  return help;
}
std::string run_help() { return kRunHelp; }
std::string inspect_help() { return kInspectHelp; }

int run_build(const CommandLine& cl) {
  IRModule module = onnx_import::is_onnx_path(cl.input) ? onnx_import::import_model_file(cl.input)
                                                        : checked_module(read_source(cl.input));
  std::vector<Target> targets;
  for (const std::string& text : cl.targets) targets.push_back(resolve_target(text, cl.command));
  PipelineOptions options;
  if (cl.print_after_each) options.print_after_each = &std::cout;
  if (cl.time_passes) options.timing = &std::cerr;
  options.disabled = cl.disabled_passes;
  const std::string output = cl.output.value_or(default_output(cl.input));
  if (is_input_file(output, cl.input)) {  // -o was checked; this is the default name
    throw FileError{output + ": the default output is the input file; give -o OUTPUT"};
  }
  std::vector<codegen::CompiledKernels> compiled;
  Executable exe = driver::build(module, targets, options, cl.report ? &compiled : nullptr);
  // The reports first: a --report-shape naming no variable fails before anything is written.
  std::string report;
  if (cl.report) {
    driver::ReportOptions report_options{
        cl.report_device ? driver::find_device_preset(*cl.report_device) : nullptr,
        cl.report_shapes};
    for (const codegen::CompiledKernels& backend : compiled) {
      report += driver::kernel_report(backend, report_options);
    }
  }
  write_file(output, runtime::vm::save_executable(exe));
  std::cout << report;
  return kExitSuccess;
}

int run_inspect(const CommandLine& cl) {
  Executable exe = runtime::vm::load_executable_file(cl.input);
  std::string text = runtime::vm::executable_to_text(exe);
  bool valid = true;
  if (cl.verify) {
    text += "verify:\n";
    valid = verify_kernels(exe, &text);
  }
  write_output(cl, text);
  if (!valid) {
    std::cerr << "relaxc inspect: error: '" << cl.input
              << "' has kernels that their tool finds invalid (see 'verify:')\n";
    return kExitInputError;
  }
  return kExitSuccess;
}

int run_run(const CommandLine& cl) {
  auto [exe, device, onnx_names] = load_program(cl);
  runtime::vm::VirtualMachine vm(exe, *device);
  std::vector<Value> args = load_inputs(vm, cl);
  std::cout << "device: " << device->limits().name << " ("
            << runtime::kernel_format_name(device->kernel_format()) << ")\n";
  Value result = vm.call(cl.function, std::move(args));

  std::vector<Output> outputs;
  flatten_outputs(result, cl.function, &outputs);
  if (cl.output_dir) {
    std::error_code ec;
    std::filesystem::create_directories(*cl.output_dir, ec);
    if (ec) throw FileError{*cl.output_dir + ": cannot create the directory: " + ec.message()};
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Output& output = outputs[i];
    std::optional<runtime::NpyArray> array = output_array(vm, output.value);
    std::cout << output.name;
    if (i < onnx_names.size()) std::cout << " '" << onnx_names[i] << "'";
    if (!array) {
      std::cout << ": " << output.value.kind_name() << " (not written)\n";
      continue;
    }
    std::cout << ": " << summary(*array);
    if (cl.output_dir) {
      std::string path = (std::filesystem::path(*cl.output_dir) / (output.name + ".npy")).string();
      runtime::write_npy(path, *array);
      std::cout << " -> " << path;
    }
    std::cout << "\n";
  }
  return kExitSuccess;
}

}  // namespace relaxc::tools
