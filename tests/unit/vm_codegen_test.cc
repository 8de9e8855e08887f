// Tests of VM code generation on modules written in VM form: the bytecode instruction by
// instruction (opcodes, registers, arguments), If/Goto offsets, closures and calls,
// the constant pool and its deduplication, host and kernel function entries, backends
// for several targets, and the errors for what is not in VM form.
#include "codegen/vm/vm_codegen.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "runtime/vm/vm.h"
#include "tests/support/device_harness.h"

namespace relaxc::codegen {
namespace {

using driver::build;
using driver::target_from_device;
using runtime::vm::Arg;
using runtime::vm::Constant;
using runtime::vm::Executable;
using runtime::vm::FunctionEntry;
using runtime::vm::FunctionKind;
using runtime::vm::Instruction;
using runtime::vm::Opcode;

Executable compile(const std::string& text, const std::vector<Target>& targets = {}) {
  return driver::vm_executable(text::parse_module(text, "vm_codegen_test.py"), targets);
}

const FunctionEntry& function(const Executable& exe, const std::string& name) {
  for (const FunctionEntry& f : exe.functions) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no function " << name;
  static FunctionEntry none;
  return none;
}

// The test's own notation for an instruction: "%2 = alloc_tensor(%1, i0, c3)" with the
// callee's name, "if %0 else +4", "goto +2", "ret %5". Written here so that the
// expected strings below are checked against the executable's fields directly.
std::string arg_text(const Executable& exe, const Arg& a) {
  switch (a.kind) {
    case Arg::Kind::Register:
      return "%" + std::to_string(a.value);
    case Arg::Kind::Immediate:
      return "i" + std::to_string(a.value);
    case Arg::Kind::Constant:
      return "c" + std::to_string(a.value);
    case Arg::Kind::Function:
      return "@" + exe.functions.at(static_cast<size_t>(a.value)).name;
  }
  return "?";
}

std::vector<std::string> code(const Executable& exe, const std::string& name) {
  std::vector<std::string> out;
  for (const Instruction& in : function(exe, name).code) {
    switch (in.opcode) {
      case Opcode::Call: {
        std::string s =
            in.dst == runtime::vm::kVoidRegister ? "" : "%" + std::to_string(in.dst) + " = ";
        s += exe.functions.at(static_cast<size_t>(in.func)).name + "(";
        for (size_t i = 0; i < in.args.size(); ++i) {
          s += (i ? ", " : "") + arg_text(exe, in.args[i]);
        }
        out.push_back(s + ")");
        break;
      }
      case Opcode::Ret:
        out.push_back("ret %" + std::to_string(in.reg));
        break;
      case Opcode::Goto:
        out.push_back("goto +" + std::to_string(in.offset));
        break;
      case Opcode::If:
        out.push_back("if %" + std::to_string(in.reg) + " else +" + std::to_string(in.offset));
        break;
    }
  }
  return out;
}

using Lines = std::vector<std::string>;

constexpr const char* kStraightLine = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        s = R.call_packed("vm.builtin.alloc_storage", R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=(R.Object,))
        y = R.call_packed("vm.builtin.alloc_tensor", s, R.prim_value(0), R.shape([4]), R.dtype("float32"), sinfo_args=(R.Tensor((4,), "float32"),))
        _ = R.call_packed("my_copy", x, y, sinfo_args=(R.Object,))
        k = R.memory.kill_storage(s)
        z = y
        t = (x, z)
        u = t[1]
        return u
)";

TEST(VmCodegen, StraightLineBytecode) {
  Executable exe = compile(kStraightLine);
  const FunctionEntry& main = function(exe, "main");
  EXPECT_EQ(main.kind, FunctionKind::Bytecode);
  EXPECT_EQ(main.param_names, (std::vector<std::string>{"x"}));
  // x: %0; s, y, _: %1-%3 (kill_storage clears %1); z aliases %2; t: %4; u: %5.
  EXPECT_EQ(code(exe, "main"), (Lines{
                                   "%1 = vm.builtin.alloc_storage(c0, i0, c1, c2)",
                                   "%2 = vm.builtin.alloc_tensor(%1, i0, c3, c4)",
                                   "%3 = my_copy(%0, %2)",
                                   "%1 = vm.builtin.null_value()",
                                   "%4 = vm.builtin.make_tuple(%0, %2)",
                                   "%5 = vm.builtin.tuple_getitem(%4, i1)",
                                   "ret %5",
                               }));
  EXPECT_EQ(main.num_registers, 6);
  // The module function first, then each packed function once, in order of first use.
  std::vector<std::string> names;
  for (const FunctionEntry& f : exe.functions) names.push_back(f.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"main", "vm.builtin.alloc_storage", "vm.builtin.alloc_tensor",
                                      "my_copy", "vm.builtin.null_value", "vm.builtin.make_tuple",
                                      "vm.builtin.tuple_getitem"}));
  for (size_t i = 1; i < exe.functions.size(); ++i) {
    EXPECT_EQ(exe.functions[i].kind, FunctionKind::Packed);
  }
  EXPECT_EQ(exe.exports, (std::vector<int64_t>{0}));
  ASSERT_EQ(exe.constants.size(), 5u);
  EXPECT_EQ(exe.constants[0].kind, Constant::Kind::Shape);
  EXPECT_EQ(exe.constants[0].shape, (std::vector<int64_t>{16}));
  EXPECT_EQ(exe.constants[1].kind, Constant::Kind::String);
  EXPECT_EQ(exe.constants[1].str, "global");
  EXPECT_EQ(exe.constants[2].kind, Constant::Kind::DataType);
  EXPECT_EQ(exe.constants[2].dtype, runtime::DType::UInt(8));
  EXPECT_EQ(exe.constants[3].shape, (std::vector<int64_t>{4}));
  EXPECT_EQ(exe.constants[4].dtype, runtime::DType::Float(32));
  EXPECT_NO_THROW(runtime::vm::validate_executable(exe));
}

