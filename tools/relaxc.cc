// relaxc: the command-line program (check, print, opt and codegen on text modules; build,
// run and inspect of executables in tools/vm_commands.cc; import of ONNX models in
// tools/import_command.cc).
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/target_backend.h"
#include "driver/compile.h"
#include "driver/kernel_report.h"
#include "driver/module_files.h"
#include "ir/relax/block_builder.h"
#include "ir/relax/well_formed.h"
#include "ir/support/diagnostics.h"
#include "ir/text/printer.h"
#include "passes/pass_registry.h"
#include "passes/pipeline.h"
#include "tools/bench_command.h"
#include "tools/cli.h"
#include "tools/import_command.h"
#include "tools/vm_commands.h"

namespace relaxc::tools {
namespace {

constexpr const char* kProgramHelp =
    R"(relaxc: a compiler for Relax / TensorIR modules written in TVMScript.

Usage: relaxc <command> [options] FILE
       relaxc <command> --help

Commands:
  check   parse and normalize FILE, then check that it is well formed
  print   print FILE's normalized module, every binding with its StructInfo
  opt     run passes on FILE and print the result
  codegen compile FILE's TensorIR functions to GPU kernels (SPIR-V or PTX)
  build   compile FILE to an executable (.rxe) for one or more targets
  run     run a function of an executable (or of FILE, built for the device) on
          .npy inputs
  inspect print an executable as text: functions, instructions, constants, kernels
  bench   time a function of an executable (or of FILE) on a device: latency, host
          time, device time per kernel, peak device memory
  import  import an ONNX model (FILE.onnx) and print it as a text module

FILE is a text module (.py or .relax, see docs/text_format.md), or for run and inspect
an executable; for build, run and import, a file named *.onnx is an ONNX model (see
'relaxc import --help'). '-' reads standard input. Input files must be regular files
(at most 256 MiB for a module, 2 GiB for an ONNX model, 16 GiB for an executable or
.npy); -o must not name the input, and -o - writes to standard output.

Exit status: 0 on success, 1 if the module has errors or a file cannot be read or
written (standard output included), 2 on a usage error (unknown command or option,
missing FILE, -o naming the input). 'relaxc run' also exits 1 when running fails (a
wrong input, a run-time check, a device error). An internal error (a bug in relaxc) is
reported as such and exits 70.
)";

constexpr const char* kCheckHelp =
    R"(Usage: relaxc check [options] FILE

Parses FILE, normalizes it and checks that every Relax function is well formed
(the rules of docs/language.md). Prints nothing and exits 0 on a valid module; otherwise
prints every diagnostic to standard error (file:line:col, the source line and a caret)
and exits 1. FILE '-' reads standard input.

Options:
  -h, --help   print this help
)";

constexpr const char* kPrintHelp =
    R"(Usage: relaxc print [options] FILE

Parses FILE, normalizes it and prints the module in the text format, every binding with
its StructInfo. FILE '-' reads standard input. A FILE that refers to constants as
metadata["relax.expr.Constant"][i] reads them from its weights side file (model.py's is
model.safetensors).

Options:
  -o OUTPUT    write the module to OUTPUT instead of standard output; constants of more
               than 64 elements go to OUTPUT's side file (OUTPUT with the extension
               .safetensors), which the text refers to
  -h, --help   print this help
)";

// The pass list is appended when the help is printed.
constexpr const char* kOptHelp =
    R"(Usage: relaxc opt [options] FILE --passes=NAME[,NAME...]

Parses FILE, runs the named passes in order and prints the resulting module (without
--passes, the parsed module). A pass that finds errors reports them and exits 1.
FILE '-' reads standard input. After split-host-device the module printed is the
kernels, one PrimFunc each (their launches stay with the compiler); the kernel passes
also run on a module of such kernels.

