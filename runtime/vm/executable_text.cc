// The executable as readable text, for `relaxc inspect`: exports, functions with their
// bytecode, constants, host functions, and each backend's kernel functions and kernels.
#include <bit>
#include <limits>
#include <sstream>

#include "runtime/vm/executable.h"

namespace relaxc::runtime::vm {
namespace {

// Tensor constants show at most this many elements.
constexpr uint64_t kMaxShownElements = 8;

bool in_range(int64_t index, size_t size) {
  return index >= 0 && static_cast<uint64_t>(index) < size;
}

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// A string constant with its quotes and backslashes escaped, and bytes outside
// printable ASCII as \xNN.
std::string escaped(const std::string& s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch < 0x20 || ch >= 0x7f) {
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    } else {
      out += static_cast<char>(ch);
    }
  }
  return out + "\"";
}

template <typename T, typename F>
std::string joined(const std::vector<T>& items, F&& show) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + show(items[i]);
  return out;
}

std::string dims_text(const std::vector<int64_t>& dims) {
  return "[" + joined(dims, [](int64_t d) { return std::to_string(d); }) + "]";
}

std::string size3_text(const std::array<uint32_t, 3>& s) {
  return "(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + ", " + std::to_string(s[2]) +
         ")";
}

std::string function_name(const Executable& exe, int64_t index) {
  if (!in_range(index, exe.functions.size())) return "<function " + std::to_string(index) + ">";
  return exe.functions[static_cast<size_t>(index)].name;
}

std::string arg_text(const Executable& exe, const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::Register:
      return "%" + std::to_string(a.value);
    case Arg::Kind::Immediate:
      return "i" + std::to_string(a.value);
    case Arg::Kind::Constant:
      return "c" + std::to_string(a.value);
    case Arg::Kind::Function:
      return "@" + function_name(exe, a.value);
  }
  return "<arg kind " + std::to_string(static_cast<int>(a.kind)) + ">";
}

std::string instruction_text(const Executable& exe, size_t pc, const Instruction& in) {
  const int64_t here = static_cast<int64_t>(pc);
  switch (in.opcode) {
    case Opcode::Call: {
      std::string out = in.dst == kVoidRegister ? "" : "%" + std::to_string(in.dst) + " = ";
      return out + "call " + function_name(exe, in.func) + "(" +
             joined(in.args, [&](const Arg& a) { return arg_text(exe, a); }) + ")";
    }
    case Opcode::Ret:
      return "ret %" + std::to_string(in.reg);
    // Targets shown absolute (validated: no overflow).
    case Opcode::Goto:
      return "goto " + std::to_string(here + in.offset);
    case Opcode::If:
      return "if %" + std::to_string(in.reg) + " else goto " + std::to_string(here + in.offset);
  }
  return "<opcode " + std::to_string(static_cast<int>(in.opcode)) + ">";
}

std::string function_kind_text(const FunctionEntry& f) {
  switch (f.kind) {
    case FunctionKind::Packed:
      return "packed";
    case FunctionKind::Bytecode:
      return "bytecode, params (" + joined(f.param_names, [](const std::string& s) { return s; }) +
             "), " + std::to_string(f.num_registers) + " registers";
    case FunctionKind::Kernel:
      return "kernel function " + std::to_string(f.index);
    case FunctionKind::Host:
      return "host function " + std::to_string(f.index);
  }
  return "<kind " + std::to_string(static_cast<int>(f.kind)) + ">";
}

// IEEE half and bfloat16 to float, for showing tensor constants.
float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 31, mantissa = h & 1023;
  float magnitude;
  if (exponent == 0) {
    magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // subnormal: m * 2^-24
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? std::numeric_limits<float>::infinity()
                              : std::numeric_limits<float>::quiet_NaN();
  } else {
    magnitude = std::bit_cast<float>(((exponent + 112) << 23) | (mantissa << 13));
  }
  return sign ? -magnitude : magnitude;
}

