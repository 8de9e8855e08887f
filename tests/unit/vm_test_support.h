// What the VM tests share: a device in host memory (so that bytecode runs without a
// driver; it counts transfers and waits) and a builder of executables by hand.
#pragma once
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/vm/executable.h"
#include "runtime/vm/vm.h"
#include "tests/support/errors.h"

namespace relaxc::testing {

namespace vm = runtime::vm;

// A device whose memory is host memory and which runs no kernels. Its limits ask the
// storage pool for one allocation per request (pool_block_bytes 0).
class HostMemoryDevice : public runtime::Device {
 public:
  HostMemoryDevice() { limits_.name = "host memory"; }
  const runtime::DeviceLimits& limits() const override { return limits_; }
  runtime::KernelFormat kernel_format() const override { return runtime::KernelFormat::SpirV; }
  runtime::DeviceBuffer allocate(size_t bytes) override {
    ++allocations;
    runtime::DeviceBuffer b{next_id_++, bytes};
    memory_[b.id].assign(bytes, 0xcd);
    return b;
  }
  void release(runtime::DeviceBuffer b) override { memory_.erase(b.id); }
  void upload(runtime::DeviceBuffer dst, size_t offset, const void* src, size_t bytes) override {
    ++uploads;
    std::memcpy(memory_.at(dst.id).data() + dst.offset + offset, src, bytes);
  }
  void download(void* dst, runtime::DeviceBuffer src, size_t offset, size_t bytes) override {
    ++downloads;
    std::memcpy(dst, memory_.at(src.id).data() + src.offset + offset, bytes);
  }
  void copy(runtime::DeviceBuffer dst, size_t dst_offset, runtime::DeviceBuffer src,
            size_t src_offset, size_t bytes) override {
    std::memcpy(memory_.at(dst.id).data() + dst.offset + dst_offset,
                memory_.at(src.id).data() + src.offset + src_offset, bytes);
  }
  runtime::KernelId load_kernel(const runtime::KernelBinary&) override {
    throw runtime::RuntimeError("the host memory device runs no kernels");
  }
  void launch(runtime::KernelId, std::array<uint32_t, 3>, std::span<const runtime::DeviceBuffer>,
              std::span<const int64_t>) override {
    throw runtime::RuntimeError("the host memory device runs no kernels");
  }
  void synchronize() override {}
  runtime::LaunchStats launch_stats() const override { return {}; }
  size_t live_buffers() const { return memory_.size(); }

  int allocations = 0, uploads = 0, downloads = 0;

 private:
  runtime::DeviceLimits limits_;
  std::map<uint64_t, std::vector<uint8_t>> memory_;
  uint64_t next_id_ = 1;
};

inline vm::Arg reg(int64_t r) { return {vm::Arg::Kind::Register, r}; }
inline vm::Arg imm(int64_t v) { return {vm::Arg::Kind::Immediate, v}; }
inline vm::Arg cst(int64_t c) { return {vm::Arg::Kind::Constant, c}; }
inline vm::Arg fn(int64_t f) { return {vm::Arg::Kind::Function, f}; }

// Builds an Executable: functions by name (packed functions added once each), constants,
// instructions appended to the function being written.
class ExecutableBuilder {
 public:
  // A new Bytecode function, exported unless `exported` is false; later instructions go
  // into it. Returns its index.
  int64_t function(const std::string& name, std::vector<std::string> params, int64_t registers,
                   bool exported = true) {
    vm::FunctionEntry f;
    f.kind = vm::FunctionKind::Bytecode;
    f.name = name;
    f.param_names = std::move(params);
    f.num_registers = registers;
    current_ = static_cast<int64_t>(exe.functions.size());
    exe.functions.push_back(std::move(f));
    if (exported) exe.exports.push_back(current_);
    return current_;
  }
  // The index of a function named `name` of `kind` (Packed by default), added when new.
  int64_t entry(const std::string& name, vm::FunctionKind kind = vm::FunctionKind::Packed,
                int64_t index = -1) {
    for (size_t i = 0; i < exe.functions.size(); ++i) {
      if (exe.functions[i].name == name) return static_cast<int64_t>(i);
    }
    vm::FunctionEntry f;
    f.kind = kind;
    f.name = name;
    f.index = index;
    exe.functions.push_back(std::move(f));
    return static_cast<int64_t>(exe.functions.size() - 1);
  }
  int64_t constant(vm::Constant c) {
    exe.constants.push_back(std::move(c));
    return static_cast<int64_t>(exe.constants.size() - 1);
  }
  int64_t string(const std::string& s) {
    vm::Constant c;
    c.kind = vm::Constant::Kind::String;
    c.str = s;
    return constant(std::move(c));
  }
  int64_t shape(std::vector<int64_t> dims) {
    vm::Constant c;
    c.kind = vm::Constant::Kind::Shape;
    c.shape = std::move(dims);
    return constant(std::move(c));
  }
  int64_t dtype(runtime::DType d) {
    vm::Constant c;
    c.kind = vm::Constant::Kind::DataType;
    c.dtype = d;
    return constant(std::move(c));
  }

  // Instructions of the current function; each returns its pc.
  int64_t call(vm::RegIndex dst, const std::string& packed, std::vector<vm::Arg> args) {
    return call_index(dst, entry(packed), std::move(args));
  }
  int64_t call_index(vm::RegIndex dst, int64_t func, std::vector<vm::Arg> args) {
    vm::Instruction in;
    in.opcode = vm::Opcode::Call;
    in.dst = dst;
    in.func = func;
    in.args = std::move(args);
    return add(std::move(in));
  }
  int64_t ret(vm::RegIndex r) {
    vm::Instruction in;
    in.opcode = vm::Opcode::Ret;
    in.reg = r;
    return add(std::move(in));
  }
  int64_t go(int64_t offset) {
    vm::Instruction in;
    in.opcode = vm::Opcode::Goto;
    in.offset = offset;
    return add(std::move(in));
  }
  int64_t branch(vm::RegIndex cond, int64_t false_offset) {
    vm::Instruction in;
    in.opcode = vm::Opcode::If;
    in.reg = cond;
    in.offset = false_offset;
    return add(std::move(in));
  }
  // Sets the false offset of the If at `pc` (once the else branch's place is known).
  void patch_branch(int64_t pc, int64_t target) {
    code()[static_cast<size_t>(pc)].offset = target - pc;
  }
  int64_t next_pc() { return static_cast<int64_t>(code().size()); }

  std::shared_ptr<const vm::Executable> finish() {
    return std::make_shared<const vm::Executable>(exe);
  }

  vm::Executable exe;

 private:
  std::vector<vm::Instruction>& code() { return exe.functions[static_cast<size_t>(current_)].code; }
  int64_t add(vm::Instruction in) {
    code().push_back(std::move(in));
    return next_pc() - 1;
  }
  int64_t current_ = -1;
};

}  // namespace relaxc::testing