Options:
  --passes=LIST     comma-separated pass names, run in order (also: --passes LIST)
  --target TARGET   the target of the TensorIR passes (see 'relaxc codegen --help';
                    default: vulkan -profile=desktop)
  -o OUTPUT         write the module to OUTPUT instead of standard output
  -h, --help        print this help
)";

constexpr const char* kCodegenHelp =
    R"(Usage: relaxc codegen --target TARGET [options] FILE

Compiles every TensorIR function of FILE to device kernels: functions that are not
scheduled yet get the default GPU schedule, then each is lowered to kernels and
compiled for TARGET: SPIR-V for Vulkan (every module checked with SPIRV-Tools'
validator), PTX for CUDA (LLVM's NVPTX back end).

Targets:
  vulkan                    the limits of the Vulkan device present (RELAXC_VULKAN_DEVICE
                            chooses one); the desktop profile if there is none
  vulkan -profile=desktop   1024 threads per block, 48 KiB shared memory, fp16/int8/int64
  vulkan -profile=mobile    128 threads per block, 16 KiB shared memory, fp32/int32 only
  vulkan ... -version=1.3   SPIR-V 1.6 for Vulkan 1.3 (default: Vulkan 1.1, SPIR-V 1.3)
  cuda -arch=sm_NN          PTX for sm_70, 72, 75, 80, 86, 87, 89, 90 (default: sm_80)

Options:
  --target TARGET   the target (also --target=TARGET); quote it when it has options
  -o OUTPUT         write the kernel to OUTPUT (a SPIR-V binary, or PTX); with several
                    kernels, one file per kernel named OUTPUT's stem + '.' + kernel +
                    OUTPUT's extension, next to OUTPUT (which must then name a file,
                    not standard output, a directory or a device)
  --emit=asm        write text instead: SPIR-V assembly, or PTX (the default without -o)
  --emit=binary     write SPIR-V binaries (the default with -o)
  -h, --help        print this help
)";

struct CommandSpec {
  std::string_view name;
  bool takes_output = false;
  bool takes_passes = false;
  bool takes_target = false;            // --target, required
  bool optional_target = false;         // --target, optional (opt)
  bool repeats_target = false;          // several --target (build)
  bool takes_emit = false;              // --emit (codegen)
  bool takes_pipeline_options = false;  // --print-after-each, --time-passes, --disable-pass (build)
  bool takes_run_options = false;       // --function, --input, --output-dir, --device (run)
  bool takes_bench_options = false;     // --function, --input, --device, --warmup, --repeat, --json
  bool takes_verify = false;            // --verify (inspect)
  bool takes_report = false;            // --report, --report-device, --report-shape (build)
};

std::string opt_help() {
  std::string help = kOptHelp;
  help += "\nPasses:\n";
  size_t width = 0;
  for (const PassInfo& pass : all_passes()) width = std::max(width, pass.name.size());
  for (const PassInfo& pass : all_passes()) {
    help +=
        "  " + pass.name + std::string(width - pass.name.size() + 3, ' ') + pass.description + "\n";
  }
  return help;
}

