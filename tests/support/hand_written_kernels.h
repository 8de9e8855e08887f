// Hand-written kernels for the device tests, in each kernel format: vector_add and
// iota64 as SPIR-V (assembled and validated here) and as PTX, with their ABI; and a run
// of vector_add on a device.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace relaxc::testing {

// SPIR-V assembly: "vector_add" and "iota64" GLCompute entries, LocalSize 64.
extern const char* const kVectorAddSpirv;
extern const char* const kIota64Spirv;
// PTX: .entry vector_add and .entry iota64 (any block size).
extern const char* const kVectorAddPtx;
extern const char* const kIota64Ptx;

// Assembles and validates SPIR-V for Vulkan 1.1 (a test failure when it does not); the
// bytes as KernelBinary holds them.
std::vector<uint8_t> assemble_spirv(const std::string& text);

// c[i] = a[i] + b[i] for i < n: buffers a, b, c, then n (int32); blocks of 64.
runtime::KernelBinary vector_add_kernel(runtime::KernelFormat format);
// out[i] = start + i for i < n: buffer out, then n (int32) and start (int64); blocks of 64.
runtime::KernelBinary iota64_kernel(runtime::KernelFormat format);

// c = a + b on `device` with `add` (a loaded vector_add_kernel): uploads a and b, launches
// blocks of 64 over them, downloads c and releases the three buffers.
std::vector<float> run_vector_add(runtime::Device& device, runtime::KernelId add,
                                  const std::vector<float>& a, const std::vector<float>& b);

}  // namespace relaxc::testing
