// libFuzzer harness for the executable loader and the VM: load from bytes; when the
// file loads, print it, save it again, and call each exported function with small
// inputs on a device in host memory that checks each launch but runs no kernel.
//
// The input is loaded with Checksums::Ignore: mutated bytes would otherwise only ever
// reach the checksum check, never the structural checks and the VM behind it.
//
// The oracle: an input either loads or throws a RuntimeError starting "executable: ";
// what loads saves to bytes that load with their checksums verified and save the same;
// a call, under a step limit, returns or throws a RuntimeError. Anything else (another
// exception, a sanitizer report, a hang past libFuzzer's -timeout, memory past its
// -rss_limit_mb) is a crash.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/runtime_error.h"
#include "runtime/vm/builtin_abi.h"
#include "runtime/vm/executable.h"
#include "runtime/vm/vm.h"

namespace relaxc::runtime::vm {
namespace {

// The instructions one exported call may execute (callees and closures included).
constexpr uint64_t kMaxSteps = 100000;
// The memory the fuzz device has: a larger allocation fails as a full device would.
constexpr size_t kDeviceMemoryBytes = size_t{64} << 20;
// The elements of one input tensor, at most.
constexpr int64_t kMaxInputElements = 1 << 16;
// The extent given to a dimension that the bytecode does not pin to a constant.
constexpr int64_t kFreeDimExtent = 2;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_executable: %s\n", what.c_str());
  std::abort();
}

// A device in host memory that keeps each loaded kernel's ABI and checks every launch
// against it (buffer count, live buffers, scalar count), but runs nothing: the
// harness fuzzes the VM, not the kernels.
class CheckingHostDevice : public Device {
 public:
  CheckingHostDevice() { limits_.name = "fuzz host memory"; }
  const DeviceLimits& limits() const override { return limits_; }
  KernelFormat kernel_format() const override { return KernelFormat::SpirV; }

  DeviceBuffer allocate(size_t bytes) override {
    if (bytes > kDeviceMemoryBytes - used_) {
      runtime_error() << "out of device memory: " << bytes << " bytes asked, "
                      << kDeviceMemoryBytes - used_ << " free";
    }
    used_ += bytes;
    DeviceBuffer buffer{next_id_++, bytes};
    memory_[buffer.id].assign(bytes, 0xcd);
    return buffer;
  }
  void release(DeviceBuffer buffer) override {
    used_ -= memory(buffer).size();
    memory_.erase(buffer.id);
  }
  void upload(DeviceBuffer dst, size_t offset, const void* src, size_t bytes) override {
    std::memcpy(range(dst, offset, bytes), src, bytes);
  }
  void download(void* dst, DeviceBuffer src, size_t offset, size_t bytes) override {
    std::memcpy(dst, range(src, offset, bytes), bytes);
  }
  void copy(DeviceBuffer dst, size_t dst_offset, DeviceBuffer src, size_t src_offset,
            size_t bytes) override {
    std::memmove(range(dst, dst_offset, bytes), range(src, src_offset, bytes), bytes);
  }
  KernelId load_kernel(const KernelBinary& kernel) override {
    kernels_.push_back(kernel);
    return static_cast<KernelId>(kernels_.size() - 1);
  }
  void launch(KernelId id, std::array<uint32_t, 3>, std::span<const DeviceBuffer> buffers,
              std::span<const int64_t> scalars) override {
    if (id >= kernels_.size()) fail("launch of kernel " + std::to_string(id) + ", never loaded");
    const KernelBinary& kernel = kernels_[id];
    if (buffers.size() != static_cast<size_t>(kernel.num_buffers) ||
        scalars.size() != kernel.scalars.size()) {
      runtime_error() << "kernel '" << kernel.name << "' takes " << kernel.num_buffers
                      << " buffers and " << kernel.scalars.size() << " scalars, got "
                      << buffers.size() << " and " << scalars.size();
    }
    for (const DeviceBuffer& buffer : buffers) (void)memory(buffer);
  }
  void synchronize() override {}
  LaunchStats launch_stats() const override { return {}; }

 private:
  // A buffer the VM passes must be live: anything else is a bug in the VM.
  std::vector<uint8_t>& memory(DeviceBuffer buffer) {
    auto it = memory_.find(buffer.id);
    if (it == memory_.end())
      fail("use of device buffer " + std::to_string(buffer.id) + ", not live");
    return it->second;
  }
  uint8_t* range(DeviceBuffer buffer, size_t offset, size_t bytes) {
    std::vector<uint8_t>& m = memory(buffer);
    if (offset > buffer.bytes || bytes > buffer.bytes - offset) {
      fail("access of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
           " in a range of " + std::to_string(buffer.bytes) + " bytes");
    }
    offset += buffer.offset;
    if (offset > m.size() || bytes > m.size() - offset) {
      fail("access of " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
           " in a buffer of " + std::to_string(m.size()));
    }
    return m.data() + offset;
  }

