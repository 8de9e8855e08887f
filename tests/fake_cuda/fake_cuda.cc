// A fake CUDA driver for the tests of the CUDA device's host side on machines without a
// GPU (CI): libcuda's Driver API, the functions runtime/cuda/cuda_loader.h resolves, over
// host memory. The CUDA device opens it when RELAXC_CUDA_LIBRARY names it.
//
// - One device, "relaxc fake CUDA device" (sm_90 limits). Device addresses are host
//   addresses; every copy and launch runs when it is issued, in order, so a stream is
//   always idle and every event complete.
// - Kernels are the hand-written ones of tests/support/hand_written_kernels.h, run on the
//   host by their entry name: vector_add (c[i] = a[i] + b[i] for i < n) and iota64
//   (out[i] = start + i). A module must declare the entry (".entry NAME").
// - Stream capture and graphs as the driver does them for launches: while a stream
//   captures, its launches are recorded, not run; a graph captured and instantiated runs
//   them again at each cuGraphLaunch. As in CUDA, a copy or a wait on a capturing stream
//   fails (CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED) and invalidates the capture.
// - Freed device memory is filled with NaNs and never handed out again, and a launch whose
//   buffer is not inside a live allocation fails (CUDA_ERROR_ILLEGAL_ADDRESS), so that
//   work that runs after its memory was freed shows.
// - For the tests, relaxc_fake_cuda_counts() says what ran, and
//   relaxc_fake_cuda_fail_instantiation(1) makes cuGraphInstantiateWithFlags fail.
#include "tests/fake_cuda/fake_cuda.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_driver_api.h"

// The driver's handles are pointers to these types, which cuda_driver_api.h declares and
// the fake defines: every function then has exactly the type relaxc calls it through.
namespace relaxc::runtime {
struct FakeLaunch {
  std::string kernel;
  unsigned grid_x = 0, block_x = 0;
  std::vector<uint64_t> params;  // each parameter's value, widened
};
struct CUstream_st {
  bool capturing = false;
  bool invalidated = false;
  std::vector<FakeLaunch> captured;
};
struct CUgraph_st {
  std::vector<FakeLaunch> launches;
};
struct CUgraphExec_st {
  std::vector<FakeLaunch> launches;
};
struct CUmod_st {
  std::string ptx;
};
struct CUfunc_st {
  std::string name;
};
struct CUevent_st {};
struct CUctx_st {};
}  // namespace relaxc::runtime

using namespace relaxc::runtime;  // NOLINT(google-build-using-namespace): the API's types

namespace {

constexpr CUresult kSuccess = CUDA_SUCCESS;
constexpr CUresult kInvalidValue = CUDA_ERROR_INVALID_VALUE;
constexpr CUresult kOutOfMemory = CUDA_ERROR_OUT_OF_MEMORY;
constexpr auto kInvalidHandle = static_cast<CUresult>(400);
constexpr CUresult kNotFound = CUDA_ERROR_NOT_FOUND;
constexpr auto kIllegalAddress = static_cast<CUresult>(700);
constexpr auto kNotSupported = static_cast<CUresult>(801);
constexpr auto kCaptureUnsupported = static_cast<CUresult>(900);
constexpr auto kCaptureInvalidated = static_cast<CUresult>(901);
constexpr auto kCaptureUnmatched = static_cast<CUresult>(903);

RelaxcFakeCudaCounts counts{};
bool fail_instantiation = false;
std::map<uint64_t, size_t> allocations;  // live: address to size
std::vector<void*> freed;                // kept, never reused (tests/lsan_suppressions.txt)

// The parameters of each kernel the fake runs: buffers (device addresses), then scalars.
struct Param {
  size_t bytes = 0;
  bool buffer = false;
};
const std::map<std::string, std::vector<Param>>& kernel_params() {
  static const Param kBuffer{8, true}, kInt32{4, false}, kInt64{8, false};
  static const std::map<std::string, std::vector<Param>> params = {
      {"vector_add", {kBuffer, kBuffer, kBuffer, kInt32}}, {"iota64", {kBuffer, kInt32, kInt64}}};
  return params;
}

bool live(uint64_t address) {
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin()) return false;
  --it;
  return address < it->first + std::max<size_t>(it->second, 1);
}

