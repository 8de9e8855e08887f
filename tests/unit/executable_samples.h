// A hand-built executable that uses every kind of function, constant, argument,
// instruction and backend, shared by the executable's tests and its loader fuzzer.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/vm/executable.h"

namespace relaxc::runtime::vm::testing {

// What the loader's light scan of SPIR-V reads (not a whole module: spirv-val would
// refuse it): the header, a GLCompute entry point `entry` with its LocalSize, a buffer
// decorated with set 0 and `binding`, and an empty function.
inline std::vector<uint8_t> sample_spirv(const std::string& entry,
                                         std::array<uint32_t, 3> local_size, uint32_t binding) {
  auto op = [](uint32_t opcode, uint32_t word_count) { return (word_count << 16) | opcode; };
  std::vector<uint32_t> name_words((entry.size() + 4) / 4, 0);
  std::memcpy(name_words.data(), entry.data(), entry.size());
  std::vector<uint32_t> words = {0x07230203, 0x00010300, 0, 9, 0};
  words.insert(words.end(), {op(15, static_cast<uint32_t>(3 + name_words.size())), 5, 1});
  words.insert(words.end(), name_words.begin(), name_words.end());
  words.insert(words.end(), {op(16, 6), 1, 17, local_size[0], local_size[1], local_size[2]});
  words.insert(words.end(), {op(71, 4), 2, 34, 0, op(71, 4), 2, 33, binding});
  words.insert(words.end(), {op(54, 5), 3, 1, 0, 4, op(56, 1)});
  std::vector<uint8_t> bytes(words.size() * 4);
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

inline IntProgram load_times(int64_t slot, int64_t factor) {
  return IntProgram{{{IntOp::Load, slot}, {IntOp::Const, factor}, {IntOp::Mul, 0}}};
}

// floordiv(s<slot> + (d - 1), d)
inline IntProgram ceil_div(int64_t slot, int64_t d) {
  return IntProgram{{{IntOp::Load, slot},
                     {IntOp::Const, d - 1},
                     {IntOp::Add, 0},
                     {IntOp::Const, d},
                     {IntOp::FloorDiv, 0}}};
}

inline Instruction call(RegIndex dst, int64_t func, std::vector<Arg> args) {
  Instruction in;
  in.opcode = Opcode::Call;
  in.dst = dst;
  in.func = func;
  in.args = std::move(args);
  return in;
}
inline Instruction ret(RegIndex reg) {
  Instruction in;
  in.opcode = Opcode::Ret;
  in.reg = reg;
  return in;
}
inline Instruction jump(int64_t offset) {
  Instruction in;
  in.opcode = Opcode::Goto;
  in.offset = offset;
  return in;
}
inline Instruction branch(RegIndex cond, int64_t false_offset) {
  Instruction in;
  in.opcode = Opcode::If;
  in.reg = cond;
  in.offset = false_offset;
  return in;
}
inline Arg reg(int64_t r) { return {Arg::Kind::Register, r}; }
inline Arg imm(int64_t v) { return {Arg::Kind::Immediate, v}; }
inline Arg constant(int64_t c) { return {Arg::Kind::Constant, c}; }
inline Arg function(int64_t f) { return {Arg::Kind::Function, f}; }

inline FunctionEntry named(FunctionKind kind, std::string name, int64_t index = -1) {
  FunctionEntry f;
  f.kind = kind;
  f.name = std::move(name);
  f.index = index;
  return f;
}

// Function indices of the sample.
enum SampleFunction : int64_t {
  kMain = 0,
  kHelper = 1,
  kAllocShapeHeap = 2,
  kAllocTensor = 3,
  kShapeFunc = 4,
  kDense = 5,
  kMakeClosure = 6,
};

// One back end's `dense` kernel function: A and B are float32 [n, 64] (n defined by A's
// first dimension into slot 0), a scalar parameter m in slot 1, a workspace of n * 256
// bytes, one launch of the kernel over ceil(n / 64) blocks taking A, B, the workspace
// and the scalar n.
inline Backend sample_backend(KernelFormat format) {
  Backend b;
  b.format = format;
  b.target = format == KernelFormat::SpirV ? "vulkan -profile=desktop" : "cuda -arch=sm_90";
  KernelFunc kf;
  kf.name = "dense";
  for (const char* name : {"A", "B"}) {
    KernelParam p;
    p.name = name;
    p.dtype = DType::Float(32);
    KernelDim n;
    n.extent = int_load(0);
    if (p.name == "A") n.defines_slot = 0;
    KernelDim d64;
    d64.extent = int_constant(64);
    p.shape = {n, d64};
    kf.params.push_back(p);
  }
  kf.scalar_param_slots = {1};
  kf.num_slots = 2;
  kf.workspaces = {KernelWorkspace{"W", load_times(0, 256)}};
  KernelLaunchInfo launch;
  launch.kernel = 0;
  launch.buffer_args = {0, 1, 2};
  launch.scalar_args = {int_load(0)};
  launch.grid = {ceil_div(0, 64), int_constant(1), int_constant(1)};
  kf.launches = {launch};
  b.kernel_funcs = {kf};

  KernelBinary k;
  k.name = "dense_kernel0";
  k.format = format;
  if (format == KernelFormat::SpirV) {
    k.code = sample_spirv("dense_kernel0", {64, 1, 1}, 2);
    k.scalars = {ScalarType::Int32};
  } else {
    const std::string ptx =
        ".version 8.0\n.target sm_90\n.address_size 64\n"
        ".visible .entry dense_kernel0(\n.param .u64 A,\n.param .u64 B,\n.param .u64 W,\n"
        ".param .u64 n\n)\n{\nret;\n}\n";
    k.code.assign(ptx.begin(), ptx.end());
    k.scalars = {ScalarType::Int64};
    k.shared_memory_bytes = 1024;
  }
  k.block_size = {64, 1, 1};
  k.num_buffers = 3;
  b.kernels = {k};
  return b;
}

inline Executable sample_executable() {
  Executable exe;
  FunctionEntry main = named(FunctionKind::Bytecode, "main");
  main.param_names = {"x", "flag"};
  main.num_registers = 6;
  main.memory_plan = {"storage 0: 24 bytes: y", "peak: 24 bytes"};
  main.sources = {{2, "model.py:4:9"}, {4, ""}, {6, "model.py:7:13"}};
  main.code = {
      call(2, kAllocShapeHeap, {imm(3)}),                                      // 0
      call(kVoidRegister, kShapeFunc, {reg(2)}),                               // 1
      call(3, kAllocTensor, {constant(0), imm(0), constant(1), constant(5)}),  // 2
      call(kVoidRegister, kDense, {reg(0), reg(3), constant(1)}),              // 3
      branch(1, 2),                                                            // 4
      ret(3),                                                                  // 5
      call(4, kHelper, {reg(0)}),                                              // 6
      call(5, kMakeClosure, {function(kHelper), reg(4)}),                      // 7
      jump(1),                                                                 // 8
      ret(5),                                                                  // 9
  };
  FunctionEntry helper = named(FunctionKind::Bytecode, "helper");
  helper.param_names = {"y"};
  helper.num_registers = 1;
  helper.code = {ret(0)};
  exe.functions = {main,
                   helper,
                   named(FunctionKind::Packed, "vm.builtin.alloc_shape_heap"),
                   named(FunctionKind::Packed, "vm.builtin.alloc_tensor"),
                   named(FunctionKind::Host, "main_shape_func", 0),
                   named(FunctionKind::Kernel, "dense", 0),
                   named(FunctionKind::Packed, "vm.builtin.make_closure")};

  Constant tensor;  // float32 [2, 3] = 1 .. 6
  tensor.kind = Constant::Kind::Tensor;
  tensor.dtype = DType::Float(32);
  tensor.shape = {2, 3};
  std::vector<uint8_t> tensor_bytes;
  for (float v : {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.5f}) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    tensor_bytes.insert(tensor_bytes.end(), p, p + 4);
  }
  tensor.bytes = ConstantBytes(std::move(tensor_bytes));
  Constant shape;
  shape.kind = Constant::Kind::Shape;
  shape.shape = {4, 64};
  Constant str;
  str.kind = Constant::Kind::String;
  str.str = "global";
  Constant i;
  i.kind = Constant::Kind::Int;
  i.dtype = DType::Int(32);
  i.int_value = -7;
  Constant f;
  f.kind = Constant::Kind::Float;
  f.dtype = DType::Float(32);
  f.float_value = 1.5;
  Constant dt;
  dt.kind = Constant::Kind::DataType;
  dt.dtype = DType::Float(16);
  Constant any;
  any.kind = Constant::Kind::DataType;
  any.dtype = DType::Void();
  Constant bytes;  // int8 [3] = -1, 2, 127
  bytes.kind = Constant::Kind::Tensor;
  bytes.dtype = DType::Int(8);
  bytes.shape = {3};
  bytes.bytes = ConstantBytes({0xff, 2, 127});
  exe.constants = {tensor, shape, str, i, f, dt, any, bytes};

  HostFunc h;
  h.name = "main_shape_func";
  h.stores = {{1, load_times(0, 4)}, {2, ceil_div(1, 4)}};
  exe.host_funcs = {h};

  exe.backends = {sample_backend(KernelFormat::SpirV), sample_backend(KernelFormat::Ptx)};
  exe.exports = {kMain, kHelper};
  return exe;
}

}  // namespace relaxc::runtime::vm::testing