// One element of a scalar-typed tensor, read from its little-endian bytes.
std::string element_text(DType t, const uint8_t* p) {
  uint64_t raw = 0;
  const int n = t.bytes();
  for (int i = 0; i < n; ++i) raw |= uint64_t{p[i]} << (8 * i);
  std::ostringstream os;
  switch (t.code) {
    case DType::Code::Int: {
      const int shift = 64 - t.bits;
      os << (static_cast<int64_t>(raw << shift) >> shift);  // sign-extend
      break;
    }
    case DType::Code::UInt:
      os << raw;
      break;
    case DType::Code::Float:
      if (t.bits == 16) os << half_to_float(static_cast<uint16_t>(raw));
      if (t.bits == 32) os << std::bit_cast<float>(static_cast<uint32_t>(raw));
      if (t.bits == 64) os << std::bit_cast<double>(raw);
      break;
    case DType::Code::BFloat:
      os << std::bit_cast<float>(static_cast<uint32_t>(raw) << 16);
      break;
  }
  return os.str();
}

std::string constant_text(const Constant& c) {
  switch (c.kind) {
    case Constant::Kind::Tensor: {
      std::string out = "tensor " + c.dtype.str() + " " + dims_text(c.shape);
      const size_t bytes = static_cast<size_t>(c.dtype.bytes());
      if (!c.dtype.is_valid() || c.dtype.lanes != 1 || bytes == 0 || c.bytes.size() % bytes != 0) {
        return out + " (" + std::to_string(c.bytes.size()) + " bytes)";
      }
      const uint64_t count = c.bytes.size() / bytes;
      out += " = [";
      for (uint64_t i = 0; i < count && i < kMaxShownElements; ++i) {
        out += (i ? ", " : "") + element_text(c.dtype, c.bytes.data() + i * bytes);
      }
      return out + (count > kMaxShownElements ? ", ...]" : "]");
    }
    case Constant::Kind::Shape:
      return "shape " + dims_text(c.shape);
    case Constant::Kind::String:
      return "string " + escaped(c.str);
    case Constant::Kind::Int:
      return c.dtype.str() + " " + std::to_string(c.int_value);
    case Constant::Kind::Float: {
      std::ostringstream os;
      os.precision(17);
      os << c.float_value;
      return c.dtype.str() + " " + os.str();
    }
    case Constant::Kind::DataType:
      return "dtype " + c.dtype.str();
  }
  return "<kind " + std::to_string(static_cast<int>(c.kind)) + ">";
}

std::string buffer_arg_name(const KernelFunc& kf, int32_t index) {
  if (index >= 0 && static_cast<size_t>(index) < kf.params.size()) return kf.params[index].name;
  const int64_t w = int64_t{index} - static_cast<int64_t>(kf.params.size());
  if (in_range(w, kf.workspaces.size())) return kf.workspaces[static_cast<size_t>(w)].name;
  return "<buffer " + std::to_string(index) + ">";
}

void write_kernel_func(std::ostringstream& os, const Backend& b, size_t index) {
  const KernelFunc& kf = b.kernel_funcs[index];
  os << "  kernel function " << index << " " << quoted(kf.name) << ": " << kf.num_slots
     << " slots\n";
  for (const KernelParam& p : kf.params) {
    os << "    param " << p.name << ": " << p.dtype.str() << " ["
       << joined(p.shape, [](const KernelDim& d) { return int_program_to_string(d.extent); })
       << "]";
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d].defines_slot >= 0) {
        os << ", dimension " << d << " defines s" << p.shape[d].defines_slot;
      }
    }
    os << "\n";
  }
  if (!kf.scalar_param_slots.empty()) {
    os << "    scalar params: "
       << joined(kf.scalar_param_slots, [](int32_t s) { return "s" + std::to_string(s); }) << "\n";
  }
  for (const KernelWorkspace& w : kf.workspaces) {
    os << "    workspace " << w.name << ": " << int_program_to_string(w.bytes) << " bytes\n";
  }
  for (const KernelLaunchInfo& l : kf.launches) {
    const std::string kernel = in_range(l.kernel, b.kernels.size())
                                   ? quoted(b.kernels[static_cast<size_t>(l.kernel)].name)
                                   : "<missing>";
    os << "    launch kernel " << l.kernel << " " << kernel << ": grid ("
       << int_program_to_string(l.grid[0]) << ", " << int_program_to_string(l.grid[1]) << ", "
       << int_program_to_string(l.grid[2]) << "), buffers ("
       << joined(l.buffer_args, [&](int32_t a) { return buffer_arg_name(kf, a); }) << "), scalars ("
       << joined(l.scalar_args, [](const IntProgram& p) { return int_program_to_string(p); })
       << ")\n";
  }
}