std::vector<std::string> parse_pass_list(std::string_view list) {
  std::vector<std::string> names;
  size_t begin = 0;
  while (true) {
    size_t end = list.find(',', begin);
    std::string name(list.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (name.empty()) {
      throw UsageError{"--passes expects comma-separated pass names, got '" + std::string(list) +
                       "'; known passes: " + known_pass_names()};
    }
    if (find_pass(name) == nullptr) {
      throw UsageError{"unknown pass '" + name + "'; known passes: " + known_pass_names()};
    }
    names.push_back(std::move(name));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  return names;
}

// The value of a count option (--warmup, --repeat): an integer from `min` to 1000000.
int64_t parse_count(std::string_view option, const std::string& text, int64_t min) {
  constexpr int64_t kMaxCount = 1000000;
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < min ||
      value > kMaxCount) {
    throw UsageError{std::string(option) + " expects an integer from " + std::to_string(min) +
                     " to " + std::to_string(kMaxCount) + ", got '" + text + "'"};
  }
  return value;
}

CommandLine parse_command_line(const CommandSpec& spec, const std::vector<std::string>& args) {
  CommandLine cl;
  cl.command = std::string(spec.name);
  std::vector<std::string> positional;
  bool options_ended = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto next_value = [&](std::string_view option) -> std::string {
      if (i + 1 >= args.size())
        throw UsageError{"option '" + std::string(option) + "' needs a value"};
      return args[++i];
    };
    if (options_ended || arg == "-" || arg.empty() || arg[0] != '-') {
      positional.push_back(arg);
    } else if (arg == "--") {
      options_ended = true;
    } else if (arg == "-h" || arg == "--help") {
      cl.help = true;
    } else if (spec.takes_output && arg == "-o") {
      cl.output = next_value(arg);
    } else if (spec.takes_passes && arg.starts_with("--passes=")) {
      cl.passes = parse_pass_list(std::string_view(arg).substr(std::strlen("--passes=")));
    } else if (spec.takes_passes && arg == "--passes") {
      cl.passes = parse_pass_list(next_value(arg));
    } else if ((spec.takes_target || spec.optional_target) &&
               (arg == "--target" || arg.starts_with("--target="))) {
      std::string target =
          arg == "--target" ? next_value(arg) : arg.substr(std::strlen("--target="));
      if (!cl.targets.empty() && !spec.repeats_target) {
        throw UsageError{"--target given twice ('" + cl.targets[0] + "' and '" + target + "')"};
      }
      cl.targets.push_back(std::move(target));
    } else if (spec.takes_pipeline_options && arg == "--print-after-each") {
      cl.print_after_each = true;
    } else if (spec.takes_pipeline_options && arg == "--time-passes") {
      cl.time_passes = true;
    } else if (spec.takes_pipeline_options &&
               (arg == "--disable-pass" || arg.starts_with("--disable-pass="))) {
      std::string name =
          arg == "--disable-pass" ? next_value(arg) : arg.substr(std::strlen("--disable-pass="));
      if (std::string why = disable_pass_error(name); !why.empty()) {
        throw UsageError{"--disable-pass: " + why};
      }
      cl.disabled_passes.insert(std::move(name));
    } else if ((spec.takes_run_options || spec.takes_bench_options) &&
               (arg == "--function" || arg.starts_with("--function="))) {
      cl.function = arg == "--function" ? next_value(arg) : arg.substr(std::strlen("--function="));
    } else if ((spec.takes_run_options || spec.takes_bench_options) &&
               (arg == "--input" || arg.starts_with("--input="))) {
      cl.inputs.push_back(arg == "--input" ? next_value(arg) : arg.substr(std::strlen("--input=")));
    } else if (spec.takes_run_options &&
               (arg == "--output-dir" || arg.starts_with("--output-dir="))) {
      cl.output_dir =
          arg == "--output-dir" ? next_value(arg) : arg.substr(std::strlen("--output-dir="));
    } else if ((spec.takes_run_options || spec.takes_bench_options) &&
               (arg == "--device" || arg.starts_with("--device="))) {
      cl.device = arg == "--device" ? next_value(arg) : arg.substr(std::strlen("--device="));
    } else if (spec.takes_bench_options && (arg == "--warmup" || arg.starts_with("--warmup=") ||
                                            arg == "--repeat" || arg.starts_with("--repeat="))) {
      bool warmup = arg.starts_with("--warmup");
      std::string_view option = warmup ? "--warmup" : "--repeat";
      std::string text = arg == option ? next_value(arg) : arg.substr(option.size() + 1);
      (warmup ? cl.warmup : cl.repeat) = parse_count(option, text, warmup ? 0 : 1);
    } else if (spec.takes_bench_options && (arg == "--json" || arg.starts_with("--json="))) {
      cl.json = arg == "--json" ? next_value(arg) : arg.substr(std::strlen("--json="));
    } else if (spec.takes_report && arg == "--report") {
      cl.report = true;
    } else if (spec.takes_report &&
               (arg == "--report-device" || arg.starts_with("--report-device="))) {
      cl.report_device =
          arg == "--report-device" ? next_value(arg) : arg.substr(std::strlen("--report-device="));
      if (driver::find_device_preset(*cl.report_device) == nullptr) {
        throw UsageError{"unknown --report-device '" + *cl.report_device +
                         "'; known devices: " + driver::known_device_presets()};
      }
    } else if (spec.takes_report &&
               (arg == "--report-shape" || arg.starts_with("--report-shape="))) {
      std::string shapes =
          arg == "--report-shape" ? next_value(arg) : arg.substr(std::strlen("--report-shape="));
      if (std::string why = driver::parse_shape_values(shapes, cl.report_shapes); !why.empty()) {
        throw UsageError{"--report-shape: " + why};
      }
    } else if (spec.takes_verify && arg == "--verify") {
      cl.verify = true;
    } else if (spec.takes_emit && arg.starts_with("--emit=")) {
      cl.emit = arg.substr(std::strlen("--emit="));
      if (*cl.emit != "asm" && *cl.emit != "binary") {
        throw UsageError{"--emit expects 'asm' or 'binary', got '" + *cl.emit + "'"};
      }
    } else {
      throw UsageError{"unknown option '" + arg + "'"};
    }
  }
  if (cl.help) return cl;
  if (spec.takes_target && cl.targets.empty()) {
    throw UsageError{"missing --target (e.g. --target vulkan)"};
  }
  if (cl.emit == "binary" && !cl.output) throw UsageError{"--emit=binary needs -o OUTPUT"};
  if (!cl.report && (cl.report_device || !cl.report_shapes.empty())) {
    throw UsageError{"--report-device and --report-shape need --report"};
  }
  if (cl.report && cl.output == "-") {
    throw UsageError{
        "--report prints to standard output, so -o - cannot write the executable there"};
  }
  if (positional.empty()) throw UsageError{"missing FILE (use '-' for standard input)"};
  if (positional.size() > 1) {
    throw UsageError{"expected one FILE, got '" + positional[0] + "' and '" + positional[1] + "'"};
  }
  cl.input = positional[0];
  return cl;
}

