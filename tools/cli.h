// What the relaxc commands share: the parsed command line, the two kinds of error a
// command reports (usage, file), reading the input module and choosing targets.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/target/target.h"
#include "runtime/device.h"

namespace relaxc::tools {

// Exit statuses, documented in the program's help.
inline constexpr int kExitSuccess = 0;
inline constexpr int kExitInputError = 1;  // the module has errors, or a file cannot be read
inline constexpr int kExitUsage = 2;       // the command line is wrong
inline constexpr int kExitInternalError = 70;  // a bug in relaxc (EX_SOFTWARE, sysexits.h)

// A mistake on the command line: reported with a pointer to the help, exit status 2.
struct UsageError {
  std::string message;
};

// An input or output file that cannot be used: exit status 1, with the system's reason.
struct FileError {
  std::string message;
};

struct CommandLine {
  std::string command;                // "build", for messages
  std::string input;                  // a path, or "-" for standard input
  std::optional<std::string> output;  // -o
  std::vector<std::string> passes;    // --passes (opt only)
  std::vector<std::string> targets;   // --target (codegen: one; build: one or more)
  std::optional<std::string> emit;    // --emit (codegen only)
  bool print_after_each = false;      // build
  bool time_passes = false;           // build
  std::set<std::string> disabled_passes;  // build: --disable-pass
  std::string function = "main";      // run: --function
  std::vector<std::string> inputs;    // run: --input, in order
  std::optional<std::string> output_dir;  // run: --output-dir
  std::string device = "auto";        // run: --device
  int64_t warmup = 3;                 // bench: --warmup, calls before measuring
  int64_t repeat = 20;                // bench: --repeat, calls measured
  std::optional<std::string> json;    // bench: --json FILE
  bool verify = false;                // inspect: --verify
  bool report = false;                // build: --report
  std::optional<std::string> report_device;      // build: --report-device (a preset's name)
  std::map<std::string, int64_t> report_shapes;  // build: --report-shape NAME=VALUE
  bool help = false;
};

struct Source {
  std::string name;  // for diagnostics: the path as given, or <stdin>
  std::string text;
};

// The file's text, or standard input's for "-", through runtime::read_input_file (a
// regular file of at most kMaxTextFileBytes): its RuntimeError names the file.
Source read_source(const std::string& input);
// Writes `bytes` to `path` (replacing it), or to standard output for "-"; FileError
// "PATH: cannot write: REASON" when it is a directory, cannot be opened, or the write or
// close fails (a full disk).
void write_file(const std::string& path, std::span<const uint8_t> bytes);
// `text` to -o OUTPUT (write_file), or to standard output, whose failures (a full disk,
// a closed descriptor) the command's caller finds when it flushes it at the end.
void write_output(const CommandLine& cl, const std::string& text);
// Whether `output` names the file `input` (the same path, or another name for it).
bool is_input_file(const std::string& output, const std::string& input);
// UsageError when -o names the input file (the same path, or another name for it).
void check_output_is_not_input(const CommandLine& cl);

// A target string from the command line. Plain "vulkan" (no profile) means the Vulkan
// device present: its limits are read from it; without one, a warning names `command`
// and the desktop profile is used.
Target resolve_target(const std::string& text, std::string_view command);
// The target that compiles for `device` as it is (its limits read from it). On Vulkan,
// SPIR-V for the lower of the device's version and `max_vulkan_version` (11: Vulkan 1.1
// and SPIR-V 1.3, which every Vulkan 1.1 driver runs; 13: Vulkan 1.3, SPIR-V 1.6).
Target device_target(const runtime::Device& device, int max_vulkan_version = 11);

}  // namespace relaxc::tools
