// The part of the CUDA Driver API the runtime calls, declared here (types, enum values
// and signatures as the CUDA Driver API reference gives them) so that the runtime builds
// without the CUDA toolkit and never links libcuda: the functions are resolved with dlsym.
#pragma once
#include <cstddef>
#include <cstdint>

namespace relaxc::runtime {

// Result codes: the driver returns many more; their names and meanings come from
// cuGetErrorName / cuGetErrorString, so only those the runtime tests for are listed.
enum CUresult : int {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_OUT_OF_MEMORY = 2,
  CUDA_ERROR_STUB_LIBRARY = 34,
  CUDA_ERROR_NOT_FOUND = 500,
  CUDA_ERROR_NOT_READY = 600,
};

using CUdevice = int;
using CUdeviceptr = unsigned long long;  // NOLINT(google-runtime-int): the driver's type
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphExec_st;
using CUcontext = CUctx_st*;
using CUmodule = CUmod_st*;
using CUfunction = CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = CUevent_st*;
using CUgraph = CUgraph_st*;
using CUgraphExec = CUgraphExec_st*;

enum CUdevice_attribute : int {
  CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
  CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
  CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
};

enum CUfunction_attribute : int {
  CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
  CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
};

enum CUjit_option : int {
  CU_JIT_INFO_LOG_BUFFER = 3,
  CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

// CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: a capture is not disturbed by, and does not
// forbid, the CUDA calls of other threads.
enum CUstreamCaptureMode : int { CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1 };

constexpr unsigned kCuStreamNonBlocking = 0x1;   // CU_STREAM_NON_BLOCKING
constexpr unsigned kCuEventDefault = 0x0;        // CU_EVENT_DEFAULT
constexpr unsigned kCuEventDisableTiming = 0x2;  // CU_EVENT_DISABLE_TIMING

// The signatures, one alias per function (named as the function, with PFN_ before it).
using PFN_cuGetErrorName = CUresult (*)(CUresult, const char**);
using PFN_cuGetErrorString = CUresult (*)(CUresult, const char**);
using PFN_cuInit = CUresult (*)(unsigned);
using PFN_cuDriverGetVersion = CUresult (*)(int*);
using PFN_cuDeviceGetCount = CUresult (*)(int*);
using PFN_cuDeviceGet = CUresult (*)(CUdevice*, int);
using PFN_cuDeviceGetName = CUresult (*)(char*, int, CUdevice);
using PFN_cuDeviceGetAttribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
using PFN_cuDevicePrimaryCtxRetain = CUresult (*)(CUcontext*, CUdevice);
using PFN_cuDevicePrimaryCtxRelease = CUresult (*)(CUdevice);
using PFN_cuCtxPushCurrent = CUresult (*)(CUcontext);
using PFN_cuCtxPopCurrent = CUresult (*)(CUcontext*);
using PFN_cuStreamCreate = CUresult (*)(CUstream*, unsigned);
using PFN_cuStreamDestroy = CUresult (*)(CUstream);
using PFN_cuStreamQuery = CUresult (*)(CUstream);
using PFN_cuStreamSynchronize = CUresult (*)(CUstream);
using PFN_cuEventCreate = CUresult (*)(CUevent*, unsigned);
using PFN_cuEventDestroy = CUresult (*)(CUevent);
using PFN_cuEventRecord = CUresult (*)(CUevent, CUstream);
using PFN_cuEventQuery = CUresult (*)(CUevent);
using PFN_cuEventSynchronize = CUresult (*)(CUevent);
using PFN_cuEventElapsedTime = CUresult (*)(float*, CUevent, CUevent);
using PFN_cuMemAlloc = CUresult (*)(CUdeviceptr*, size_t);
using PFN_cuMemFree = CUresult (*)(CUdeviceptr);
using PFN_cuMemAllocHost = CUresult (*)(void**, size_t);
using PFN_cuMemFreeHost = CUresult (*)(void*);
using PFN_cuMemcpyHtoDAsync = CUresult (*)(CUdeviceptr, const void*, size_t, CUstream);
using PFN_cuMemcpyDtoHAsync = CUresult (*)(void*, CUdeviceptr, size_t, CUstream);
using PFN_cuMemcpyDtoDAsync = CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
using PFN_cuModuleLoadDataEx = CUresult (*)(CUmodule*, const void*, unsigned, CUjit_option*,
                                            void**);
using PFN_cuModuleUnload = CUresult (*)(CUmodule);
using PFN_cuModuleGetFunction = CUresult (*)(CUfunction*, CUmodule, const char*);
using PFN_cuFuncGetAttribute = CUresult (*)(int*, CUfunction_attribute, CUfunction);
using PFN_cuStreamBeginCapture = CUresult (*)(CUstream, CUstreamCaptureMode);
using PFN_cuStreamEndCapture = CUresult (*)(CUstream, CUgraph*);
using PFN_cuGraphInstantiateWithFlags = CUresult (*)(CUgraphExec*, CUgraph,
                                                     unsigned long long);  // NOLINT
using PFN_cuGraphLaunch = CUresult (*)(CUgraphExec, CUstream);
using PFN_cuGraphExecDestroy = CUresult (*)(CUgraphExec);
using PFN_cuGraphDestroy = CUresult (*)(CUgraph);
using PFN_cuLaunchKernel = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                        unsigned, unsigned, unsigned, CUstream, void**, void**);

}  // namespace relaxc::runtime