constexpr const char* kIfElse = R"(@I.ir_module
class Module:
    @R.function
    def main(c: R.Prim("bool"), x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        if c:
            y = R.call_packed("f", x, sinfo_args=(R.Tensor((4,), "float32"),))
            r = y
        else:
            r = x
        return r
)";

TEST(VmCodegen, IfGotoOffsets) {
  Executable exe = compile(kIfElse);
  // If: pc + 1 when true, pc + offset when false; the true branch jumps past the false
  // one; both write the If's register %2.
  EXPECT_EQ(code(exe, "main"), (Lines{
                                   "if %0 else +4",
                                   "%3 = f(%1)",
                                   "%2 = vm.builtin.copy(%3)",
                                   "goto +2",
                                   "%2 = vm.builtin.copy(%1)",
                                   "ret %2",
                               }));
  EXPECT_EQ(function(exe, "main").num_registers, 4);
  EXPECT_NO_THROW(runtime::vm::validate_executable(exe));
}

constexpr const char* kClosures = R"(@I.ir_module
class Module:
    @R.function(private=True)
    def add(a: R.Tensor((4,), "float32"), b: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        r = R.call_packed("my_add", a, b, sinfo_args=(R.Tensor((4,), "float32"),))
        return r

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        clo = R.call_packed("vm.builtin.make_closure", Module.add, x, sinfo_args=(R.Callable((R.Tensor((4,), "float32"),), R.Tensor((4,), "float32")),))
        y = R.call_packed("vm.builtin.invoke_closure", clo, x, sinfo_args=(R.Tensor((4,), "float32"),))
        z = Module.add(y, x)
        f = Module.add
        w = f(z, x)
        return w
)";

TEST(VmCodegen, ClosuresAndCalls) {
  Executable exe = compile(kClosures);
  EXPECT_EQ(code(exe, "add"), (Lines{"%2 = my_add(%0, %1)", "ret %2"}));
  // A GlobalVar value is a function reference; calling a variable goes through
  // invoke_closure.
  EXPECT_EQ(code(exe, "main"), (Lines{
                                   "%1 = vm.builtin.make_closure(@add, %0)",
                                   "%2 = vm.builtin.invoke_closure(%1, %0)",
                                   "%3 = add(%2, %0)",
                                   "%4 = vm.builtin.invoke_closure(@add, %3, %0)",
                                   "ret %4",
                               }));
  // Only the public function is exported.
  ASSERT_EQ(exe.exports.size(), 1u);
  EXPECT_EQ(exe.functions[static_cast<size_t>(exe.exports[0])].name, "main");
  EXPECT_EQ(exe.find_export("main"), exe.exports[0]);
  EXPECT_EQ(exe.find_export("add"), -1);
  EXPECT_NO_THROW(runtime::vm::validate_executable(exe));
}

