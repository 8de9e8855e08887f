// End-to-end tests of the minimum build: the RFC's examples in TVMScript parsed, built
// (codegen::build: the VM lowering pipeline, then bytecode and kernels for the device's
// target) and run by the VM on each device present (Vulkan with its validation layer;
// CUDA where a GPU is), for several values of the symbolic sizes, against CPU references
// computed here. Also: failing run-time checks name the place and leave the VM usable,
// and an executable saved and loaded again gives the same results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "driver/build.h"
#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/text/parser.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/vm/executable.h"
#include "runtime/vm/vm.h"
#include "runtime/vulkan/vulkan_device.h"
#include "tests/support/device_harness.h"
#include "tests/support/errors.h"

namespace relaxc::testing {
namespace {

namespace vm = runtime::vm;
using runtime::DType;
using vm::Value;

// The module: small TensorIR kernels over symbolic n and m, and one Relax function per
// example of the RFC.
constexpr const char* kModule = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        m = T.int64()
        x = T.match_buffer(var_x, (n, m))
        y = T.match_buffer(var_y, (n, m))
        z = T.match_buffer(var_z, (n, m))
        for i, j in T.grid(n, m):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj], y[vi, vj])
                T.writes(z[vi, vj])
                z[vi, vj] = x[vi, vj] + y[vi, vj]

    @T.prim_func(private=True)
    def mul(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        m = T.int64()
        x = T.match_buffer(var_x, (n, m))
        y = T.match_buffer(var_y, (n, m))
        z = T.match_buffer(var_z, (n, m))
        for i, j in T.grid(n, m):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj], y[vi, vj])
                T.writes(z[vi, vj])
                z[vi, vj] = x[vi, vj] * y[vi, vj]

    @T.prim_func(private=True)
    def row_sum(var_x: T.handle, var_s: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        m = T.int64()
        x = T.match_buffer(var_x, (n, m))
        s = T.match_buffer(var_s, (n,))
        for i, k in T.grid(n, m):
            with T.block("s"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(x[vi, vk])
                T.writes(s[vi])
                with T.init():
                    s[vi] = T.float32(0)
                s[vi] = s[vi] + x[vi, vk]

    @T.prim_func(private=True)
    def double_and_shift(var_x: T.handle, var_a: T.handle, var_b: T.handle):
        T.func_attr({"tir.noalias": True})
        k = T.int64()
        x = T.match_buffer(var_x, (k,))
        a = T.match_buffer(var_a, (k,))
        b = T.match_buffer(var_b, (k,))
        for i in range(k):
            with T.block("a"):
                vi = T.axis.spatial(k, i)
                T.reads(x[vi])
                T.writes(a[vi])
                a[vi] = x[vi] * T.float32(2)
        for i in range(k):
            with T.block("b"):
                vi = T.axis.spatial(k, i)
                T.reads(x[vi])
                T.writes(b[vi])
                b[vi] = x[vi] + T.float32(1)

    @R.function
    def rfc_dataflow(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tensor(("n",), dtype="float32")):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, m), dtype="float32"))
            lv1 = R.call_tir(cls.mul, (lv0, x), out_sinfo=R.Tensor((n, m), dtype="float32"))
            lv2 = R.call_tir(cls.row_sum, (lv1,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = (lv1, lv2)
            R.output(gv)
        return gv

    @R.function(pure=False)
    def with_packed(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tensor((1,), dtype="float32")):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((n, m), dtype="float32"))
            R.output(lv0)
        total = R.call_packed("e2e.total", lv0, sinfo_args=(R.Tensor((1,), dtype="float32"),))
        gv = (lv0, total)
        return gv

    @R.function
    def with_dps(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.call_dps_packed("e2e.negate", (x,), out_sinfo=R.Tensor((n, m), dtype="float32"))
            lv1 = R.call_tir(cls.mul, (lv0, x), out_sinfo=R.Tensor((n, m), dtype="float32"))
            R.output(lv1)
        return lv1

    @R.function
    def with_match_cast(x: R.Tensor(dtype="float32", ndim=2), y: R.Tensor(dtype="float32", ndim=1)) -> R.Tuple(R.Tensor(dtype="float32", ndim=1), R.Tensor(dtype="float32", ndim=1)):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.match_cast(x, R.Tensor((n, m), dtype="float32"))
            lv1 = R.match_cast(y, R.Tensor((n,), dtype="float32"))
            lv2 = R.call_tir(cls.row_sum, (lv0,), out_sinfo=R.Tensor((n,), dtype="float32"))
            gv = (lv2, lv1)
            R.output(gv)
        return gv

    @R.function
    def with_fixed_cast(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.match_cast(x, R.Tensor((n, 7), dtype="float32"))
            lv1 = R.call_tir(cls.row_sum, (lv0,), out_sinfo=R.Tensor((n,), dtype="float32"))
            R.output(lv1)
        return lv1

    @R.function
    def choose(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n", "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        cls = Module
        if c:
            r = R.call_tir(cls.add, (x, x), out_sinfo=R.Tensor((n, m), dtype="float32"))
        else:
            r = R.call_tir(cls.mul, (x, x), out_sinfo=R.Tensor((n, m), dtype="float32"))
        return r

    @R.function
    def helper(x: R.Tensor(("k",), dtype="float32")) -> R.Tuple(R.Tensor(("k",), dtype="float32"), R.Tensor(("k",), dtype="float32")):
        k = T.int64()
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.double_and_shift, (x,), out_sinfo=[R.Tensor((k,), dtype="float32"), R.Tensor((k,), dtype="float32")])
            R.output(gv)
        return gv

    @R.function
    def calls_helper(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tuple(R.Tensor(("n * m",), dtype="float32"), R.Tensor(("n * m",), dtype="float32")):
        n = T.int64()
        m = T.int64()
        cls = Module
        with R.dataflow():
            flat = R.reshape(x, R.shape([n * m]))
            gv = cls.helper(flat)
            R.output(gv)
        return gv
)";

struct Size {
  int64_t n, m;
};
// The symbolic sizes each example runs with: 1, 7 and 1024 for each of n and m.
constexpr Size kSizes[] = {{1, 1}, {1, 7}, {7, 1}, {7, 7}, {1024, 7}, {7, 1024}};

std::string size_name(Size s) { return "n=" + std::to_string(s.n) + " m=" + std::to_string(s.m); }

// Small exact binary fractions, different for each seed.
std::vector<float> values(int64_t count, int seed) {
  std::vector<float> v(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    v[i] = static_cast<float>((i * 37 + seed * 11) % 19 - 9) / 8.0f;
  }
  return v;
}

std::vector<float> read_floats(vm::VirtualMachine& machine, const Value& value) {
  const vm::Tensor& t = value.as_tensor();
  EXPECT_EQ(t.dtype, DType::Float(32));
  std::vector<uint8_t> bytes = machine.to_host(t);
  std::vector<float> out(bytes.size() / sizeof(float));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
  return out;
}

void expect_close(const std::vector<float>& actual, const std::vector<float>& expected,
                  const std::string& what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    double tolerance = 1e-4 + 1e-5 * std::fabs(expected[i]);
    ASSERT_NEAR(actual[i], expected[i], tolerance) << what << ", element " << i;
  }
}

std::vector<float> row_sums(const std::vector<float>& x, Size s) {
  std::vector<float> out(static_cast<size_t>(s.n), 0.0f);
  for (int64_t i = 0; i < s.n; ++i) {
    double acc = 0;
    for (int64_t j = 0; j < s.m; ++j) acc += x[i * s.m + j];
    out[i] = static_cast<float>(acc);
  }
  return out;
}

// The host functions the module calls: "e2e.total" (call_packed: the sum of a tensor's
// elements, as a new device tensor of one element) and "e2e.negate" (call_dps_packed:
// writes -x into its destination).
void register_host_functions() {
  vm::register_packed_func("e2e.total",
                           [](vm::VirtualMachine& machine, std::span<const Value> args) {
                             if (args.size() != 1)
                               throw runtime::RuntimeError("e2e.total takes one tensor");
                             std::vector<float> x = read_floats(machine, args[0]);
                             float total = 0;
                             for (float v : x) total += v;
                             return Value::tensor(machine.from_host(DType::Float(32), {1}, &total));
                           });
  vm::register_packed_func(
      "e2e.negate", [](vm::VirtualMachine& machine, std::span<const Value> args) {
        if (args.size() != 2) throw runtime::RuntimeError("e2e.negate takes (x, out)");
        std::vector<float> x = read_floats(machine, args[0]);
        for (float& v : x) v = -v;
        const vm::Tensor& out = args[1].as_tensor();
        if (out.num_bytes() != x.size() * sizeof(float) || out.on_host()) {
          throw runtime::RuntimeError("e2e.negate: the destination does not match");
        }
        machine.device().upload(out.storage->buffer, static_cast<size_t>(out.byte_offset), x.data(),
                                out.num_bytes());
        return Value();
      });
}

class VmE2eTest : public ::testing::TestWithParam<TargetKind> {
 protected:
  void SetUp() override {
    std::string why_not;
    device_ = test_device(GetParam(), &why_not);
    if (device_ == nullptr)
      GTEST_SKIP() << "no " << device_kind_name(GetParam()) << ": " << why_not;
    register_host_functions();
    messages_before_ = validation_messages(GetParam()).size();
  }
  // The validation layer reported nothing during the test.
  void TearDown() override {
    if (device_ == nullptr) return;
    std::vector<std::string> messages = validation_messages(GetParam());
    messages.erase(messages.begin(), messages.begin() + static_cast<std::ptrdiff_t>(std::min(
                                                            messages_before_, messages.size())));
    EXPECT_EQ(messages, std::vector<std::string>{});
  }

  // The module built once per device kind for the device's own target.
  std::shared_ptr<const vm::Executable> executable() {
    static std::map<TargetKind, std::shared_ptr<const vm::Executable>> built;
    auto it = built.find(GetParam());
    if (it != built.end()) return it->second;
    IRModule module = text::parse_module(kModule, "e2e.py");
    Target target = driver::target_from_device(device_->limits(), GetParam());
    target.vulkan_version = 11;
    auto exe = std::make_shared<const vm::Executable>(driver::build(module, {target}));
    built[GetParam()] = exe;
    return exe;
  }

  Value tensor(vm::VirtualMachine& machine, const std::vector<float>& data,
               std::vector<int64_t> shape) {
    return Value::tensor(machine.from_host(DType::Float(32), std::move(shape), data.data()));
  }

  runtime::Device* device_ = nullptr;
  size_t messages_before_ = 0;
};

TEST_P(VmE2eTest, DataflowBlockOfCallTirsWithSymbolicSizes) {
  vm::VirtualMachine machine(executable(), *device_);
  for (Size s : kSizes) {
    std::vector<float> x = values(s.n * s.m, 1), y = values(s.n * s.m, 2);
    Value out = machine.call("rfc_dataflow",
                             {tensor(machine, x, {s.n, s.m}), tensor(machine, y, {s.n, s.m})});
    ASSERT_EQ(out.as_tuple().size(), 2u);
    std::vector<float> lv1(x.size());
    for (size_t i = 0; i < x.size(); ++i) lv1[i] = (x[i] + y[i]) * x[i];
    EXPECT_EQ(out.as_tuple()[0].as_tensor().shape, (std::vector<int64_t>{s.n, s.m}));
    EXPECT_EQ(out.as_tuple()[1].as_tensor().shape, (std::vector<int64_t>{s.n}));
    expect_close(read_floats(machine, out.as_tuple()[0]), lv1, "lv1, " + size_name(s));
    expect_close(read_floats(machine, out.as_tuple()[1]), row_sums(lv1, s), "lv2, " + size_name(s));
  }
}

TEST_P(VmE2eTest, CallPackedOutsideTheDataflowBlock) {
  vm::VirtualMachine machine(executable(), *device_);
  for (Size s : kSizes) {
    std::vector<float> x = values(s.n * s.m, 3);
    Value out = machine.call("with_packed", {tensor(machine, x, {s.n, s.m})});
    std::vector<float> doubled(x.size());
    double total = 0;
    for (size_t i = 0; i < x.size(); ++i) total += doubled[i] = 2 * x[i];
    expect_close(read_floats(machine, out.as_tuple()[0]), doubled, "lv0, " + size_name(s));
    expect_close(read_floats(machine, out.as_tuple()[1]), {static_cast<float>(total)},
                 "total, " + size_name(s));
  }
}

TEST_P(VmE2eTest, CallDpsPacked) {
  vm::VirtualMachine machine(executable(), *device_);
  for (Size s : kSizes) {
    std::vector<float> x = values(s.n * s.m, 4);
    Value out = machine.call("with_dps", {tensor(machine, x, {s.n, s.m})});
    std::vector<float> expected(x.size());
    for (size_t i = 0; i < x.size(); ++i) expected[i] = -x[i] * x[i];
    expect_close(read_floats(machine, out), expected, size_name(s));
  }
}

TEST_P(VmE2eTest, MatchCastBindsNewShapeVariables) {
  vm::VirtualMachine machine(executable(), *device_);
  for (Size s : kSizes) {
    std::vector<float> x = values(s.n * s.m, 5), y = values(s.n, 6);
    Value out = machine.call("with_match_cast",
                             {tensor(machine, x, {s.n, s.m}), tensor(machine, y, {s.n})});
    expect_close(read_floats(machine, out.as_tuple()[0]), row_sums(x, s), size_name(s));
    expect_close(read_floats(machine, out.as_tuple()[1]), y, size_name(s));
  }
}

TEST_P(VmE2eTest, IfOnABooleanTensor) {
  vm::VirtualMachine machine(executable(), *device_);
  for (Size s : kSizes) {
    std::vector<float> x = values(s.n * s.m, 7);
    for (bool c : {true, false}) {
      uint8_t flag = c ? 1 : 0;
      Value cond = Value::tensor(machine.from_host(DType::Bool(), {}, &flag));
      Value out = machine.call("choose", {cond, tensor(machine, x, {s.n, s.m})});
      std::vector<float> expected(x.size());
      for (size_t i = 0; i < x.size(); ++i) expected[i] = c ? x[i] + x[i] : x[i] * x[i];
      expect_close(read_floats(machine, out), expected,
                   std::string(c ? "then, " : "else, ") + size_name(s));
    }
  }
}

TEST_P(VmE2eTest, AFunctionCallingAnotherWithTupleOutputs) {
  vm::VirtualMachine machine(executable(), *device_);
  for (Size s : kSizes) {
    std::vector<float> x = values(s.n * s.m, 8);
    Value out = machine.call("calls_helper", {tensor(machine, x, {s.n, s.m})});
    ASSERT_EQ(out.as_tuple().size(), 2u);
    std::vector<float> doubled(x.size()), shifted(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
      doubled[i] = 2 * x[i];
      shifted[i] = x[i] + 1;
    }
    EXPECT_EQ(out.as_tuple()[0].as_tensor().shape, (std::vector<int64_t>{s.n * s.m}));
    expect_close(read_floats(machine, out.as_tuple()[0]), doubled, size_name(s));
    expect_close(read_floats(machine, out.as_tuple()[1]), shifted, size_name(s));
  }
}

TEST_P(VmE2eTest, FailingChecksNameThePlaceAndTheVmStaysUsable) {
  vm::VirtualMachine machine(executable(), *device_);
  std::vector<float> x = values(3 * 5, 9);
  std::string cast = runtime_error_of([&] {
    machine.call("with_fixed_cast", {tensor(machine, x, {3, 5})});
  });
  EXPECT_NE(cast.find("with_fixed_cast: match_cast 'lv0' (e2e.py:"), std::string::npos) << cast;
  EXPECT_NE(cast.find("expected R.Tensor((n, 7), dtype=\"float32\"): dimension 1 is 5, expected 7"),
            std::string::npos)
      << cast;

  // y's first dimension must be the n that x bound.
  std::vector<float> y = values(4, 10);
  std::string bound = runtime_error_of([&] {
    machine.call("with_match_cast", {tensor(machine, x, {3, 5}), tensor(machine, y, {4})});
  });
  EXPECT_NE(bound.find("with_match_cast: match_cast 'lv1' (e2e.py:"), std::string::npos) << bound;
  EXPECT_NE(bound.find("dimension 0 is 4, expected 3"), std::string::npos) << bound;

  // Arguments: a dimension that disagrees with one bound earlier, a wrong dtype, a wrong ndim.
  std::vector<float> wide = values(3 * 6, 11);
  std::string dim = runtime_error_of([&] {
    machine.call("rfc_dataflow", {tensor(machine, x, {3, 5}), tensor(machine, wide, {3, 6})});
  });
  EXPECT_NE(dim.find("rfc_dataflow: argument 'y' (e2e.py:"), std::string::npos) << dim;
  EXPECT_NE(dim.find("expected R.Tensor((n, m), dtype=\"float32\"): dimension 1 is 6, expected 5"),
            std::string::npos)
      << dim;
  std::vector<int32_t> ints(15, 1);
  std::string dtype = runtime_error_of([&] {
    machine.call("rfc_dataflow",
                 {Value::tensor(machine.from_host(DType::Int(32), {3, 5}, ints.data())),
                  tensor(machine, x, {3, 5})});
  });
  EXPECT_NE(dtype.find("rfc_dataflow: argument 'x' (e2e.py:"), std::string::npos) << dtype;
  EXPECT_NE(dtype.find("dtype is int32, expected float32"), std::string::npos) << dtype;
  std::string ndim =
      runtime_error_of([&] { machine.call("with_dps", {tensor(machine, x, {15})}); });
  EXPECT_NE(ndim.find("with_dps: argument 'x' (e2e.py:"), std::string::npos) << ndim;
  EXPECT_NE(ndim.find("ndim is 1, expected 2"), std::string::npos) << ndim;

  // The same VM then runs correct calls.
  std::vector<float> ok = values(3 * 7, 12);
  Value out = machine.call("with_fixed_cast", {tensor(machine, ok, {3, 7})});
  expect_close(read_floats(machine, out), row_sums(ok, {3, 7}), "after the errors");
}

TEST_P(VmE2eTest, SavedAndLoadedGivesTheSameResults) {
  std::shared_ptr<const vm::Executable> built = executable();
  std::vector<uint8_t> bytes = vm::save_executable(*built);
  auto loaded = std::make_shared<const vm::Executable>(vm::load_executable(bytes));
  EXPECT_TRUE(*loaded == *built);
  vm::VirtualMachine from_build(built, *device_);
  vm::VirtualMachine from_file(loaded, *device_);
  for (Size s : {Size{7, 7}, Size{1024, 7}}) {
    std::vector<float> x = values(s.n * s.m, 13), y = values(s.n * s.m, 14);
    for (const char* name : {"rfc_dataflow", "calls_helper"}) {
      std::vector<Value> args_a = {tensor(from_build, x, {s.n, s.m})};
      std::vector<Value> args_b = {tensor(from_file, x, {s.n, s.m})};
      if (std::string(name) == "rfc_dataflow") {
        args_a.push_back(tensor(from_build, y, {s.n, s.m}));
        args_b.push_back(tensor(from_file, y, {s.n, s.m}));
      }
      Value a = from_build.call(name, args_a);
      Value b = from_file.call(name, args_b);
      for (size_t i = 0; i < 2; ++i) {
        EXPECT_EQ(read_floats(from_build, a.as_tuple()[i]), read_floats(from_file, b.as_tuple()[i]))
            << name << " output " << i << ", " << size_name(s);
      }
    }
  }
}

// Several VMs on several threads at once, all running one loaded executable: each VM
// has its own registers, shape heap and pools; `on_device(t)` gives thread t's device
// (one shared by all, whose operations are locked, or one each). Each thread checks its
// own results, with inputs and sizes of its own, so that a VM seeing another's registers
// or memory would fail.
void run_vms_on_threads(const std::shared_ptr<const vm::Executable>& exe,
                        const std::function<runtime::Device&(int)>& on_device) {
  constexpr int kThreads = 4;
  constexpr int kCallsPerThread = 6;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        vm::VirtualMachine machine(exe, on_device(t));
        for (int call = 0; call < kCallsPerThread; ++call) {
          Size s = {1 + 3 * t + call, 5 + 17 * call + t};
          std::vector<float> x = values(s.n * s.m, 20 + t), y = values(s.n * s.m, 30 + call);
          auto upload = [&](const std::vector<float>& v) {
            return Value::tensor(machine.from_host(DType::Float(32), {s.n, s.m}, v.data()));
          };
          Value out = machine.call("rfc_dataflow", {upload(x), upload(y)});
          std::vector<float> lv1(x.size());
          for (size_t i = 0; i < x.size(); ++i) lv1[i] = (x[i] + y[i]) * x[i];
          auto check = [&](const Value& v, const std::vector<float>& expected, const char* what) {
            std::vector<uint8_t> bytes = machine.to_host(v.as_tensor());
            std::vector<float> got(bytes.size() / sizeof(float));
            std::memcpy(got.data(), bytes.data(), got.size() * sizeof(float));
            for (size_t i = 0; i < expected.size() && got.size() == expected.size(); ++i) {
              if (std::fabs(got[i] - expected[i]) <= 1e-4 + 1e-5 * std::fabs(expected[i])) continue;
              throw std::runtime_error(std::string(what) + " element " + std::to_string(i) +
                                       " is " + std::to_string(got[i]) + ", expected " +
                                       std::to_string(expected[i]));
            }
            if (got.size() != expected.size()) {
              throw std::runtime_error(std::string(what) + " has " + std::to_string(got.size()) +
                                       " elements, expected " + std::to_string(expected.size()));
            }
          };
          check(out.as_tuple()[0], lv1, "lv1");
          check(out.as_tuple()[1], row_sums(lv1, s), "lv2");
        }
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

TEST_P(VmE2eTest, SeveralVmsOnThreadsShareOneExecutableAndOneDevice) {
  run_vms_on_threads(executable(), [&](int) -> runtime::Device& { return *device_; });
}

TEST_P(VmE2eTest, SeveralVmsOnThreadsEachWithItsOwnDevice) {
  // Opened one after another (not on the threads), each on the test device's GPU.
  std::vector<std::unique_ptr<runtime::Device>> devices;
  std::vector<runtime::VulkanDevice*> vulkan_devices;
  for (int t = 0; t < 4; ++t) {
    if (GetParam() == TargetKind::Vulkan) {
      runtime::VulkanOptions options;
      options.device = device_->limits().name;
      options.validation = true;
      auto device = runtime::open_vulkan_device(options);
      vulkan_devices.push_back(device.get());
      devices.push_back(std::move(device));
    } else {
      devices.push_back(runtime::open_cuda_device());
    }
  }
  run_vms_on_threads(executable(), [&](int t) -> runtime::Device& { return *devices[t]; });
  for (runtime::VulkanDevice* device : vulkan_devices) {
    EXPECT_EQ(device->validation_messages(), std::vector<std::string>{});
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, VmE2eTest,
                         ::testing::Values(TargetKind::Vulkan, TargetKind::Cuda),
                         [](const ::testing::TestParamInfo<TargetKind>& info) {
                           return device_kind_name(info.param);
                         });

}  // namespace
}  // namespace relaxc::testing
