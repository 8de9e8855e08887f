// The test hooks of the fake CUDA driver (fake_cuda.cc), which a test finds with dlsym in
// the library that RELAXC_CUDA_LIBRARY names.
#pragma once
#include <cstdint>

extern "C" {

// What the fake driver did since it was loaded.
struct RelaxcFakeCudaCounts {
  uint64_t kernels_run;          // by cuLaunchKernel, outside captures
  uint64_t kernels_captured;     // recorded by cuLaunchKernel in captures
  uint64_t graphs_instantiated;  // successful cuGraphInstantiateWithFlags
  uint64_t graph_launches;       // cuGraphLaunch
  uint64_t live_graph_execs;     // instantiated, not yet destroyed
  uint64_t live_allocations;     // cuMemAlloc not yet freed
};

// "relaxc_fake_cuda_counts"
using RelaxcFakeCudaCountsFn = const RelaxcFakeCudaCounts* (*)();
// "relaxc_fake_cuda_fail_instantiation": nonzero makes cuGraphInstantiateWithFlags fail
// with CUDA_ERROR_NOT_SUPPORTED.
using RelaxcFakeCudaFailInstantiationFn = void (*)(int);
}
