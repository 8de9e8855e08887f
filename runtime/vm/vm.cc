// The packed-function registry and the VM's embedding API (construction, calls by name,
// tensors to and from host memory). The interpreter is in interpreter.cc.
#include "runtime/vm/vm.h"

#include <cstring>
#include <deque>
#include <iostream>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "runtime/vm/builtins.h"
#include "runtime/vm/vm_impl.h"

namespace relaxc::runtime::vm {
namespace {

// Functions are never freed: a VM keeps the pointer it resolved even when a name is
// registered again, and a registration replaces only what later lookups find.
struct Registry {
  std::mutex mutex;
  std::deque<PackedFunc> funcs;
  std::unordered_map<std::string, const PackedFunc*> by_name;

  Registry() {
    PackedFuncTable table;
    add_builtins(table);
    add_shape_builtins(table);
    add_print_builtin(table);
    add_data_dependent_builtins(table);
    for (auto& [name, func] : table) by_name[name] = &funcs.emplace_back(std::move(func));
  }
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: lookups may outlive statics
  return *r;
}

// The frames kept at each end of a long stack in messages.
constexpr size_t kFramesShown = 4;

}  // namespace

void register_packed_func(const std::string& name, PackedFunc func) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.by_name[name] = &r.funcs.emplace_back(std::move(func));
}

const PackedFunc* find_packed_func(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.by_name.find(name);
  return it == r.by_name.end() ? nullptr : it->second;
}

std::string CallError::full_message() const {
  std::string out;
  size_t n = frames_.size();
  for (size_t k = 0; k < n; ++k) {
    size_t i = n - 1 - k;  // outermost first
    if (n > 2 * kFramesShown && k == kFramesShown) {
      out += "... (" + std::to_string(n - 2 * kFramesShown) + " more calls) ...: ";
      k = n - kFramesShown - 1;
      continue;
    }
    out += frames_[i] + ": ";
  }
  return out + message_;
}

VirtualMachine::Impl::Impl(VirtualMachine& self, std::shared_ptr<const Executable> exe_in,
                           Device& device_in)
    : self(self), exe(std::move(exe_in)), device(device_in) {
  if (exe == nullptr) runtime_error() << "VirtualMachine: no executable";
  // The interpreter trusts the indices it runs: an executable made in memory (not read
  // by load_executable, which validates) is checked here.
  validate_executable(*exe);
  KernelFormat format = device.kernel_format();
  for (const Backend& b : exe->backends) {
    if (b.format == format) {
      backend = &b;
      break;
    }
  }
  if (backend == nullptr && !exe->backends.empty()) {
    std::string formats;
    for (const Backend& b : exe->backends) {
      formats += (formats.empty() ? "" : " and ") + std::string(kernel_format_name(b.format));
    }
    runtime_error() << "the executable has kernels for " << formats << "; device '"
                    << device.limits().name << "' runs " << kernel_format_name(format);
  }
  device_pool = StoragePool::create(&device);
  host_pool = StoragePool::create(nullptr);
  packed.assign(exe->functions.size(), nullptr);
  function_values.resize(exe->functions.size());
  constants.resize(exe->constants.size());
  if (backend != nullptr) kernel_ids.resize(backend->kernels.size());
}

Value VirtualMachine::Impl::onto_device(const Value& value) {
  if (value.kind() == Value::Kind::Tensor && value.as_tensor().on_host()) {
    return Value::tensor(self.to_device(value.as_tensor()));
  }
  if (value.kind() == Value::Kind::Tuple) {
    std::vector<Value> fields;
    for (const Value& f : value.as_tuple()) fields.push_back(onto_device(f));
    return Value::tuple(std::move(fields));
  }
  return value;
}

VirtualMachine::VirtualMachine(std::shared_ptr<const Executable> exe, Device& device)
    : impl_(std::make_unique<Impl>(*this, std::move(exe), device)) {}

VirtualMachine::~VirtualMachine() = default;

Value VirtualMachine::call(const std::string& name, std::vector<Value> args) {
  int64_t index = impl_->exe->find_export(name);
  if (index < 0) {
    std::string names;
    for (int64_t e : impl_->exe->exports) {
      if (e >= 0 && static_cast<size_t>(e) < impl_->exe->functions.size()) {
        names += (names.empty() ? "" : ", ") + impl_->exe->functions[e].name;
      }
    }
    runtime_error() << "the executable exports no function '" << name
                    << "' (it exports: " << (names.empty() ? "nothing" : names) << ")";
  }
  return impl_->from_outside([&] {
    for (Value& a : args) a = impl_->onto_device(a);
    return impl_->call_function(index, args);
  });
}