const char* format_text(KernelFormat f) {
  return f == KernelFormat::SpirV || f == KernelFormat::Ptx ? kernel_format_name(f)
                                                            : "<unknown format>";
}

void write_kernel(std::ostringstream& os, size_t index, const KernelBinary& k) {
  os << "  kernel " << index << " " << quoted(k.name) << ": " << format_text(k.format) << ", block "
     << size3_text(k.block_size) << ", " << k.num_buffers << " buffers, scalars ("
     << joined(k.scalars,
               [](ScalarType t) { return std::string(t == ScalarType::Int32 ? "int32" : "int64"); })
     << "), shared memory " << k.shared_memory_bytes << " bytes, " << k.code.size()
     << " bytes of code\n";
}

}  // namespace

std::string executable_to_text(const Executable& exe) {
  std::ostringstream os;
  os << "relaxc executable, version " << kExecutableVersion << "\n";
  os << "exports: " << joined(exe.exports, [&](int64_t e) { return function_name(exe, e); })
     << "\n";

  os << "\nfunctions:\n";
  for (size_t i = 0; i < exe.functions.size(); ++i) {
    const FunctionEntry& f = exe.functions[i];
    os << "  function " << i << " " << quoted(f.name) << ": " << function_kind_text(f) << "\n";
    auto range = f.sources.begin();
    for (size_t pc = 0; pc < f.code.size(); ++pc) {
      os << "    " << pc << ": " << instruction_text(exe, pc, f.code[pc]);
      // The location where a range begins.
      if (range != f.sources.end() && range->first_instruction == static_cast<int64_t>(pc)) {
        if (!range->location.empty()) os << "  # " << range->location;
        ++range;
      }
      os << "\n";
    }
    if (!f.memory_plan.empty()) os << "    memory plan:\n";
    for (const std::string& line : f.memory_plan) os << "      " << line << "\n";
  }

  if (!exe.constants.empty()) os << "\nconstants:\n";
  for (size_t i = 0; i < exe.constants.size(); ++i) {
    os << "  c" << i << ": " << constant_text(exe.constants[i]) << "\n";
  }

  for (size_t i = 0; i < exe.host_funcs.size(); ++i) {
    const HostFunc& h = exe.host_funcs[i];
    os << "\nhost function " << i << " " << quoted(h.name) << " (heap slots s0, s1, ...):\n";
    for (const auto& [slot, program] : h.stores) {
      os << "  heap[" << slot << "] = " << int_program_to_string(program) << "\n";
    }
  }

  for (size_t b = 0; b < exe.backends.size(); ++b) {
    const Backend& backend = exe.backends[b];
    os << "\nbackend " << b << ": " << format_text(backend.format) << ", target "
       << escaped(backend.target) << "\n";
    for (size_t k = 0; k < backend.kernel_funcs.size(); ++k) write_kernel_func(os, backend, k);
    for (size_t k = 0; k < backend.kernels.size(); ++k) write_kernel(os, k, backend.kernels[k]);
  }
  return os.str();
}

}  // namespace relaxc::runtime::vm