CUresult run(const FakeLaunch& launch) {
  for (size_t i = 0; i < launch.params.size(); ++i) {
    if (kernel_params().at(launch.kernel)[i].buffer && !live(launch.params[i])) {
      return kIllegalAddress;
    }
  }
  uint64_t threads = uint64_t{launch.grid_x} * launch.block_x;
  const std::vector<uint64_t>& p = launch.params;
  if (launch.kernel == "vector_add") {
    auto* a = reinterpret_cast<const float*>(p[0]);
    auto* b = reinterpret_cast<const float*>(p[1]);
    auto* c = reinterpret_cast<float*>(p[2]);
    auto n = static_cast<int32_t>(p[3]);
    for (int64_t i = 0; i < n && static_cast<uint64_t>(i) < threads; ++i) c[i] = a[i] + b[i];
  } else if (launch.kernel == "iota64") {
    auto* out = reinterpret_cast<int64_t*>(p[0]);
    auto n = static_cast<int32_t>(p[1]);
    auto start = static_cast<int64_t>(p[2]);
    for (int64_t i = 0; i < n && static_cast<uint64_t>(i) < threads; ++i) out[i] = start + i;
  }
  return kSuccess;
}

CUresult copy_on(CUstream s, void* dst, const void* src, size_t bytes) {
  if (s != nullptr && s->capturing) {
    s->invalidated = true;
    return kCaptureUnsupported;
  }
  std::memcpy(dst, src, bytes);
  return kSuccess;
}

CUresult wait_on(CUstream s) {
  if (s != nullptr && s->capturing) {
    s->invalidated = true;
    return kCaptureUnsupported;
  }
  return kSuccess;
}

}  // namespace

