// The executable: what `relaxc build` writes and the VM runs. One versioned file holds
// the functions' bytecode, the constants, the host shape functions, and for each back
// end the kernels with their launch information.
//
// Bytecode is a register machine with four opcodes (Call, Ret, Goto, If). Everything
// else (allocation, shape checks, tuples, kernel launches, packed functions) is a
// function in the table `functions` that Call invokes. A bytecode function's
// parameters arrive in registers 0 .. n-1.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/dtype.h"
#include "runtime/input_file.h"
#include "runtime/vm/int_program.h"

namespace relaxc::runtime::vm {

// "RLXCVM" then two format bytes, then a little-endian uint32 version.
inline constexpr std::array<uint8_t, 8> kExecutableMagic = {'R', 'L', 'X', 'C', 'V', 'M', 0, 1};
// Version 2 added a length and a CRC-32C to each section; version 3 moved the tensor
// constants' bytes into their own section, each aligned to kConstantAlignment; version 4
// added each function's memory plan and version 5 its source ranges.
inline constexpr uint32_t kExecutableVersion = 5;
// The file offset of every tensor constant's bytes is a multiple of this (a cache line,
// and more than any element type needs), so that a memory-mapped file hands out aligned
// views.
inline constexpr uint64_t kConstantAlignment = 64;

using RegIndex = int64_t;
// Call's destination when its result is dropped.
inline constexpr RegIndex kVoidRegister = -1;
// The most registers a bytecode function and int64 slots a kernel function may ask for
// (checked at load, so that a hostile file cannot make the VM allocate without bound).
inline constexpr int64_t kMaxRegisters = int64_t{1} << 20;
inline constexpr int32_t kMaxKernelSlots = 1 << 16;
// The largest shape heap (int64 slots) vm.builtin.alloc_shape_heap makes: also when it
// is reached through a closure, where the load-time bound on its immediate size does
// not apply.
inline constexpr int64_t kMaxShapeHeapSlots = int64_t{1} << 16;

// An argument of Call.
struct Arg {
  enum class Kind : uint8_t {
    Register,   // the value in register `value`
    Immediate,  // the int64 `value` itself
    Constant,   // constants[value]
    Function,   // a reference to functions[value] (a closure without captures)
  };
  Kind kind = Kind::Register;
  int64_t value = 0;
  bool operator==(const Arg&) const = default;
};

enum class Opcode : uint8_t { Call = 1, Ret = 2, Goto = 3, If = 4 };

struct Instruction {
  Opcode opcode = Opcode::Ret;
  // Call: dst = functions[func](args...); dst may be kVoidRegister.
  RegIndex dst = kVoidRegister;
  int64_t func = 0;
  std::vector<Arg> args;
  // Ret: the register returned. If: the register of the condition (a boolean or
  // integer PrimValue, or a tensor of one element, read from the device).
  RegIndex reg = 0;
  // Goto: pc += offset. If: pc += 1 when the condition is true, pc += offset when false.
  int64_t offset = 0;
  bool operator==(const Instruction&) const = default;
};

enum class FunctionKind : uint8_t {
  Packed,    // a host function found by name at run time: a builtin or one registered
  Bytecode,  // a Relax function
  Kernel,    // a TensorIR function: backends[b].kernel_funcs[index]
  Host,      // a shape function: host_funcs[index]
};

// Where a bytecode function's instructions from `first_instruction` on come from (up to
// the next range's first), for run-time errors and `relaxc inspect`.
struct SourceRange {
  int64_t first_instruction = 0;
  std::string location;  // "model.py:12:9", "model.onnx, node 'split' (Split, opset 13)"
  bool operator==(const SourceRange&) const = default;
};

struct FunctionEntry {
  FunctionKind kind = FunctionKind::Packed;
  std::string name;
  // Bytecode only.
  std::vector<std::string> param_names;
  int64_t num_registers = 0;
  std::vector<Instruction> code;
  // Bytecode only: what static-plan-block-memory planned (its storages and peaks), one
  // line each, for `relaxc inspect`; the VM does not read it.
  std::vector<std::string> memory_plan;
  // Bytecode only: the source ranges, by increasing first instruction (none before the
  // first range, nor in a range with an empty location).
  std::vector<SourceRange> sources;
  // Kernel and Host: the index into their table.
  int64_t index = -1;
  bool operator==(const FunctionEntry&) const = default;
};

// The bytes of a tensor constant: a view that keeps what it views alive. The compiler's
// constants share the IR's HostTensor storage; a loaded executable's view the
// memory-mapped file (or one copy of the data section when the bytes were handed in
// without an owner). Copying is cheap; equality compares the bytes.
class ConstantBytes {
 public:
  ConstantBytes() = default;
  explicit ConstantBytes(std::vector<uint8_t> bytes);
  ConstantBytes(std::span<const uint8_t> view, std::shared_ptr<const void> owner)
      : owner_(std::move(owner)), view_(view) {}

