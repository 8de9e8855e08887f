// The VM's state behind VirtualMachine (internal to runtime/vm): the executable, the
// device and its pools, what is resolved or uploaded once per VM (packed functions,
// constants, loaded kernels), and the interpreter's entry points, which live in
// interpreter.cc (bytecode, calls, If) and kernel_call.cc (kernel and host functions).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "runtime/vm/kernel_launch.h"
#include "runtime/vm/vm.h"

namespace relaxc::runtime::vm {

// Nested calls deeper than this are a RuntimeError, long before the host's stack ends.
inline constexpr int kMaxCallDepth = 1000;

// A RuntimeError on its way out of nested bytecode frames: each frame it leaves adds
// "in f, instruction 3" so that the caller sees where it happened.
class CallError : public RuntimeError {
 public:
  CallError(std::string message, std::string frame)
      : RuntimeError(message), message_(std::move(message)), frames_{std::move(frame)} {}
  void add_frame(std::string frame) { frames_.push_back(std::move(frame)); }
  // "in main, instruction 7: in f, instruction 2: <message>", long stacks shortened.
  std::string full_message() const;

 private:
  std::string message_;
  std::vector<std::string> frames_;  // innermost first
};

struct VirtualMachine::Impl {
  Impl(VirtualMachine& self, std::shared_ptr<const Executable> exe, Device& device);

  // Calls functions[func] whatever its kind (Packed, Bytecode, Kernel, Host). `args`
  // need only live for the call.
  Value call_function(int64_t func, std::span<const Value> args);
  // Runs a Bytecode function in a new frame.
  Value run_bytecode(int64_t func, std::span<const Value> args);
  // functions[func] as a closure without captures (Arg::Kind::Function), made once.
  const Value& function_value(int64_t func);
  // constants[index] as a Value, made (and uploaded) on first use.
  const Value& constant(int64_t index);
  // The truth of an If condition: an Int, or a tensor of one element (read from the device).
  bool condition(const Value& value);
  // Launches backend().kernel_funcs[entry.index] with `args` (buffers, then the scalars).
  void launch_kernel(const FunctionEntry& entry, std::span<const Value> args);
  // Runs host_funcs[entry.index] on the shape heap args[0].
  void run_host_func(const FunctionEntry& entry, std::span<const Value> args);
  // Runs `body` as a call from the embedding program: its errors become one RuntimeError
  // with the frames they passed; nested calls (a packed function calling back) pass them on.
  template <typename Body>
  Value from_outside(Body&& body);
  // A host tensor (also inside tuples) copied to the device.
  Value onto_device(const Value& value);

  VirtualMachine& self;
  std::shared_ptr<const Executable> exe;
  Device& device;
  const Backend* backend = nullptr;  // null when the executable has no kernels
  std::shared_ptr<StoragePool> device_pool;
  std::shared_ptr<StoragePool> host_pool;
  std::vector<const PackedFunc*> packed;  // by function index, resolved on first call
  std::vector<std::optional<Value>> constants;
  std::vector<std::optional<KernelId>> kernel_ids;  // by backend kernel index
  std::vector<std::optional<Value>> function_values;  // by function index
  // The vectors that bytecode frames hold their registers and call arguments in, kept
  // with their capacity between frames (interpreter.cc's FrameVector), so that calls
  // allocate nothing once warm. `frame_vectors_made` bounds how many there are, and
  // spare_frame_vectors' capacity is kept at least that, so giving one back never
  // allocates.
  std::vector<std::vector<Value>> spare_frame_vectors;
  size_t frame_vectors_made = 0;
  // The vectors of a kernel call (kernel_call.cc), reused.
  std::vector<KernelBufferArg> kernel_buffer_args;
  KernelLaunchScratch launch_scratch;
  std::ostream* print_stream = nullptr;
  int depth = 0;  // nested bytecode frames
  uint64_t step_limit = 0;  // instructions per call from outside; 0: no limit
  uint64_t steps = 0;       // instructions run by the current call from outside
};

template <typename Body>
Value VirtualMachine::Impl::from_outside(Body&& body) {
  if (depth > 0) return body();
  steps = 0;
  try {
    return body();
  } catch (const CallError& e) {
    runtime_error() << e.full_message();
  }
}

}  // namespace relaxc::runtime::vm