extern "C" {

const RelaxcFakeCudaCounts* relaxc_fake_cuda_counts() { return &counts; }
void relaxc_fake_cuda_fail_instantiation(int fail) { fail_instantiation = fail != 0; }

CUresult cuGetErrorName(CUresult result, const char** name) {
  static const std::map<CUresult, const char*> names = {
      {kSuccess, "CUDA_SUCCESS"},
      {kInvalidValue, "CUDA_ERROR_INVALID_VALUE"},
      {kOutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY"},
      {kInvalidHandle, "CUDA_ERROR_INVALID_HANDLE"},
      {kNotFound, "CUDA_ERROR_NOT_FOUND"},
      {kIllegalAddress, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {kNotSupported, "CUDA_ERROR_NOT_SUPPORTED"},
      {kCaptureUnsupported, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
      {kCaptureInvalidated, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
      {kCaptureUnmatched, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"}};
  auto it = names.find(result);
  if (it == names.end()) return kInvalidValue;
  *name = it->second;
  return kSuccess;
}
CUresult cuGetErrorString(CUresult, const char** text) {
  *text = "reported by the fake CUDA driver";
  return kSuccess;
}
CUresult cuInit(unsigned) { return kSuccess; }
CUresult cuDriverGetVersion(int* version) {
  *version = 12040;
  return kSuccess;
}
CUresult cuDeviceGetCount(int* count) {
  *count = 1;
  return kSuccess;
}
CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (ordinal != 0) return kInvalidValue;
  *device = 0;
  return kSuccess;
}
CUresult cuDeviceGetName(char* name, int length, CUdevice) {
  std::strncpy(name, "relaxc fake CUDA device", static_cast<size_t>(length));
  return kSuccess;
}
CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
  static const std::map<int, int> attributes = {{1, 1024},       {2, 1024},  {3, 1024},  {4, 64},
                                                {5, 2147483647}, {6, 65535}, {7, 65535}, {8, 49152},
                                                {10, 32},        {18, 0},    {75, 9},    {76, 0}};
  auto it = attributes.find(attribute);
  if (it == attributes.end()) return kInvalidValue;
  *value = it->second;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
  static CUctx_st the_context;
  *context = &the_context;
  return kSuccess;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) { return kSuccess; }
CUresult cuCtxPushCurrent(CUcontext) { return kSuccess; }
CUresult cuCtxPopCurrent(CUcontext* context) {
  if (context != nullptr) *context = nullptr;
  return kSuccess;
}

CUresult cuStreamCreate(CUstream* stream, unsigned) {
  *stream = new CUstream_st();
  return kSuccess;
}
CUresult cuStreamDestroy(CUstream stream) {
  delete stream;
  return kSuccess;
}
CUresult cuStreamQuery(CUstream stream) { return wait_on(stream); }
CUresult cuStreamSynchronize(CUstream stream) { return wait_on(stream); }

CUresult cuEventCreate(CUevent* event, unsigned) {
  *event = new CUevent_st();
  return kSuccess;
}
CUresult cuEventDestroy(CUevent event) {
  delete event;
  return kSuccess;
}
CUresult cuEventRecord(CUevent, CUstream stream) { return wait_on(stream); }
CUresult cuEventQuery(CUevent) { return kSuccess; }
CUresult cuEventSynchronize(CUevent) { return kSuccess; }
CUresult cuEventElapsedTime(float* milliseconds, CUevent, CUevent) {
  *milliseconds = 0.001f;
  return kSuccess;
}

CUresult cuMemAlloc(CUdeviceptr* address, size_t bytes) {
  void* memory = std::malloc(bytes);
  if (memory == nullptr) return kOutOfMemory;
  *address = reinterpret_cast<CUdeviceptr>(memory);
  allocations.emplace(*address, bytes);
  counts.live_allocations = allocations.size();
  return kSuccess;
}
CUresult cuMemFree(CUdeviceptr address) {
  auto it = allocations.find(address);
  if (it == allocations.end()) return kInvalidValue;
  std::memset(reinterpret_cast<void*>(address), 0xff, it->second);  // NaNs
  allocations.erase(it);
  freed.push_back(reinterpret_cast<void*>(address));
  counts.live_allocations = allocations.size();
  return kSuccess;
}
CUresult cuMemAllocHost(void** memory, size_t bytes) {
  *memory = std::malloc(bytes);
  return *memory == nullptr ? kOutOfMemory : kSuccess;
}
CUresult cuMemFreeHost(void* memory) {
  std::free(memory);
  return kSuccess;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void* src, size_t bytes, CUstream stream) {
  return copy_on(stream, reinterpret_cast<void*>(dst), src, bytes);
}
CUresult cuMemcpyDtoHAsync(void* dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return copy_on(stream, dst, reinterpret_cast<const void*>(src), bytes);
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return copy_on(stream, reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
}

CUresult cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned, CUjit_option*, void**) {
  *module = new CUmod_st{static_cast<const char*>(image)};
  return kSuccess;
}
CUresult cuModuleUnload(CUmodule module) {
  delete module;
  return kSuccess;
}
CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
  const std::string& ptx = module->ptx;
  if (kernel_params().count(name) == 0 ||
      ptx.find(std::string(".entry ") + name) == std::string::npos) {
    return kNotFound;
  }
  // One Function per name, kept for the process (as a module's functions are).
  static std::map<std::string, std::unique_ptr<CUfunc_st>> functions;
  std::unique_ptr<CUfunc_st>& slot = functions[name];
  if (!slot) slot = std::make_unique<CUfunc_st>(CUfunc_st{name});
  *function = slot.get();
  return kSuccess;
}
CUresult cuFuncGetAttribute(int* value, CUfunction_attribute attribute, CUfunction) {
  static const std::map<int, int> attributes = {{0, 1024}, {1, 0}, {4, 16}};
  auto it = attributes.find(attribute);
  if (it == attributes.end()) return kInvalidValue;
  *value = it->second;
  return kSuccess;
}
CUresult cuLaunchKernel(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                        unsigned block_x, unsigned block_y, unsigned block_z, unsigned, CUstream s,
                        void** params, void**) {
  if (function == nullptr || grid_y != 1 || grid_z != 1 || block_y != 1 || block_z != 1) {
    return kInvalidValue;  // the fake's kernels are one-dimensional
  }
  FakeLaunch launch{function->name, grid_x, block_x, {}};
  for (size_t i = 0; i < kernel_params().at(launch.kernel).size(); ++i) {
    uint64_t value = 0;
    std::memcpy(&value, params[i], kernel_params().at(launch.kernel)[i].bytes);  // read at launch
    launch.params.push_back(value);
  }
  if (s != nullptr && s->capturing) {
    s->captured.push_back(std::move(launch));
    counts.kernels_captured += 1;
    return kSuccess;
  }
  counts.kernels_run += 1;
  return run(launch);
}

CUresult cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode) {
  if (s == nullptr || s->capturing || mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL) {
    return kInvalidValue;
  }
  *s = CUstream_st{true, false, {}};
  return kSuccess;
}
CUresult cuStreamEndCapture(CUstream s, CUgraph* graph) {
  if (s == nullptr || !s->capturing) return kCaptureUnmatched;
  bool invalidated = s->invalidated;
  *graph = invalidated ? nullptr : new CUgraph_st{std::move(s->captured)};
  *s = CUstream_st{};
  return invalidated ? kCaptureInvalidated : kSuccess;
}
CUresult cuGraphInstantiateWithFlags(CUgraphExec* exec, CUgraph graph,
                                     unsigned long long) {  // NOLINT(google-runtime-int)
  if (fail_instantiation) return kNotSupported;
  *exec = new CUgraphExec_st{graph->launches};
  counts.graphs_instantiated += 1;
  counts.live_graph_execs += 1;
  return kSuccess;
}
CUresult cuGraphLaunch(CUgraphExec exec, CUstream s) {
  if (exec == nullptr) return kInvalidHandle;
  if (s != nullptr && s->capturing) return kCaptureUnsupported;
  counts.graph_launches += 1;
  for (const FakeLaunch& launch : exec->launches) {
    if (CUresult result = run(launch); result != kSuccess) return result;
  }
  return kSuccess;
}
CUresult cuGraphExecDestroy(CUgraphExec exec) {
  delete exec;
  counts.live_graph_execs -= 1;
  return kSuccess;
}
CUresult cuGraphDestroy(CUgraph graph) {
  delete graph;
  return kSuccess;
}

}  // extern "C"
