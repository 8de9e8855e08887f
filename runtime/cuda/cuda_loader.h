// The CUDA driver, opened at run time: the function table resolved from libcuda with
// dlsym, cuInit, and the check that turns a failed CUresult into a RuntimeError carrying
// the driver's own name and message for it.
#pragma once
#include <span>
#include <string>
#include <string_view>

#include "runtime/cuda/cuda_driver_api.h"
#include "runtime/device.h"

namespace relaxc::runtime {

// Each entry: the table's member, then the exported symbols to try in order. The
// versioned names (_v2) are the ones cuda.h maps the plain names to; the plain name is
// the fallback for drivers older than the versioned symbol.
#define RELAXC_CUDA_FUNCTIONS(X)                                                               \
  X(cuGetErrorName, "cuGetErrorName", "cuGetErrorName")                                        \
  X(cuGetErrorString, "cuGetErrorString", "cuGetErrorString")                                  \
  X(cuInit, "cuInit", "cuInit")                                                                \
  X(cuDriverGetVersion, "cuDriverGetVersion", "cuDriverGetVersion")                            \
  X(cuDeviceGetCount, "cuDeviceGetCount", "cuDeviceGetCount")                                  \
  X(cuDeviceGet, "cuDeviceGet", "cuDeviceGet")                                                 \
  X(cuDeviceGetName, "cuDeviceGetName", "cuDeviceGetName")                                     \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute", "cuDeviceGetAttribute")                      \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain")          \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease")    \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", "cuCtxPushCurrent")                               \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", "cuCtxPopCurrent")                                  \
  X(cuStreamCreate, "cuStreamCreate", "cuStreamCreate")                                        \
  X(cuStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy")                                  \
  X(cuStreamQuery, "cuStreamQuery", "cuStreamQuery")                                           \
  X(cuStreamSynchronize, "cuStreamSynchronize", "cuStreamSynchronize")                         \
  X(cuEventCreate, "cuEventCreate", "cuEventCreate")                                           \
  X(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy")                                     \
  X(cuEventRecord, "cuEventRecord", "cuEventRecord")                                           \
  X(cuEventQuery, "cuEventQuery", "cuEventQuery")                                              \
  X(cuEventSynchronize, "cuEventSynchronize", "cuEventSynchronize")                            \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")                         \
  X(cuMemAlloc, "cuMemAlloc_v2", "cuMemAlloc")                                                 \
  X(cuMemFree, "cuMemFree_v2", "cuMemFree")                                                    \
  X(cuMemAllocHost, "cuMemAllocHost_v2", "cuMemAllocHost")                                     \
  X(cuMemFreeHost, "cuMemFreeHost", "cuMemFreeHost")                                           \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync")                            \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoHAsync")                            \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2", "cuMemcpyDtoDAsync")                            \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx", "cuModuleLoadDataEx")                            \
  X(cuModuleUnload, "cuModuleUnload", "cuModuleUnload")                                        \
  X(cuModuleGetFunction, "cuModuleGetFunction", "cuModuleGetFunction")                         \
  X(cuFuncGetAttribute, "cuFuncGetAttribute", "cuFuncGetAttribute")                            \
  X(cuLaunchKernel, "cuLaunchKernel", "cuLaunchKernel")                                        \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2", "cuStreamBeginCapture")                   \
  X(cuStreamEndCapture, "cuStreamEndCapture", "cuStreamEndCapture")                            \
  X(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags", "cuGraphInstantiateWithFlags") \
  X(cuGraphLaunch, "cuGraphLaunch", "cuGraphLaunch")                                           \
  X(cuGraphExecDestroy, "cuGraphExecDestroy", "cuGraphExecDestroy")                            \
  X(cuGraphDestroy, "cuGraphDestroy", "cuGraphDestroy")

struct CudaDriver {
#define RELAXC_CUDA_DECLARE_FUNCTION(name, symbol, fallback) PFN_##name name = nullptr;
  RELAXC_CUDA_FUNCTIONS(RELAXC_CUDA_DECLARE_FUNCTION)
#undef RELAXC_CUDA_DECLARE_FUNCTION
  int version = 0;      // cuDriverGetVersion: 12040 for CUDA 12.4
  std::string library;  // the library that was opened

  // "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)", from cuGetErrorName and
  // cuGetErrorString; "CUresult(1234)" for a code the driver does not name.
  std::string result_text(CUresult result) const;

  // Throws a RuntimeError unless `result` is CUDA_SUCCESS: "<call> failed: <result_text>",
  // then " while <context>" when there is one.
  void check(CUresult result, std::string_view call, std::string_view context = {}) const;
};

// Opens the first of `library_names` that dlopen finds, resolves the table and calls
// cuInit(0). RuntimeError "CUDA is not available: ..." saying what failed (no library,
// a missing function, cuInit's error). A library that loads stays loaded for the
// process's life (unloading a driver that may still hold contexts is unsafe); one that
// fails is closed again.
CudaDriver load_cuda_driver(std::span<const char* const> library_names);

// The process's driver, load_cuda_driver({"libcuda.so.1", "libcuda.so"}) on first use;
// when that failed, every call throws the same RuntimeError.
const CudaDriver& cuda_driver();

// Makes `context` current on the calling thread for the guard's life, then restores the
// thread's previous context (so that a host program's own CUDA use is left as it was).
class ScopedCudaContext {
 public:
  ScopedCudaContext(const CudaDriver& driver, CUcontext context);
  ~ScopedCudaContext();
  ScopedCudaContext(const ScopedCudaContext&) = delete;
  ScopedCudaContext& operator=(const ScopedCudaContext&) = delete;

 private:
  const CudaDriver& driver_;
};

}  // namespace relaxc::runtime