  std::span<const uint8_t> span() const { return view_; }
  const uint8_t* data() const { return view_.data(); }
  size_t size() const { return view_.size(); }
  bool operator==(const ConstantBytes& o) const { return std::ranges::equal(view_, o.view_); }

 private:
  std::shared_ptr<const void> owner_;
  std::span<const uint8_t> view_;
};

// A constant: a tensor, a shape, a string, a PrimValue (int or float, with its dtype),
// or a data type.
struct Constant {
  enum class Kind : uint8_t { Tensor, Shape, String, Int, Float, DataType };
  Kind kind = Kind::Int;
  DType dtype = DType::Int(64);  // Tensor, Int, Float: the element type; DataType: the value
  std::vector<int64_t> shape;    // Tensor: its shape; Shape: its dimensions
  ConstantBytes bytes;           // Tensor: row-major element bytes
  std::string str;               // String
  int64_t int_value = 0;         // Int
  double float_value = 0.0;      // Float
  bool operator==(const Constant&) const = default;
};

// A shape function (vm_shape_lower's host PrimFunc): called with the shape heap (an
// int64 host tensor), it runs heap[slot] = program(heap) for each store in order.
struct HostFunc {
  std::string name;
  std::vector<std::pair<int64_t, IntProgram>> stores;
  bool operator==(const HostFunc&) const = default;
};

// One dimension of a kernel function's buffer parameter. When the call binds it, a
// dimension that is a plain shape variable seen first here stores the actual extent in
// slot `defines_slot`; then every dimension is checked: `extent` (evaluated over the
// slots) must equal the actual extent.
struct KernelDim {
  int32_t defines_slot = -1;  // -1: defines nothing
  IntProgram extent;
  bool operator==(const KernelDim&) const = default;
};

struct KernelParam {
  std::string name;  // the buffer's name, for messages
  DType dtype;
  std::vector<KernelDim> shape;
  bool operator==(const KernelParam&) const = default;
};

// A global intermediate buffer that the host allocates for the duration of a call.
struct KernelWorkspace {
  std::string name;
  IntProgram bytes;
  bool operator==(const KernelWorkspace&) const = default;
};

struct KernelLaunchInfo {
  int64_t kernel = 0;                // index into Backend::kernels
  std::vector<int32_t> buffer_args;  // indices into params then workspaces
  std::vector<IntProgram> scalar_args;
  std::array<IntProgram, 3> grid;    // blockIdx.x/y/z extents
  bool operator==(const KernelLaunchInfo&) const = default;
};

// A TensorIR function compiled for one back end (a tir::LoweredFunc). A call passes
// the buffer arguments (tensors on the device) in `params` order, then, when
// `scalar_param_slots` is not empty, one Shape holding the scalar parameters (call_tir's
// tir_vars), each stored in its slot. Shape variables live in `num_slots` int64 slots.
struct KernelFunc {
  std::string name;
  std::vector<KernelParam> params;
  std::vector<int32_t> scalar_param_slots;
  int32_t num_slots = 0;
  std::vector<KernelWorkspace> workspaces;
  std::vector<KernelLaunchInfo> launches;  // in the order they run
  bool operator==(const KernelFunc&) const = default;
};

// The kernels of one back end. Every backend of an executable has the same kernel
// functions in the same order (FunctionEntry::index is valid in each); their launch
// information may differ (schedules follow each target's limits).
struct Backend {
  KernelFormat format = KernelFormat::SpirV;
  std::string target;  // "vulkan -profile=desktop", "cuda -arch=sm_90"
  std::vector<KernelFunc> kernel_funcs;
  std::vector<KernelBinary> kernels;
  bool operator==(const Backend&) const = default;
};

struct Executable {
  std::vector<FunctionEntry> functions;
  std::vector<Constant> constants;
  std::vector<HostFunc> host_funcs;
  std::vector<Backend> backends;
  // The functions a caller may call by name (the module's public Relax functions):
  // indices into `functions`, each of kind Bytecode.
  std::vector<int64_t> exports;