Value VirtualMachine::invoke(const Value& closure, std::vector<Value> args) {
  return impl_->from_outside([&] {
    const Closure& c = closure.as_closure();
    std::vector<Value> all = c.captures;
    for (Value& a : args) all.push_back(impl_->onto_device(a));
    return impl_->call_function(c.func, all);
  });
}

Tensor VirtualMachine::empty(DType dtype, std::vector<int64_t> shape) {
  size_t bytes = checked_tensor_bytes(dtype, shape, "empty");
  Tensor t;
  t.storage = impl_->device_pool->allocate(bytes, "a tensor");
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}

Tensor VirtualMachine::from_host(DType dtype, std::vector<int64_t> shape, const void* data) {
  Tensor t = empty(dtype, std::move(shape));
  copy_from_host(t, data);
  return t;
}

Tensor VirtualMachine::host_tensor(DType dtype, std::vector<int64_t> shape, const void* data) {
  size_t bytes = checked_tensor_bytes(dtype, shape, "host_tensor");
  Tensor t;
  t.storage = impl_->host_pool->allocate(bytes, "a host tensor");
  t.dtype = dtype;
  t.shape = std::move(shape);
  if (bytes > 0) std::memcpy(t.storage->host.data(), data, bytes);
  return t;
}

void VirtualMachine::copy_from_host(const Tensor& dst, const void* data) {
  size_t bytes = checked_tensor_bytes(dst.dtype, dst.shape, "copy_from_host");
  if (bytes == 0) return;
  if (dst.storage == nullptr || dst.byte_offset < 0 ||
      static_cast<size_t>(dst.byte_offset) + bytes > dst.storage->bytes) {
    runtime_error() << "copy_from_host: the tensor of shape " << shape_text(dst.shape)
                    << " does not lie inside its storage";
  }
  if (dst.on_host()) {
    std::memcpy(dst.storage->host.data() + dst.byte_offset, data, bytes);
  } else {
    dst.storage->device->upload(dst.storage->buffer, static_cast<size_t>(dst.byte_offset), data,
                                bytes);
  }
}

std::vector<uint8_t> VirtualMachine::to_host(const Tensor& tensor) {
  size_t bytes = checked_tensor_bytes(tensor.dtype, tensor.shape, "to_host");
  std::vector<uint8_t> out(bytes);
  if (bytes == 0) return out;
  if (tensor.storage == nullptr || tensor.byte_offset < 0 ||
      static_cast<size_t>(tensor.byte_offset) + bytes > tensor.storage->bytes) {
    runtime_error() << "to_host: the tensor of shape " << shape_text(tensor.shape)
                    << " does not lie inside its storage";
  }
  if (tensor.on_host()) {
    std::memcpy(out.data(), tensor.storage->host.data() + tensor.byte_offset, bytes);
  } else {
    tensor.storage->device->download(out.data(), tensor.storage->buffer,
                                     static_cast<size_t>(tensor.byte_offset), bytes);
  }
  return out;
}

Tensor VirtualMachine::to_device(const Tensor& tensor) {
  if (!tensor.on_host() && tensor.storage->device == &impl_->device) return tensor;
  std::vector<uint8_t> bytes = to_host(tensor);
  return from_host(tensor.dtype, tensor.shape, bytes.data());
}

void VirtualMachine::set_step_limit(uint64_t steps) { impl_->step_limit = steps; }

void VirtualMachine::set_print_stream(std::ostream* stream) { impl_->print_stream = stream; }

std::ostream& VirtualMachine::print_stream() {
  return impl_->print_stream != nullptr ? *impl_->print_stream : std::cout;
}

Device& VirtualMachine::device() { return impl_->device; }
StoragePool& VirtualMachine::device_pool() { return *impl_->device_pool; }
StoragePool& VirtualMachine::host_pool() { return *impl_->host_pool; }
const Executable& VirtualMachine::executable() const { return *impl_->exe; }

const Backend& VirtualMachine::backend() const {
  if (impl_->backend == nullptr) runtime_error() << "the executable has no kernels";
  return *impl_->backend;
}

}  // namespace relaxc::runtime::vm