IRModule parse_and_normalize(const CommandLine& cl) {
  Source source = read_source(cl.input);
  IRModule module = driver::parse_module_with_weights(source.text, source.name);
  return relax::normalize_module(module);
}

// Each diagnostic; one without a place in the source starts with "relaxc COMMAND: ".
void print_diagnostics(const std::vector<Diagnostic>& diagnostics, std::string_view command) {
  for (const Diagnostic& diagnostic : diagnostics) {
    if (!diagnostic.span.defined()) std::cerr << "relaxc " << command << ": ";
    std::cerr << diagnostic.render();
  }
}

int run_check(const CommandLine& cl) {
  IRModule module = parse_and_normalize(cl);
  DiagnosticList diagnostics = relax::check_well_formed(module);
  print_diagnostics(diagnostics.all(), cl.command);
  return diagnostics.has_errors() ? kExitInputError : kExitSuccess;
}

int run_print(const CommandLine& cl) {
  const IRModule module = parse_and_normalize(cl);
  if (cl.output && *cl.output != "-") {
    driver::write_module_with_weights(module, *cl.output);
  } else {
    write_output(cl, text::print_module(module));
  }
  return kExitSuccess;
}

int run_opt(const CommandLine& cl) {
  Source source = read_source(cl.input);
  Target target =
      cl.targets.empty() ? vulkan_profile("desktop") : resolve_target(cl.targets[0], cl.command);
  PassState state{driver::parse_module_with_weights(source.text, source.name), std::nullopt};
  run_passes(cl.passes, state, PassContext{&target}, PipelineOptions{});
  write_output(cl, text::print_module(state.printable()));
  return kExitSuccess;
}