constexpr const char* kConstants = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Shape([2, 3]):
        a = R.call_packed("f", R.str("hi"), R.shape([2, 3]), R.prim_value(T.int32(5)), R.prim_value(T.float32(1.5)), R.dtype("float16"), R.const([1.0, 2.0], "float32"), sinfo_args=(R.Object,))
        b = R.call_packed("f", R.str("hi"), R.shape([2, 3]), R.prim_value(T.int32(5)), R.prim_value(T.float32(1.5)), R.dtype("float16"), R.const([1.0, 2.0], "float32"), R.prim_value(7), R.prim_value(T.int32(7)), sinfo_args=(R.Object,))
        return R.shape([2, 3])
)";

TEST(VmCodegen, ConstantPoolDeduplicates) {
  Executable exe = compile(kConstants);
  // int64 PrimValues are immediates; an int32 one is a constant keeping its dtype.
  EXPECT_EQ(code(exe, "main"), (Lines{
                                   "%1 = f(c0, c1, c2, c3, c4, c5)",
                                   "%2 = f(c0, c1, c2, c3, c4, c5, i7, c6)",
                                   "%3 = vm.builtin.copy(c1)",
                                   "ret %3",
                               }));
  ASSERT_EQ(exe.constants.size(), 7u);
  EXPECT_EQ(exe.constants[0].str, "hi");
  EXPECT_EQ(exe.constants[1].kind, Constant::Kind::Shape);
  EXPECT_EQ(exe.constants[1].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(exe.constants[2].kind, Constant::Kind::Int);
  EXPECT_EQ(exe.constants[2].dtype, runtime::DType::Int(32));
  EXPECT_EQ(exe.constants[2].int_value, 5);
  EXPECT_EQ(exe.constants[3].kind, Constant::Kind::Float);
  EXPECT_EQ(exe.constants[3].dtype, runtime::DType::Float(32));
  EXPECT_EQ(exe.constants[3].float_value, 1.5);
  EXPECT_EQ(exe.constants[4].kind, Constant::Kind::DataType);
  EXPECT_EQ(exe.constants[4].dtype, runtime::DType::Float(16));
  EXPECT_EQ(exe.constants[5].kind, Constant::Kind::Tensor);
  EXPECT_EQ(exe.constants[5].shape, (std::vector<int64_t>{2}));
  float expected[2] = {1.0f, 2.0f};
  ASSERT_EQ(exe.constants[5].bytes.size(), sizeof(expected));
  EXPECT_EQ(std::memcmp(exe.constants[5].bytes.data(), expected, sizeof(expected)), 0);
  EXPECT_EQ(exe.constants[6].int_value, 7);
  EXPECT_EQ(exe.constants[6].dtype, runtime::DType::Int(32));
}

constexpr const char* kHostAndKernel = R"(@I.ir_module
class Module:
    @T.prim_func
    def add(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]

    @T.prim_func
    def main_shape_func(H: T.Buffer((T.int64(2),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[1] = H[0] * T.int64(4)

    @T.prim_func
    def scale(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                B[vi] = A[vi] * T.float32(2)

    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32"), heap: R.Tensor((2,), "int64")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        _ = Module.main_shape_func(heap)
        _1 = Module.add(x, y, y)
        _2 = Module.scale(y, x)
        return x
)";

TEST(VmCodegen, HostAndKernelFunctions) {
  std::vector<Target> targets = {parse_target("vulkan -profile=desktop"),
                                 parse_target("cuda -arch=sm_80")};
  Executable exe = compile(kHostAndKernel, targets);
  const FunctionEntry& add = function(exe, "add");
  const FunctionEntry& scale = function(exe, "scale");
  const FunctionEntry& shape_func = function(exe, "main_shape_func");
  EXPECT_EQ(add.kind, FunctionKind::Kernel);
  EXPECT_EQ(add.index, 0);
  EXPECT_EQ(scale.kind, FunctionKind::Kernel);
  EXPECT_EQ(scale.index, 1);
  EXPECT_EQ(shape_func.kind, FunctionKind::Host);
  EXPECT_EQ(shape_func.index, 0);
  EXPECT_EQ(code(exe, "main"), (Lines{"%3 = main_shape_func(%2)", "%4 = add(%0, %1, %1)",
                                      "%5 = scale(%1, %0)", "ret %0"}));
  // The host function: heap[1] = heap[0] * 4.
  ASSERT_EQ(exe.host_funcs.size(), 1u);
  ASSERT_EQ(exe.host_funcs[0].stores.size(), 1u);
  EXPECT_EQ(exe.host_funcs[0].stores[0].first, 1);
  EXPECT_EQ(runtime::vm::evaluate_int_program(exe.host_funcs[0].stores[0].second,
                                              std::vector<int64_t>{6, 0}, "test"),
            24);
  // One backend per target, the same kernel functions in the same order.
  ASSERT_EQ(exe.backends.size(), 2u);
  EXPECT_EQ(exe.backends[0].format, runtime::KernelFormat::SpirV);
  EXPECT_EQ(exe.backends[1].format, runtime::KernelFormat::Ptx);
  for (const runtime::vm::Backend& b : exe.backends) {
    ASSERT_EQ(b.kernel_funcs.size(), 2u);
    EXPECT_EQ(b.kernel_funcs[0].name, "add");
    EXPECT_EQ(b.kernel_funcs[1].name, "scale");
    EXPECT_EQ(b.kernel_funcs[0].params.size(), 3u);
    ASSERT_EQ(b.kernels.size(), 2u);
    EXPECT_EQ(b.kernel_funcs[0].launches.at(0).kernel, 0);
    EXPECT_EQ(b.kernel_funcs[1].launches.at(0).kernel, 1);
    EXPECT_EQ(b.kernels[0].format, b.format);
  }
  EXPECT_NO_THROW(runtime::vm::validate_executable(exe));
}

// The message of the UserError that compiling `text` throws, with its line.
std::string codegen_error(const std::string& text) {
  try {
    compile(text);
  } catch (const UserError& e) {
    const Diagnostic& d = e.diagnostics().front();
    return std::to_string(d.span.line) + ": " + d.message;
  }
  return "<no error>";
}

TEST(VmCodegen, RefusesWhatIsNotInVmForm) {
  EXPECT_EQ(codegen_error(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y
)"),
            "5: main (binding 'y'): R.add is not in VM form (vm-builtin-lower turns VM "
            "operators into builtins; a computing operator must be written as R.call_tir)");
  std::string symbolic = codegen_error(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Shape(ndim=1):
        n = T.int64()
        s = R.call_packed("f", R.shape([n]), sinfo_args=(R.Shape(ndim=1),))
        return s
)");
  EXPECT_NE(symbolic.find("main (binding 's'): a shape with symbolic dimensions is not in VM form"),
            std::string::npos)
      << symbolic;
  std::string cast = codegen_error(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor((4,), "float32"):
        y = R.match_cast(x, R.Tensor((4,), "float32"))
        return y
)");
  EXPECT_EQ(cast,
            "5: main (binding 'y'): R.match_cast is not in VM form (vm-shape-lower turns it "
            "into run-time checks)");
  std::string no_target = [] {
    try {
      compile(kHostAndKernel);
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  }();
  EXPECT_NE(no_target.find("the module has TensorIR kernels ('add', ...) but no target"),
            std::string::npos)
      << no_target;
}

// A module as a user writes it: call_tir with a symbolic batch, a reshape by a shape
// expression of n; out = reshape((x + y) + x).
constexpr const char* kAddTwice = R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)))
        B = T.match_buffer(var_B, (n, T.int64(4)))
        C = T.match_buffer(var_C, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                C[vi, vj] = A[vi, vj] + B[vi, vj]

    @R.function
    def main(x: R.Tensor(("n", 4), "float32"), y: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n * 4",), "float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            s = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 4), "float32"))
            t = R.call_tir(cls.add, (s, x), out_sinfo=R.Tensor((n, 4), "float32"))
            r = R.reshape(t, R.shape([n * 4]))
            R.output(r)
        return r
)";

