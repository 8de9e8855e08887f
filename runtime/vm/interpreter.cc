// The bytecode interpreter: one C++ call per bytecode frame (registers in a vector that
// frames reuse, so that a warm call allocates nothing to dispatch), the
// four opcodes (jumps go forward only, checked at load, so a frame runs each instruction
// at most once; VirtualMachine::set_step_limit bounds a whole call), Call dispatch by
// the callee's kind, constants made once per VM, and If conditions read from the
// device. Errors leave each frame with "in f, instruction N" added, so the embedding
// program sees the path to the failing instruction.
#include <algorithm>
#include <new>
#include <string>
#include <utility>

#include "runtime/vm/builtins.h"
#include "runtime/vm/vm_impl.h"

namespace relaxc::runtime::vm {
namespace {

// Counts a frame for as long as it runs.
class DepthGuard {
 public:
  DepthGuard(int& depth, const std::string& name) : depth_(depth) {
    if (depth_ >= kMaxCallDepth) {
      runtime_error() << "stack overflow: more than " << kMaxCallDepth << " nested calls (calling '"
                      << name << "')";
    }
    ++depth_;
  }
  ~DepthGuard() { --depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  int& depth_;
};

// One of the VM's frame vectors (see Impl::spare_frame_vectors), empty, for as long as
// a frame runs; given back emptied (its values released) when the frame ends.
class FrameVector {
 public:
  FrameVector(std::vector<std::vector<Value>>& spares, size_t& made) : spares_(spares) {
    if (spares_.empty()) {
      spares_.reserve(made + 1);  // room to give this one back without allocating
      ++made;
    } else {
      values_ = std::move(spares_.back());
      spares_.pop_back();
    }
  }
  ~FrameVector() {
    values_.clear();
    spares_.push_back(std::move(values_));
  }
  FrameVector(const FrameVector&) = delete;
  FrameVector& operator=(const FrameVector&) = delete;
  std::vector<Value>& get() { return values_; }