int run_codegen(const CommandLine& cl) {
  Target target = resolve_target(cl.targets[0], cl.command);
  IRModule module = parse_and_normalize(cl);
  // The kernel lowering and the code generators assume what check guarantees.
  relax::check_well_formed(module).throw_if_errors();
  auto compiled = driver::compile_module(module, target);
  std::vector<const runtime::KernelBinary*> kernels;
  for (const auto& [name, func] : compiled) {
    for (const runtime::KernelBinary& binary : func.binaries) kernels.push_back(&binary);
  }
  if (kernels.empty()) throw FileError{"'" + cl.input + "' has no TensorIR function to compile"};
  bool emit_asm = cl.emit ? *cl.emit == "asm" : !cl.output;
  if (emit_asm) {
    const codegen::TargetBackend& backend = codegen::backend_for(target.kind);
    std::string comment = backend.comment;
    std::string text = comment + "target: " + target.str() +
                       (target.device_name.empty() ? "" : " (" + target.device_name + ")") + "\n";
    for (const runtime::KernelBinary* k : kernels) {
      text += comment + "kernel " + k->name + "\n" + backend.disassemble(*k);
    }
    write_output(cl, text);
    return kExitSuccess;
  }
  RELAXC_ICHECK(cl.output.has_value()) << "--emit=binary without -o is refused on the command line";
  if (kernels.size() == 1) {
    write_file(*cl.output, kernels[0]->code);
    return kExitSuccess;
  }
  // Several kernels go to files named after OUTPUT, next to it: only when OUTPUT names a
  // file (a directory or a device has no stem to derive their names from).
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(*cl.output, ec);
  if (*cl.output == "-" ||
      (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))) {
    std::string shown = *cl.output == "-" ? "standard output" : *cl.output;
    throw FileError{shown + ": not a regular file; the " + std::to_string(kernels.size()) +
                    " kernels are written next to -o OUTPUT as OUTPUT's stem + '.' + kernel + "
                    "extension, so OUTPUT must name a file (or use --emit=asm)"};
  }
  std::filesystem::path out(*cl.output);
  for (const runtime::KernelBinary* k : kernels) {
    std::filesystem::path path =
        out.parent_path() / (out.stem().string() + "." + k->name + out.extension().string());
    write_file(path.string(), k->code);
    std::cout << path.string() << "\n";
  }
  return kExitSuccess;
}

struct Command {
  CommandSpec spec;
  int (*run)(const CommandLine&);
  std::string (*help)();
};

const std::vector<Command>& commands() {
  static const std::vector<Command> list = {
      {{.name = "check"}, run_check, [] { return std::string(kCheckHelp); }},
      {{.name = "print", .takes_output = true}, run_print, [] { return std::string(kPrintHelp); }},
      {{.name = "opt", .takes_output = true, .takes_passes = true, .optional_target = true},
       run_opt,
       opt_help},
      {{.name = "codegen", .takes_output = true, .takes_target = true, .takes_emit = true},
       run_codegen,
       [] { return std::string(kCodegenHelp); }},
      {{.name = "build",
        .takes_output = true,
        .takes_target = true,
        .repeats_target = true,
        .takes_pipeline_options = true,
        .takes_report = true},
       run_build,
       build_help},
      {{.name = "run", .takes_run_options = true}, run_run, run_help},
      {{.name = "bench", .takes_bench_options = true}, run_bench, bench_help},
      {{.name = "inspect", .takes_output = true, .takes_verify = true}, run_inspect, inspect_help},
      {{.name = "import", .takes_output = true}, run_import, import_help},
  };
  return list;
}