  DeviceLimits limits_;
  std::map<uint64_t, std::vector<uint8_t>> memory_;
  std::vector<KernelBinary> kernels_;
  uint64_t next_id_ = 1;
  size_t used_ = 0;
};

const FunctionEntry* callee(const Executable& exe, const Instruction& in) {
  if (in.opcode != Opcode::Call || in.func < 0 ||
      static_cast<size_t>(in.func) >= exe.functions.size()) {
    return nullptr;
  }
  return &exe.functions[static_cast<size_t>(in.func)];
}

bool calls_builtin(const FunctionEntry* f, const char* name) {
  return f != nullptr && f->kind == FunctionKind::Packed && f->name == name;
}

bool is_register(const Arg& a, int64_t r) { return a.kind == Arg::Kind::Register && a.value == r; }

// An input for parameter `param` of `f` that passes its checks where the bytecode
// states them as the compiler writes them (check_tensor_info for the rank and dtype,
// match_shape with constant dimensions); dimensions left free get kFreeDimExtent. A
// parameter that is not checked as a tensor gets a small float32 vector.
Value input_for(VirtualMachine& vm, const Executable& exe, const FunctionEntry& f, int64_t param) {
  DType dtype = DType::Float(32);
  std::vector<int64_t> shape = {kFreeDimExtent};
  for (const Instruction& in : f.code) {
    const FunctionEntry* target = callee(exe, in);
    if (in.args.empty() || !is_register(in.args[0], param)) continue;
    if (calls_builtin(target, builtin::kCheckTensorInfo) && in.args.size() >= 3 &&
        in.args[1].kind == Arg::Kind::Immediate && in.args[1].value >= 0 && in.args[1].value <= 4) {
      shape.assign(static_cast<size_t>(in.args[1].value), kFreeDimExtent);
      const Arg& d = in.args[2];
      if (d.kind == Arg::Kind::Constant && d.value >= 0 &&
          static_cast<size_t>(d.value) < exe.constants.size() &&
          exe.constants[static_cast<size_t>(d.value)].kind == Constant::Kind::DataType) {
        dtype = exe.constants[static_cast<size_t>(d.value)].dtype;
      }
    } else if (calls_builtin(target, builtin::kMatchShape) && in.args.size() >= 3 &&
               in.args[2].kind == Arg::Kind::Immediate &&
               in.args[2].value == static_cast<int64_t>(shape.size())) {
      for (size_t d = 0; d < shape.size() && 4 + 2 * d < in.args.size(); ++d) {
        const Arg& code = in.args[3 + 2 * d];
        const Arg& value = in.args[4 + 2 * d];
        if (code.kind == Arg::Kind::Immediate && code.value == builtin::kAssertEqualToImm &&
            value.kind == Arg::Kind::Immediate && value.value >= 0 && value.value <= 1024) {
          shape[d] = value.value;
        }
      }
    }
  }
  int64_t elements = 1;
  for (int64_t extent : shape)
    elements = std::min(elements * std::max<int64_t>(extent, 1), kMaxInputElements + 1);
  if (elements > kMaxInputElements || dtype.bytes() == 0 || dtype.bytes() > 8) {
    return Value::integer(1);
  }
  std::vector<uint8_t> data(static_cast<size_t>(elements) * static_cast<size_t>(dtype.bytes()));
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 1);
  return Value::tensor(vm.host_tensor(dtype, shape, data.data()));
}

void call_exports(const std::shared_ptr<const Executable>& exe) {
  CheckingHostDevice device;
  std::optional<VirtualMachine> vm;
  try {
    vm.emplace(exe, device);
  } catch (const RuntimeError&) {
    return;  // no backend for SPIR-V
  }
  vm->set_step_limit(kMaxSteps);
  for (int64_t index : exe->exports) {
    const FunctionEntry& f = exe->functions[static_cast<size_t>(index)];
    std::vector<Value> args;
    try {
      for (size_t p = 0; p < f.param_names.size(); ++p) {
        args.push_back(input_for(*vm, *exe, f, static_cast<int64_t>(p)));
      }
      (void)vm->call(f.name, std::move(args));
    } catch (const RuntimeError&) {
    }
  }
}

}  // namespace
}  // namespace relaxc::runtime::vm

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace relaxc::runtime;
  using namespace relaxc::runtime::vm;
  std::span<const uint8_t> bytes(data, size);
  std::shared_ptr<const Executable> exe;
  try {
    exe = std::make_shared<const Executable>(load_executable(bytes, Checksums::Ignore));
  } catch (const RuntimeError& e) {
    if (std::string(e.what()).rfind("executable: ", 0) != 0) {
      fail(std::string("a load error that does not start with 'executable: ': ") + e.what());
    }
    return 0;
  }
  (void)executable_to_text(*exe);
  // Compared as bytes: a float constant may be a NaN, unequal to itself.
  std::vector<uint8_t> saved = save_executable(*exe);
  if (save_executable(load_executable(saved)) != saved) fail("saving is not stable");
  call_exports(exe);
  return 0;
}
