// embed_mlp: the embedding API of the runtime, linked alone (no compiler, no LLVM, no
// SPIRV-Tools): loads an executable built by `relaxc build examples/mlp.py`, runs its
// `main` on the best device present on three .npy inputs, and writes the result.
//
//   embed_mlp model.rxe images.npy w.npy b.npy out.npy [--threads N]
//
// With --threads N it then runs `main` again on N threads at once, as a server would:
// the loaded executable and the device are shared, each thread has its own
// VirtualMachine (registers, shape heap, storage pools) and calls `main` 4 times, and
// every result must equal the first one, bit for bit.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "runtime/npy.h"
#include "runtime/open_device.h"
#include "runtime/vm/vm.h"

namespace rt = relaxc::runtime;
namespace vm = relaxc::runtime::vm;

namespace {

// With --threads, how many times each thread's VM runs `main`.
constexpr int kCallsPerThread = 4;

// Runs `main` on `inputs` with `machine`: the result, read back to the host.
rt::NpyArray run_main(vm::VirtualMachine& machine, const std::vector<rt::NpyArray>& inputs) {
  std::vector<vm::Value> args;
  for (const rt::NpyArray& input : inputs) {
    args.push_back(
        vm::Value::tensor(machine.from_host(input.dtype, input.shape, input.data.data())));
  }
  const vm::Tensor out = machine.call("main", std::move(args)).as_tensor();
  return rt::NpyArray{out.dtype, out.shape, machine.to_host(out)};
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 0;
  if (argc == 8 && std::string(argv[6]) == "--threads") {
    threads = std::atoi(argv[7]);
    if (threads < 1 || threads > 64) {
      std::fprintf(stderr, "embed_mlp: error: --threads takes 1 to 64, got '%s'\n", argv[7]);
      return 2;
    }
  } else if (argc != 6) {
    std::fprintf(stderr,
                 "usage: embed_mlp model.rxe images.npy w.npy b.npy out.npy [--threads N]\n");
    return 2;
  }
  try {
    auto exe = std::make_shared<const vm::Executable>(vm::load_executable_file(argv[1]));
    std::unique_ptr<rt::Device> device = rt::open_device("auto");
    std::vector<rt::NpyArray> inputs;
    for (int i = 2; i < 5; ++i) inputs.push_back(rt::read_npy(argv[i]));

    const rt::NpyArray result = [&] {
      vm::VirtualMachine machine(exe, *device);
      return run_main(machine, inputs);
    }();
    rt::write_npy(argv[5], result);
    std::printf("%s: main -> %s (%zu values)\n", device->limits().name.c_str(),
                result.dtype.str().c_str(),
                result.data.size() / static_cast<size_t>(result.dtype.bytes()));

    if (threads > 0) {
      std::vector<std::string> failures(static_cast<size_t>(threads));
      std::vector<std::thread> workers;
      for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
          try {
            vm::VirtualMachine machine(exe, *device);
            for (int call = 0; call < kCallsPerThread && failures[t].empty(); ++call) {
              if (run_main(machine, inputs).data != result.data) {
                failures[t] =
                    "call " + std::to_string(call) + ": the result differs from the first run's";
              }
            }
          } catch (const std::exception& e) {
            failures[t] = e.what();
          }
        });
      }
      for (std::thread& worker : workers) worker.join();
      for (int t = 0; t < threads; ++t) {
        if (!failures[t].empty()) {
          std::fprintf(stderr, "embed_mlp: error: thread %d: %s\n", t, failures[t].c_str());
          return 1;
        }
      }
      std::printf("%d threads, one VM each on the shared device: results equal\n", threads);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_mlp: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
