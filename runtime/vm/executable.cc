// The executable's checks: every index, register, jump target, int program, dtype and
// kernel ABI that the VM will trust is verified once, when the executable is loaded.
#include "runtime/vm/executable.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "runtime/kernel_checks.h"
#include "runtime/vm/builtin_abi.h"

namespace relaxc::runtime::vm {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// "1 register", "6 registers".
std::string count_of(size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

const char* opcode_name(Opcode op) {
  switch (op) {
    case Opcode::Call:
      return "call";
    case Opcode::Ret:
      return "ret";
    case Opcode::Goto:
      return "goto";
    case Opcode::If:
      return "if";
  }
  return "unknown";
}

bool valid_kernel_format(KernelFormat f) {
  return f == KernelFormat::SpirV || f == KernelFormat::Ptx;
}

// Whether `index` lies in [0, size).
bool in_range(int64_t index, size_t size) {
  return index >= 0 && static_cast<uint64_t>(index) < size;
}

// Throws "executable: <where>: <what>".
[[noreturn]] void fail(const std::string& where, const std::string& what) {
  runtime_error() << "executable: " << where << ": " << what;
}

class Validator {
 public:
  explicit Validator(const Executable& exe) : exe_(exe) {}

  void run() {
    check_backends_agree();
    for (size_t i = 0; i < exe_.functions.size(); ++i) check_function(i);
    for (size_t i = 0; i < exe_.constants.size(); ++i) check_constant(i);
    for (size_t i = 0; i < exe_.host_funcs.size(); ++i) check_host_func(i);
    for (size_t b = 0; b < exe_.backends.size(); ++b) check_backend(b);
    check_exports();
  }

 private:
  std::string function_where(size_t i) const {
    const std::string& name = exe_.functions[i].name;
    return name.empty() ? "function " + std::to_string(i) : "function " + quoted(name);
  }

  // Every back end has the same kernel functions, in the same order, with the same
  // parameters: a Call of a Kernel function is checked once against all of them.
  void check_backends_agree() const {
    if (exe_.backends.empty()) return;
    const Backend& first = exe_.backends[0];
    for (size_t b = 1; b < exe_.backends.size(); ++b) {
      const Backend& other = exe_.backends[b];
      const std::string where = "backend " + std::to_string(b) + " (" + other.target + ")";
      if (other.kernel_funcs.size() != first.kernel_funcs.size()) {
        fail(where, "has " + std::to_string(other.kernel_funcs.size()) +
                        " kernel functions, backend 0 has " +
                        std::to_string(first.kernel_funcs.size()));
      }
      for (size_t k = 0; k < first.kernel_funcs.size(); ++k) {
        const KernelFunc& a = first.kernel_funcs[k];
        const KernelFunc& o = other.kernel_funcs[k];
        if (o.name != a.name || o.params.size() != a.params.size() ||
            o.scalar_param_slots.size() != a.scalar_param_slots.size()) {
          fail(where, "kernel function " + std::to_string(k) + " " + quoted(o.name) +
                          " does not match backend 0's " + quoted(a.name) +
                          " (name, parameters and scalar parameters must agree)");
        }
      }
    }
  }

  void check_function(size_t i) const {
    const FunctionEntry& f = exe_.functions[i];
    const std::string where = function_where(i);
    switch (f.kind) {
      case FunctionKind::Packed:
        if (f.name.empty()) fail(where, "a packed function needs a name");
        break;
      case FunctionKind::Bytecode:
        check_bytecode(i);
        break;
      case FunctionKind::Kernel:
        if (exe_.backends.empty()) fail(where, "is a kernel function, but there is no backend");
        if (!in_range(f.index, exe_.backends[0].kernel_funcs.size())) {
          fail(where, "kernel function index " + std::to_string(f.index) + ", the backends have " +
                          count_of(exe_.backends[0].kernel_funcs.size(), "kernel function"));
        }
        break;
      case FunctionKind::Host:
        if (!in_range(f.index, exe_.host_funcs.size())) {
          fail(where, "host function index " + std::to_string(f.index) + ", the executable has " +
                          count_of(exe_.host_funcs.size(), "host function"));
        }
        break;
      default:
        fail(where, "unknown function kind " + std::to_string(static_cast<int>(f.kind)));
    }
    if (f.kind != FunctionKind::Bytecode &&
        (!f.code.empty() || !f.param_names.empty() || f.num_registers != 0 ||
         !f.memory_plan.empty() || !f.sources.empty())) {
      fail(where,
           "only a bytecode function has code, parameters, registers, a memory plan or sources");
    }
  }

  void check_bytecode(size_t i) const {
    const FunctionEntry& f = exe_.functions[i];
    const std::string where = function_where(i);
    if (f.num_registers < 0 || f.num_registers > kMaxRegisters) {
      fail(where, std::to_string(f.num_registers) + " registers, expected 0 to " +
                      std::to_string(kMaxRegisters));
    }
    if (static_cast<int64_t>(f.param_names.size()) > f.num_registers) {
      fail(where, std::to_string(f.param_names.size()) + " parameters but only " +
                      count_of(static_cast<size_t>(f.num_registers), "register"));
    }
    if (f.code.empty()) fail(where, "has no code");
    for (size_t pc = 0; pc < f.code.size(); ++pc) check_instruction(i, pc);
    check_shape_heaps(i);
    for (size_t k = 0; k < f.sources.size(); ++k) {
      // Ranges start at increasing instructions of the code.
      int64_t first = f.sources[k].first_instruction;
      int64_t lowest = k == 0 ? 0 : f.sources[k - 1].first_instruction + 1;
      if (first < lowest || !in_range(first, f.code.size())) {
        fail(where, "source range " + std::to_string(k) + " starts at instruction " +
                        std::to_string(first) + ", expected one from " + std::to_string(lowest) +
                        " to " + std::to_string(f.code.size() - 1));
      }
    }
    // Jumps go forward, so the last instruction is reached only by falling into it.
    const Opcode last = f.code.back().opcode;
    if (last != Opcode::Ret) {
      fail(where, "the last instruction is " + std::string(opcode_name(last)) +
                      ": execution would run past the end (expected ret)");
    }
  }

  // A function's shape heap holds one slot per shape variable or computed dimension, and
  // each slot is named by an immediate of a shape builtin's call (match_shape,
  // make_shape, ...) or by a store of a host function: alloc_shape_heap's size must be
  // such an immediate, no more than those can name, so that a file cannot ask for more
  // memory than its size justifies.
  void check_shape_heaps(size_t i) const {
    const FunctionEntry& f = exe_.functions[i];
    auto allocates_heap = [&](const Instruction& in) {
      if (in.opcode != Opcode::Call || !in_range(in.func, exe_.functions.size())) return false;
      const FunctionEntry& callee = exe_.functions[static_cast<size_t>(in.func)];
      return callee.kind == FunctionKind::Packed && callee.name == builtin::kAllocShapeHeap;
    };
    uint64_t nameable = 0;
    for (const Instruction& in : f.code) {
      if (allocates_heap(in)) continue;  // its size names no slot
      for (const Arg& a : in.args) nameable += a.kind == Arg::Kind::Immediate ? 1 : 0;
    }
    for (const HostFunc& h : exe_.host_funcs) nameable += h.stores.size();
    const uint64_t max_slots = std::min<uint64_t>(nameable, kMaxShapeHeapSlots);
    for (size_t pc = 0; pc < f.code.size(); ++pc) {
      const Instruction& in = f.code[pc];
      if (!allocates_heap(in)) continue;
      const std::string where =
          function_where(i) + ", instruction " + std::to_string(pc) + " (call)";
      if (in.args.size() != 1 || in.args[0].kind != Arg::Kind::Immediate) {
        fail(where, std::string(builtin::kAllocShapeHeap) + " takes one immediate size");
      }
      const int64_t size = in.args[0].value;
      if (size < 0 || static_cast<uint64_t>(size) > max_slots) {
        fail(where, "a shape heap of " + std::to_string(size) +
                        " slots; the function's calls and the host functions name at most " +
                        std::to_string(max_slots));
      }
    }
  }

  void check_register(const std::string& where, const FunctionEntry& f, int64_t reg,
                      const std::string& role) const {
    if (!in_range(reg, static_cast<size_t>(f.num_registers))) {
      fail(where, role + " register " + std::to_string(reg) + " is outside the function's " +
                      count_of(static_cast<size_t>(f.num_registers), "register"));
    }
  }

  // pc + offset must be a later instruction of the function (computed without
  // overflow): the compiler's If and Goto jump forward over a branch, so bytecode has no
  // loops and each frame runs each instruction at most once.
  void check_target(const std::string& where, const FunctionEntry& f, size_t pc, int64_t offset,
                    const std::string& role) const {
    const int64_t size = static_cast<int64_t>(f.code.size());
    const int64_t here = static_cast<int64_t>(pc);
    if (offset <= 0) {
      fail(where, role + " offset " + std::to_string(offset) +
                      " does not jump forward (jumps only go forward: a loop would never end)");
    }
    if (offset >= size - here) {
      fail(where, role + " offset " + std::to_string(offset) + " jumps outside the function's " +
                      std::to_string(size) + " instructions");
    }
  }

  void check_instruction(size_t i, size_t pc) const {
    const FunctionEntry& f = exe_.functions[i];
    const Instruction& in = f.code[pc];
    const std::string where = function_where(i) + ", instruction " + std::to_string(pc) + " (" +
                              opcode_name(in.opcode) + ")";
    switch (in.opcode) {
      case Opcode::Call:
        check_call(where, f, in);
        break;
      case Opcode::Ret:
        check_register(where, f, in.reg, "the returned");
        break;
      case Opcode::Goto:
        check_target(where, f, pc, in.offset, "the");
        break;
      case Opcode::If:
        check_register(where, f, in.reg, "the condition");
        check_target(where, f, pc, 1, "the true branch's");
        check_target(where, f, pc, in.offset, "the false branch's");
        break;
      default:
        fail(function_where(i) + ", instruction " + std::to_string(pc),
             "unknown opcode " + std::to_string(static_cast<int>(in.opcode)));
    }
  }

  void check_call(const std::string& where, const FunctionEntry& f, const Instruction& in) const {
    if (!in_range(in.func, exe_.functions.size())) {
      fail(where, "calls function " + std::to_string(in.func) + ", the executable has " +
                      count_of(exe_.functions.size(), "function"));
    }
    if (in.dst != kVoidRegister) check_register(where, f, in.dst, "the destination");
    for (size_t a = 0; a < in.args.size(); ++a) {
      const Arg& arg = in.args[a];
      const std::string what = "argument " + std::to_string(a);
      switch (arg.kind) {
        case Arg::Kind::Register:
          check_register(where, f, arg.value, what + ":");
          break;
        case Arg::Kind::Immediate:
          break;
        case Arg::Kind::Constant:
          if (!in_range(arg.value, exe_.constants.size())) {
            fail(where, what + ": constant " + std::to_string(arg.value) + ", the executable has " +
                            count_of(exe_.constants.size(), "constant"));
          }
          break;
        case Arg::Kind::Function:
          if (!in_range(arg.value, exe_.functions.size())) {
            fail(where, what + ": function " + std::to_string(arg.value) + ", the executable has " +
                            count_of(exe_.functions.size(), "function"));
          }
          break;
        default:
          fail(where, what + ": unknown kind " + std::to_string(static_cast<int>(arg.kind)));
      }
    }
    // The callee's ABI, where the executable knows it.
    const FunctionEntry& callee = exe_.functions[static_cast<size_t>(in.func)];
    size_t expected = in.args.size();
    std::string why;
    if (callee.kind == FunctionKind::Bytecode) {
      expected = callee.param_names.size();
      why = "its parameters";
    } else if (callee.kind == FunctionKind::Host) {
      expected = 1;
      why = "the shape heap";
    } else if (callee.kind == FunctionKind::Kernel && !exe_.backends.empty() &&
               in_range(callee.index, exe_.backends[0].kernel_funcs.size())) {
      const KernelFunc& k = exe_.backends[0].kernel_funcs[static_cast<size_t>(callee.index)];
      expected = k.params.size() + (k.scalar_param_slots.empty() ? 0 : 1);
      why = "its buffers" + std::string(k.scalar_param_slots.empty() ? "" : " and a shape");
    }
    if (in.args.size() != expected) {
      fail(where, "calls " + quoted(callee.name) + " with " + std::to_string(in.args.size()) +
                      " arguments, it takes " + std::to_string(expected) + " (" + why + ")");
    }
  }

  void check_dtype(const std::string& where, DType dtype, bool allow_void) const {
    if (!dtype.is_valid() || (!allow_void && dtype.is_void())) {
      fail(where, "unknown dtype (code " + std::to_string(static_cast<int>(dtype.code)) +
                      ", bits " + std::to_string(dtype.bits) + ", lanes " +
                      std::to_string(dtype.lanes) + ")");
    }
  }

  void check_dims(const std::string& where, const std::vector<int64_t>& dims,
                  uint64_t* elements) const {
    uint64_t count = 1;
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] < 0) {
        fail(where, "dimension " + std::to_string(d) + " is " + std::to_string(dims[d]));
      }
      if (__builtin_mul_overflow(count, static_cast<uint64_t>(dims[d]), &count)) {
        fail(where, "the element count overflows");
      }
    }
    if (elements != nullptr) *elements = count;
  }

  void check_constant(size_t i) const {
    const Constant& c = exe_.constants[i];
    const std::string where = "constant " + std::to_string(i);
    switch (c.kind) {
      case Constant::Kind::Tensor: {
        check_dtype(where, c.dtype, false);
        uint64_t elements = 0;
        check_dims(where, c.shape, &elements);
        uint64_t bytes = 0;
        if (__builtin_mul_overflow(elements, static_cast<uint64_t>(c.dtype.bytes()), &bytes) ||
            bytes != c.bytes.size()) {
          fail(where, "a " + c.dtype.str() + " tensor of " + std::to_string(elements) +
                          " elements has " + std::to_string(c.bytes.size()) + " bytes of data");
        }
        break;
      }
      case Constant::Kind::Shape:
        check_dims(where, c.shape, nullptr);
        break;
      case Constant::Kind::String:
        break;
      case Constant::Kind::Int:
        check_dtype(where, c.dtype, false);
        if (c.dtype.code != DType::Code::Int && c.dtype.code != DType::Code::UInt) {
          fail(where, "an integer constant of dtype " + c.dtype.str());
        }
        break;
      case Constant::Kind::Float:
        check_dtype(where, c.dtype, false);
        if (c.dtype.code != DType::Code::Float && c.dtype.code != DType::Code::BFloat) {
          fail(where, "a float constant of dtype " + c.dtype.str());
        }
        break;
      case Constant::Kind::DataType:
        check_dtype(where, c.dtype, true);
        break;
      default:
        fail(where, "unknown constant kind " + std::to_string(static_cast<int>(c.kind)));
    }
  }

  // An int program reading `num_slots` slots (-1: any number, known only at run time).
  void check_program(const std::string& where, const IntProgram& p, int64_t num_slots) const {
    int64_t max_slot = -1;
    if (std::string error = validate_int_program(p, &max_slot); !error.empty()) {
      fail(where, error);
    }
    if (num_slots >= 0 && max_slot >= num_slots) {
      fail(where, "loads slot " + std::to_string(max_slot) + ", there are " +
                      count_of(static_cast<size_t>(num_slots), "slot"));
    }
  }

  void check_host_func(size_t i) const {
    const HostFunc& h = exe_.host_funcs[i];
    for (size_t s = 0; s < h.stores.size(); ++s) {
      const std::string where = "host function " + quoted(h.name) + ", store " + std::to_string(s);
      if (h.stores[s].first < 0) {
        fail(where, "stores to slot " + std::to_string(h.stores[s].first));
      }
      check_program(where, h.stores[s].second, -1);  // the heap's size is known at run time
    }
  }

  void check_binary(const std::string& where, const Backend& backend, const KernelBinary& k) const {
    if (k.name.empty()) fail(where, "has no entry point name");
    if (k.format != backend.format) {
      fail(where, "is " +
                      std::string(valid_kernel_format(k.format) ? kernel_format_name(k.format)
                                                                : "of an unknown format") +
                      " in a " + kernel_format_name(backend.format) + " backend");
    }
    if (k.num_buffers < 0) fail(where, std::to_string(k.num_buffers) + " buffers");
    for (size_t d = 0; d < 3; ++d) {
      if (k.block_size[d] == 0) fail(where, "block size " + std::to_string(d) + " is 0");
    }
    try {
      check_kernel_code(k);
    } catch (const RuntimeError& e) {
      // "kernel 'k': the SPIR-V ..." without the name, which `where` gives.
      std::string message = e.what();
      const std::string prefix = "kernel '" + k.name + "': ";
      if (message.starts_with(prefix)) message.erase(0, prefix.size());
      fail(where, message);
    }
    for (size_t s = 0; s < k.scalars.size(); ++s) {
      if (k.scalars[s] != ScalarType::Int32 && k.scalars[s] != ScalarType::Int64) {
        fail(where, "scalar " + std::to_string(s) + " has an unknown type");
      }
    }
  }

  void check_kernel_func(const std::string& backend_where, const Backend& backend,
                         size_t index) const {
    const KernelFunc& kf = backend.kernel_funcs[index];
    const std::string where = backend_where + ", kernel function " + quoted(kf.name);
    if (kf.num_slots < 0 || kf.num_slots > kMaxKernelSlots) {
      fail(where, std::to_string(kf.num_slots) + " slots, expected 0 to " +
                      std::to_string(kMaxKernelSlots));
    }
    for (const KernelParam& p : kf.params) {
      const std::string pwhere = where + ", parameter " + quoted(p.name);
      check_dtype(pwhere, p.dtype, false);
      for (size_t d = 0; d < p.shape.size(); ++d) {
        const KernelDim& dim = p.shape[d];
        const std::string dwhere = pwhere + ", dimension " + std::to_string(d);
        if (dim.defines_slot < -1 || dim.defines_slot >= kf.num_slots) {
          fail(dwhere, "defines slot " + std::to_string(dim.defines_slot) + ", there are " +
                           count_of(static_cast<size_t>(kf.num_slots), "slot"));
        }
        check_program(dwhere, dim.extent, kf.num_slots);
      }
    }
    for (size_t s = 0; s < kf.scalar_param_slots.size(); ++s) {
      if (!in_range(kf.scalar_param_slots[s], static_cast<size_t>(kf.num_slots))) {
        fail(where, "scalar parameter " + std::to_string(s) + " goes to slot " +
                        std::to_string(kf.scalar_param_slots[s]) + ", there are " +
                        count_of(static_cast<size_t>(kf.num_slots), "slot"));
      }
    }
    for (const KernelWorkspace& w : kf.workspaces) {
      check_program(where + ", workspace " + quoted(w.name), w.bytes, kf.num_slots);
    }
    const size_t num_buffers = kf.params.size() + kf.workspaces.size();
    for (size_t l = 0; l < kf.launches.size(); ++l) {
      const KernelLaunchInfo& launch = kf.launches[l];
      const std::string lwhere = where + ", launch " + std::to_string(l);
      if (!in_range(launch.kernel, backend.kernels.size())) {
        fail(lwhere, "kernel " + std::to_string(launch.kernel) + ", the backend has " +
                         count_of(backend.kernels.size(), "kernel"));
      }
      const KernelBinary& k = backend.kernels[static_cast<size_t>(launch.kernel)];
      if (launch.buffer_args.size() != static_cast<size_t>(k.num_buffers)) {
        fail(lwhere, std::to_string(launch.buffer_args.size()) + " buffer arguments, kernel " +
                         quoted(k.name) + " takes " + std::to_string(k.num_buffers));
      }
      for (size_t a = 0; a < launch.buffer_args.size(); ++a) {
        if (!in_range(launch.buffer_args[a], num_buffers)) {
          fail(lwhere, "buffer argument " + std::to_string(a) + " is " +
                           std::to_string(launch.buffer_args[a]) + ", the function has " +
                           count_of(kf.params.size(), "parameter") + " and " +
                           count_of(kf.workspaces.size(), "workspace"));
        }
      }
      if (launch.scalar_args.size() != k.scalars.size()) {
        fail(lwhere, std::to_string(launch.scalar_args.size()) + " scalar arguments, kernel " +
                         quoted(k.name) + " takes " + std::to_string(k.scalars.size()));
      }
      for (size_t s = 0; s < launch.scalar_args.size(); ++s) {
        check_program(lwhere + ", scalar argument " + std::to_string(s), launch.scalar_args[s],
                      kf.num_slots);
      }
      for (size_t d = 0; d < 3; ++d) {
        check_program(lwhere + ", grid dimension " + std::to_string(d), launch.grid[d],
                      kf.num_slots);
      }
    }
  }

  void check_backend(size_t b) const {
    const Backend& backend = exe_.backends[b];
    const std::string where = "backend " + std::to_string(b) + " (" + backend.target + ")";
    if (!valid_kernel_format(backend.format)) {
      fail(where, "unknown kernel format " + std::to_string(static_cast<int>(backend.format)));
    }
    for (size_t k = 0; k < backend.kernels.size(); ++k) {
      check_binary(where + ", kernel " + std::to_string(k) + " " + quoted(backend.kernels[k].name),
                   backend, backend.kernels[k]);
    }
    for (size_t k = 0; k < backend.kernel_funcs.size(); ++k) check_kernel_func(where, backend, k);
  }

  void check_exports() const {
    std::set<std::string_view> names;
    for (size_t e = 0; e < exe_.exports.size(); ++e) {
      const int64_t index = exe_.exports[e];
      const std::string where = "export " + std::to_string(e);
      if (!in_range(index, exe_.functions.size())) {
        fail(where, "function " + std::to_string(index) + ", the executable has " +
                        count_of(exe_.functions.size(), "function"));
      }
      const FunctionEntry& f = exe_.functions[static_cast<size_t>(index)];
      if (f.kind != FunctionKind::Bytecode) {
        fail(where, "function " + quoted(f.name) + " is not a Relax (bytecode) function");
      }
      if (!names.insert(f.name).second) {
        fail(where, "function " + quoted(f.name) + " is exported twice");
      }
    }
  }

  const Executable& exe_;
};

}  // namespace

ConstantBytes::ConstantBytes(std::vector<uint8_t> bytes) {
  auto owned = std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
  view_ = *owned;
  owner_ = std::move(owned);
}

int64_t Executable::find_export(const std::string& name) const {
  for (int64_t index : exports) {
    if (in_range(index, functions.size()) && functions[static_cast<size_t>(index)].name == name) {
      return index;
    }
  }
  return -1;
}

void validate_executable(const Executable& exe) { Validator(exe).run(); }

const std::string* source_location(const FunctionEntry& f, int64_t pc) {
  auto after = std::upper_bound(
      f.sources.begin(), f.sources.end(), pc,
      [](int64_t at, const SourceRange& range) { return at < range.first_instruction; });
  if (after == f.sources.begin() || std::prev(after)->location.empty()) return nullptr;
  return &std::prev(after)->location;
}

}  // namespace relaxc::runtime::vm