  // The index of the exported function `name`, or -1.
  int64_t find_export(const std::string& name) const;
  bool operator==(const Executable&) const = default;
};

// Checks everything an executable refers to: indices of functions, constants,
// kernels, host functions and registers in range, jump targets forward and inside their
// function, alloc_shape_heap sizes immediate and no more than the function's immediates
// and the host functions' stores can name, kernel code that passes check_kernel_code,
// int programs valid, dtypes known, kernel ABIs consistent (launch arguments against
// the kernel binary's buffers and scalars), SPIR-V a whole number of words. Throws a
// RuntimeError naming the function, the instruction and what is wrong. load() runs it.
void validate_executable(const Executable& exe);

// The location instruction `pc` of `f` comes from, or null where none is known.
const std::string* source_location(const FunctionEntry& f, int64_t pc);

// The file: magic, version, then the sections in the order of Executable's fields, each
// with its length and CRC-32C, then the data section with the tensor constants' bytes
// (each at a file offset that is a multiple of kConstantAlignment); integers
// little-endian, strings and arrays with a uint64 length.
std::vector<uint8_t> save_executable(const Executable& exe);
// Whether load_executable checks the sections' checksums. Ignore is for fuzzers, which
// mutate bytes and would otherwise only ever reach the checksum check; everything else
// is checked either way.
enum class Checksums { Verify, Ignore };
// Reads what save_executable wrote. Everything read is checked before it is used: a
// damaged file is refused by its checksums ("executable: damaged: section 'BKND' (bytes
// 412 to 9012) has checksum 0x1a2b3c4d, the file says 0x5e6f7a8b"); a truncated or
// hostile one throws a RuntimeError ("executable: truncated at byte 1234 while reading
// the code of function 'main'", "executable: version 7, this runtime reads version 2"),
// never crashes, never allocates more than the file's size justifies. Then
// validate_executable runs. The tensor constants' bytes are copied once (the caller's
// `bytes` need not outlive the result).
Executable load_executable(std::span<const uint8_t> bytes, Checksums checksums = Checksums::Verify);
// The same, for bytes that `owner` keeps alive (a memory-mapped file): the tensor
// constants view them, without a copy.
Executable load_executable(std::span<const uint8_t> bytes, std::shared_ptr<const void> owner,
                           Checksums checksums = Checksums::Verify);

void save_executable_file(const Executable& exe, const std::string& path);
// map_input_file (runtime/input_file.h: a regular file is memory-mapped, "-" is
// standard input), then load_executable with the tensor constants viewing the mapping;
// a RuntimeError names the path ("executable file 'm.rxe': truncated at byte ...").
Executable load_executable_file(const std::string& path);
// load_executable with its errors naming `name` as load_executable_file's do: for a
// file already mapped (`relaxc run` maps a file before it knows whether it is an
// executable).
Executable load_executable_from(std::shared_ptr<const InputBytes> file, const std::string& name);

// The executable as text, for `relaxc inspect`: the exports, each function with its
// instructions (`%3 = call vm.builtin.alloc_tensor(%2, i0, %1, c4)`), the constants,
// the host functions (`heap[2] = s0 * s1`), each backend's kernel functions (params,
// dims, workspaces, launches with grid and scalar expressions) and kernels (entry
// point, format, block size, shared memory, code size).
std::string executable_to_text(const Executable& exe);

}  // namespace relaxc::runtime::vm