TEST(VmBuild, PipelinePrintsAndTimesEachPass) {
  std::ostringstream printed, timing;
  PipelineOptions options;
  options.print_after_each = &printed;
  options.timing = &timing;
  Executable exe = build(text::parse_module(kAddTwice, "add_twice.py"),
                         {parse_target("vulkan -profile=desktop")}, options);
  EXPECT_NO_THROW(runtime::vm::validate_executable(exe));
  for (const char* pass :
       {"fuse-ops", "fuse-tir", "lambda-lift", "to-non-dataflow", "remove-purity-checking",
        "call-tir-rewrite", "static-plan-block-memory", "vm-builtin-lower", "vm-shape-lower"}) {
    EXPECT_NE(printed.str().find(std::string("# after ") + pass + "\n"), std::string::npos) << pass;
    EXPECT_NE(timing.str().find(std::string(pass) + " "), std::string::npos) << pass;
  }
  EXPECT_NE(exe.find_export("main"), -1);
  // The two adds are fused into one kernel function.
  EXPECT_EQ(function(exe, "fused_add_add").kind, FunctionKind::Kernel);
}

class VmBuildOnDevice : public ::testing::TestWithParam<TargetKind> {};

TEST_P(VmBuildOnDevice, RunsAgainstCpuReference) {
  TargetKind kind = GetParam();
  std::string why_not;
  runtime::Device* device = testing::test_device(kind, &why_not);
  if (device == nullptr) {
    GTEST_SKIP() << "no " << testing::device_kind_name(kind) << " device: " << why_not;
  }
  Target target = target_from_device(device->limits(), kind);
  auto exe = std::make_shared<const Executable>(
      build(text::parse_module(kAddTwice, "add_twice.py"), {target}));
  runtime::vm::VirtualMachine vm(exe, *device);
  for (int64_t n : {1, 7, 1024}) {
    std::vector<float> x(static_cast<size_t>(n * 4)), y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(i % 13) - 6.0f;
      y[i] = static_cast<float>(i % 5) * 0.5f;
    }
    runtime::vm::Value out = vm.call(
        "main",
        {runtime::vm::Value::tensor(vm.from_host(runtime::DType::Float(32), {n, 4}, x.data())),
         runtime::vm::Value::tensor(vm.from_host(runtime::DType::Float(32), {n, 4}, y.data()))});
    const runtime::vm::Tensor& t = out.as_tensor();
    EXPECT_EQ(t.shape, (std::vector<int64_t>{n * 4}));
    std::vector<uint8_t> bytes = vm.to_host(t);
    ASSERT_EQ(bytes.size(), x.size() * sizeof(float));
    std::vector<float> got(x.size());
    std::memcpy(got.data(), bytes.data(), bytes.size());
    for (size_t i = 0; i < x.size(); ++i) {
      ASSERT_EQ(got[i], (x[i] + y[i]) + x[i]) << "n=" << n << " element " << i;
    }
  }
  // A mismatched batch is refused with the argument named; the VM stays usable.
  std::vector<float> a(12), b(20);
  try {
    vm.call(
        "main",
        {runtime::vm::Value::tensor(vm.from_host(runtime::DType::Float(32), {3, 4}, a.data())),
         runtime::vm::Value::tensor(vm.from_host(runtime::DType::Float(32), {5, 4}, b.data()))});
    ADD_FAILURE() << "no error";
  } catch (const runtime::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("argument 'y'"), std::string::npos) << e.what();
  }
  runtime::vm::Value again = vm.call(
      "main",
      {runtime::vm::Value::tensor(vm.from_host(runtime::DType::Float(32), {3, 4}, a.data())),
       runtime::vm::Value::tensor(vm.from_host(runtime::DType::Float(32), {3, 4}, a.data()))});
  EXPECT_EQ(again.as_tensor().shape, (std::vector<int64_t>{12}));
  std::vector<std::string> messages = testing::validation_messages(kind);
  EXPECT_TRUE(messages.empty()) << "validation layer: " << messages.front();
}

INSTANTIATE_TEST_SUITE_P(Devices, VmBuildOnDevice,
                         ::testing::Values(TargetKind::Vulkan, TargetKind::Cuda),
                         [](const ::testing::TestParamInfo<TargetKind>& info) {
                           return testing::device_kind_name(info.param);
                         });

}  // namespace
}  // namespace relaxc::codegen
