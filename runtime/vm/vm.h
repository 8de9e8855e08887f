// The Relax virtual machine and its embedding API: load an executable, choose a
// device, make tensors from host memory, call a function by name, read the results.
//
//   auto exe = std::make_shared<const Executable>(load_executable_file("model.rxe"));
//   std::unique_ptr<Device> device = open_device("vulkan");
//   VirtualMachine vm(exe, *device);
//   Tensor x = vm.from_host(DType::Float(32), {n, 64}, data);
//   Value y = vm.call("main", {Value::tensor(x)});
//   std::vector<uint8_t> bytes = vm.to_host(y.as_tensor());
//
// Kernels are launched asynchronously on the device's stream; the VM waits only where
// the host reads device data: an If condition held in a tensor, to_host(), a packed
// function that reads a tensor.
//
// Threads: a VirtualMachine is used by one thread at a time. Several VMs may run on
// several threads at once, sharing one Executable and one Device (whose operations are
// locked; a VM that reads device data then also waits for the others' earlier work) or
// each on a device of its own. Each VM has its own registers, shape heap and pools.
#pragma once
#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/vm/executable.h"
#include "runtime/vm/storage_pool.h"
#include "runtime/vm/value.h"

namespace relaxc::runtime::vm {

class VirtualMachine;

// A host function that bytecode reaches through Call (a FunctionEntry of kind Packed):
// the builtins ("vm.builtin.alloc_tensor", ...) and functions registered by an
// embedding program for R.call_packed / R.call_dps_packed. It gets the VM (its device,
// pool, to_host) and the arguments; a DPS function writes into its last arguments.
// It reports bad arguments by throwing RuntimeError.
using PackedFunc = std::function<Value(VirtualMachine& vm, std::span<const Value> args)>;

// The process-wide registry. Registering a name again replaces the function. The
// builtins are always registered.
void register_packed_func(const std::string& name, PackedFunc func);
// The function named `name`, or nullptr.
const PackedFunc* find_packed_func(const std::string& name);

class VirtualMachine {
 public:
  // Runs `exe` on `device` with the backend whose kernel format the device runs. A
  // RuntimeError when there is none ("the executable has kernels for SPIR-V; device
  // 'NVIDIA H100' runs PTX"). `device` must outlive the VM and every tensor it made.
  VirtualMachine(std::shared_ptr<const Executable> exe, Device& device);
  ~VirtualMachine();
  VirtualMachine(const VirtualMachine&) = delete;
  VirtualMachine& operator=(const VirtualMachine&) = delete;

  // Calls the exported function `name`. Host tensors among the arguments (also inside
  // tuples) are copied to the device first. A failure (a shape check, a missing packed
  // function, a device error) throws a RuntimeError that names the function and the
  // place; the VM stays usable for the next call.
  Value call(const std::string& name, std::vector<Value> args);
  // Calls a closure value (R.invoke_closure; also for packed functions that call back).
  Value invoke(const Value& closure, std::vector<Value> args);

  // A tensor on the device, from the pool, contents undefined.
  Tensor empty(DType dtype, std::vector<int64_t> shape);
  // A tensor on the device holding a copy of `data` (row-major, num_elements * bytes).
  Tensor from_host(DType dtype, std::vector<int64_t> shape, const void* data);
  // A tensor in host memory holding a copy of `data`.
  Tensor host_tensor(DType dtype, std::vector<int64_t> shape, const void* data);
  // Overwrites the contents of `dst` (on the device or the host) with `data`: how a
  // destination-passing packed function writes its outputs. Ordered after the work
  // already submitted.
  void copy_from_host(const Tensor& dst, const void* data);
  // The contents of `tensor` (waiting for the work that writes it when on the device).
  std::vector<uint8_t> to_host(const Tensor& tensor);
  // `tensor` on the device (itself when it is there already).
  Tensor to_device(const Tensor& tensor);

  // The most bytecode instructions one call from outside (call, invoke) may run, its
  // nested calls included; beyond it the call fails ("the step limit of 1000000
  // instructions is reached"). 0, the default, is no limit: validated bytecode only
  // jumps forward and calls nest at most 1000 deep, so every call ends, but a recursive
  // function may take exponential time; a fuzzer or a service running untrusted
  // programs sets a limit.
  void set_step_limit(uint64_t steps);

  // Where vm.builtin.print writes; std::cout unless set.
  void set_print_stream(std::ostream* stream);
  std::ostream& print_stream();

  Device& device();
  StoragePool& device_pool();
  StoragePool& host_pool();  // the shape heap and host tensors
  const Executable& executable() const;
  const Backend& backend() const;  // the one this device runs

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace relaxc::runtime::vm