int usage_error(std::string_view command, const std::string& message) {
  std::string prefix = command.empty() ? "relaxc" : "relaxc " + std::string(command);
  std::string help_hint = command.empty() ? "relaxc --help" : prefix + " --help";
  std::cerr << prefix << ": error: " << message << "\n"
            << "Run '" << help_hint << "' for usage.\n";
  return kExitUsage;
}

// Flushes standard output: when what a command printed could not be written (a full
// disk, a closed descriptor), the command fails with exit status 1 whatever it returned.
int finish_stdout(std::string_view command, int status) {
  errno = 0;
  std::cout.flush();
  if (std::cout) return status;
  std::cerr << "relaxc " << command << ": error: standard output: cannot write"
            << (errno != 0 ? std::string(": ") + std::strerror(errno) : std::string()) << "\n";
  return kExitInputError;
}

int run_command(const Command& command, const std::vector<std::string>& args) {
  std::string_view name = command.spec.name;
  CommandLine cl;
  try {
    cl = parse_command_line(command.spec, args);
  } catch (const UsageError& e) {
    return usage_error(name, e.message);
  }
  if (cl.help) {
    std::cout << command.help();
    return finish_stdout(name, kExitSuccess);
  }
  try {
    check_output_is_not_input(cl);
  } catch (const UsageError& e) {
    return usage_error(name, e.message);
  }
  try {
    return finish_stdout(name, command.run(cl));
  } catch (const UserError& e) {
    print_diagnostics(e.diagnostics(), name);
    if (e.diagnostics().empty()) std::cerr << "relaxc " << name << ": error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const FileError& e) {
    std::cerr << "relaxc " << name << ": error: " << e.message << "\n";
    return kExitInputError;
  } catch (const runtime::RuntimeError& e) {
    // The runtime's failures: an executable or .npy file that is bad, a device missing,
    // a run-time check of the VM.
    std::cerr << "relaxc " << name << ": error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const InternalError& e) {
    std::cerr << render_bug_report("relaxc " + std::string(name), e);
    return kExitInternalError;
  } catch (const std::bad_alloc&) {
    std::cerr << "relaxc " << name << ": error: out of host memory\n";
    return kExitInputError;
  } catch (const std::exception& e) {
    // A library's failure that no check above names (a filesystem error): still one
    // line that starts with the command.
    std::cerr << "relaxc " << name << ": error: " << e.what() << "\n";
    return kExitInputError;
  }
}

int relaxc_main(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::cerr << kProgramHelp;
    return kExitUsage;
  }
  const std::string& first = args[0];
  if (first == "-h" || first == "--help" || first == "help") {
    if (first == "help" && args.size() > 1) {
      for (const Command& command : commands()) {
        if (command.spec.name == args[1]) {
          std::cout << command.help();
          return finish_stdout(command.spec.name, kExitSuccess);
        }
      }
      return usage_error("", "unknown command '" + args[1] + "'");
    }
    std::cout << kProgramHelp;
    return finish_stdout("help", kExitSuccess);
  }
  for (const Command& command : commands()) {
    if (command.spec.name == first) {
      return run_command(command, std::vector<std::string>(args.begin() + 1, args.end()));
    }
  }
  if (first.starts_with("-")) return usage_error("", "unknown option '" + first + "'");
  std::string names;
  for (const Command& command : commands()) {
    names += (names.empty() ? "" : ", ") + std::string(command.spec.name);
  }
  return usage_error("", "unknown command '" + first + "' (commands: " + names + ")");
}

}  // namespace
}  // namespace relaxc::tools

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    return relaxc::tools::relaxc_main(args);
  } catch (const relaxc::InternalError& e) {
    std::cerr << relaxc::render_bug_report("relaxc", e);
    return relaxc::tools::kExitInternalError;
  } catch (const std::exception& e) {
    // Not a user error (those are reported by each command): most likely out of memory.
    std::cerr << "relaxc: error: " << e.what() << "\n";
    return relaxc::tools::kExitInputError;
  }
}
