// static-plan-block-memory seen from the VM: a chain of kernels built with and without
// the pass gives the same results (against a CPU reference), and with it the device
// pool's peak of bytes in use during the call is lower.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "driver/build.h"
#include "driver/compile.h"
#include "ir/text/parser.h"
#include "runtime/vm/storage_pool.h"
#include "runtime/vm/vm.h"
#include "tests/support/device_harness.h"

namespace relaxc::testing {
namespace {

namespace vm = runtime::vm;
using runtime::DType;
using vm::Value;

// Eight kernels in a chain, each adding one to a 256-float (1 KiB) tensor.
constexpr int kKernels = 8;
constexpr const char* kModule = R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(x: T.Buffer((256,), "float32"), y: T.Buffer((256,), "float32")):
        for i in range(256):
            with T.block("y"):
                vi = T.axis.spatial(256, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def chain(x: R.Tensor((256,), "float32")) -> R.Tensor((256,), "float32"):
        cls = Module
        a = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((256,), "float32"))
        b = R.call_tir(cls.add_one, (a,), out_sinfo=R.Tensor((256,), "float32"))
        c = R.call_tir(cls.add_one, (b,), out_sinfo=R.Tensor((256,), "float32"))
        d = R.call_tir(cls.add_one, (c,), out_sinfo=R.Tensor((256,), "float32"))
        e = R.call_tir(cls.add_one, (d,), out_sinfo=R.Tensor((256,), "float32"))
        f = R.call_tir(cls.add_one, (e,), out_sinfo=R.Tensor((256,), "float32"))
        g = R.call_tir(cls.add_one, (f,), out_sinfo=R.Tensor((256,), "float32"))
        h = R.call_tir(cls.add_one, (g,), out_sinfo=R.Tensor((256,), "float32"))
        return h
)";

struct ChainRun {
  std::vector<float> result;
  vm::StoragePool::Stats stats;  // after the call
};

ChainRun run_chain(runtime::Device& device, bool plan) {
  PipelineOptions options;
  if (!plan) options.disabled.insert("static-plan-block-memory");
  Target target = driver::target_from_device(device.limits(), TargetKind::Vulkan);
  auto exe = std::make_shared<const vm::Executable>(
      driver::build(text::parse_module(kModule, "chain.py"), {target}, options));
  vm::VirtualMachine machine(exe, device);
  std::vector<float> x(256);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f;
  Value out =
      machine.call("chain", {Value::tensor(machine.from_host(DType::Float(32), {256}, x.data()))});
  std::vector<uint8_t> bytes = machine.to_host(out.as_tensor());
  ChainRun run;
  run.result.resize(bytes.size() / sizeof(float));
  std::memcpy(run.result.data(), bytes.data(), bytes.size());
  run.stats = machine.device_pool().stats();
  return run;
}

TEST(MemoryPlan, LowerPeakAndTheSameResults) {
  std::string why_not;
  runtime::Device* device = test_device(TargetKind::Vulkan, &why_not);
  if (device == nullptr) GTEST_SKIP() << "no Vulkan device: " << why_not;
  ChainRun planned = run_chain(*device, true);
  ChainRun unplanned = run_chain(*device, false);

  std::vector<float> expected(256);
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] = static_cast<float>(i) * 0.5f + kKernels;
  EXPECT_EQ(planned.result, expected);
  EXPECT_EQ(unplanned.result, expected);

  // Without planning every output has its own storage, all held until the call returns,
  // next to the uploaded input: 1 + 8 KiB in use at the peak. With it, the seven
  // intermediates take two storages and the result a third: at most 1 + 3 KiB.
  EXPECT_EQ(unplanned.stats.peak_bytes_in_use, (1 + kKernels) * 1024u);
  EXPECT_LE(planned.stats.peak_bytes_in_use, (1 + 3) * 1024u);
}

}  // namespace
}  // namespace relaxc::testing