 private:
  std::vector<std::vector<Value>>& spares_;
  std::vector<Value> values_;
};

Value& reg(std::vector<Value>& regs, RegIndex index) {
  if (index < 0 || static_cast<size_t>(index) >= regs.size()) {
    runtime_error() << "register %" << index << " is outside the function's " << regs.size()
                    << " registers";
  }
  return regs[static_cast<size_t>(index)];
}

std::string param_list(const FunctionEntry& f) {
  std::string out;
  for (const std::string& p : f.param_names) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace

Value VirtualMachine::Impl::call_function(int64_t func, std::span<const Value> args) {
  if (func < 0 || static_cast<size_t>(func) >= exe->functions.size()) {
    runtime_error() << "call of function #" << func << ", outside the table of "
                    << exe->functions.size() << " functions";
  }
  const FunctionEntry& entry = exe->functions[static_cast<size_t>(func)];
  switch (entry.kind) {
    case FunctionKind::Packed: {
      const PackedFunc*& pf = packed[static_cast<size_t>(func)];
      if (pf == nullptr) pf = find_packed_func(entry.name);
      if (pf == nullptr) {
        runtime_error() << "packed function '" << entry.name
                        << "' is not registered (register it with vm::register_packed_func)";
      }
      bool builtin = entry.name.starts_with("vm.builtin.");
      try {
        return (*pf)(self, args);
      } catch (const CallError&) {
        throw;
      } catch (const RuntimeError& e) {
        if (builtin) throw;
        runtime_error() << "packed function '" << entry.name << "': " << e.what();
      }
    }
    case FunctionKind::Bytecode:
      return run_bytecode(func, args);
    case FunctionKind::Kernel:
      launch_kernel(entry, args);
      return Value();
    case FunctionKind::Host:
      run_host_func(entry, args);
      return Value();
  }
  runtime_error() << "function '" << entry.name << "' has an unknown kind";
}

Value VirtualMachine::Impl::run_bytecode(int64_t func, std::span<const Value> args) {
  const FunctionEntry& f = exe->functions[static_cast<size_t>(func)];
  if (args.size() != f.param_names.size()) {
    runtime_error() << "function '" << f.name << "' takes " << f.param_names.size()
                    << " arguments (" << param_list(f) << "), got " << args.size();
  }
  DepthGuard guard(depth, f.name);
  FrameVector registers(spare_frame_vectors, frame_vectors_made);
  FrameVector arguments(spare_frame_vectors, frame_vectors_made);
  std::vector<Value>& regs = registers.get();
  std::vector<Value>& call_args = arguments.get();  // of the Call being run
  regs.resize(
      std::max<size_t>(static_cast<size_t>(std::max<int64_t>(f.num_registers, 0)), args.size()));
  std::copy(args.begin(), args.end(), regs.begin());
  int64_t pc = 0;
  // "in f, instruction 7 (model.py:12:9)": where the error left this frame.
  auto frame = [&] {
    const std::string* source = source_location(f, pc);
    return "in " + f.name + ", instruction " + std::to_string(pc) +
           (source != nullptr ? " (" + *source + ")" : "");
  };
  try {
    while (true) {
      if (pc < 0 || static_cast<size_t>(pc) >= f.code.size()) {
        runtime_error() << "control reaches instruction " << pc << ", outside the function's "
                        << f.code.size() << " instructions";
      }
      if (step_limit != 0 && ++steps > step_limit) {
        runtime_error() << "the step limit of " << step_limit << " instructions is reached";
      }
      const Instruction& in = f.code[static_cast<size_t>(pc)];
      switch (in.opcode) {
        case Opcode::Call: {
          for (const Arg& a : in.args) {
            switch (a.kind) {
              case Arg::Kind::Register:
                call_args.push_back(reg(regs, a.value));
                break;
              case Arg::Kind::Immediate:
                call_args.push_back(Value::integer(a.value));
                break;
              case Arg::Kind::Constant:
                call_args.push_back(constant(a.value));
                break;
              case Arg::Kind::Function:
                call_args.push_back(function_value(a.value));
                break;
            }
          }
          Value result = call_function(in.func, call_args);
          call_args.clear();  // the arguments' tensors are not held past the call
          if (in.dst != kVoidRegister) reg(regs, in.dst) = std::move(result);
          ++pc;
          break;
        }
        case Opcode::Ret:
          return reg(regs, in.reg);
        case Opcode::Goto:
          pc += in.offset;
          break;
        case Opcode::If:
          pc += condition(reg(regs, in.reg)) ? 1 : in.offset;
          break;
        default:
          runtime_error() << "unknown opcode " << static_cast<int>(in.opcode);
      }
    }
  } catch (CallError& e) {
    e.add_frame(frame());
    throw;
  } catch (const RuntimeError& e) {
    throw CallError(e.what(), frame());
  } catch (const std::bad_alloc&) {
    throw CallError("out of host memory", frame());
  }
}

const Value& VirtualMachine::Impl::function_value(int64_t func) {
  if (func < 0 || static_cast<size_t>(func) >= function_values.size()) {
    runtime_error() << "reference to function #" << func << ", outside the table of "
                    << function_values.size() << " functions";
  }
  std::optional<Value>& slot = function_values[static_cast<size_t>(func)];
  if (!slot) slot = Value::closure({func, {}});
  return *slot;
}

const Value& VirtualMachine::Impl::constant(int64_t index) {
  if (index < 0 || static_cast<size_t>(index) >= constants.size()) {
    runtime_error() << "constant #" << index << " is outside the table of " << constants.size()
                    << " constants";
  }
  std::optional<Value>& slot = constants[static_cast<size_t>(index)];
  if (slot.has_value()) return *slot;
  const Constant& c = exe->constants[static_cast<size_t>(index)];
  switch (c.kind) {
    case Constant::Kind::Tensor: {
      std::string what = "constant #" + std::to_string(index);
      size_t bytes = checked_tensor_bytes(c.dtype, c.shape, what);
      if (bytes != c.bytes.size()) {
        runtime_error() << what << ": a " << c.dtype.str() << " tensor of shape "
                        << shape_text(c.shape) << " needs " << bytes
                        << " bytes, the executable holds " << c.bytes.size();
      }
      slot = Value::tensor(self.from_host(c.dtype, c.shape, c.bytes.data()));
      break;
    }
    case Constant::Kind::Shape:
      slot = Value::shape(c.shape);
      break;
    case Constant::Kind::String:
      slot = Value::string(c.str);
      break;
    case Constant::Kind::Int:
      slot = Value::integer(c.int_value, c.dtype);
      break;
    case Constant::Kind::Float:
      slot = Value::floating(c.float_value, c.dtype);
      break;
    case Constant::Kind::DataType:
      slot = Value::data_type(c.dtype);
      break;
  }
  return *slot;
}

bool VirtualMachine::Impl::condition(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::Int:
      return value.as_int() != 0;
    case Value::Kind::Float:
      return value.as_float() != 0.0;
    case Value::Kind::Tensor: {
      const Tensor& t = value.as_tensor();
      if (t.num_elements() != 1) {
        runtime_error() << "the condition of If is a tensor of shape " << shape_text(t.shape)
                        << "; expected one element";
      }
      std::vector<uint8_t> bytes = self.to_host(t);  // waits for the kernels that write it
      if (t.dtype.code == DType::Code::Float || t.dtype.code == DType::Code::BFloat) {
        return element_as_double(bytes.data(), t.dtype) != 0.0;
      }
      return element_as_int(bytes.data(), t.dtype) != 0;
    }
    default:
      runtime_error() << "the condition of If has kind " << value.kind_name()
                      << "; expected a boolean, an integer or a tensor of one element";
  }
}

}  // namespace relaxc::runtime::vm
