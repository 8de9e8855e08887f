// embed_mlp: the embedding API of the runtime, linked alone (no compiler, no LLVM, no
// SPIRV-Tools): loads an executable built by `relaxc build examples/mlp.py`, runs its
// `main` on the best device present on three .npy inputs, and writes the result.
//
//   embed_mlp model.rxe images.npy w.npy b.npy out.npy
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include "runtime/npy.h"
#include "runtime/open_device.h"
#include "runtime/vm/vm.h"

namespace rt = relaxc::runtime;
namespace vm = relaxc::runtime::vm;

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: embed_mlp model.rxe images.npy w.npy b.npy out.npy\n");
    return 2;
  }
  try {
    auto exe = std::make_shared<const vm::Executable>(vm::load_executable_file(argv[1]));
    std::unique_ptr<rt::Device> device = rt::open_device("auto");
    vm::VirtualMachine machine(exe, *device);

    std::vector<vm::Value> args;
    for (int i = 2; i < 5; ++i) {
      rt::NpyArray input = rt::read_npy(argv[i]);
      args.push_back(vm::Value::tensor(machine.from_host(input.dtype, input.shape, input.data.data())));
    }
    const vm::Tensor result = machine.call("main", std::move(args)).as_tensor();

    rt::NpyArray output{result.dtype, result.shape, machine.to_host(result)};
    rt::write_npy(argv[5], output);
    std::printf("%s: main -> %s (%lld values)\n", device->limits().name.c_str(),
                result.dtype.str().c_str(), static_cast<long long>(result.num_elements()));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_mlp: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
