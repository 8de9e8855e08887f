// Target: which back end a module is compiled for, and the device limits that the
// schedules, the kernel lowering and the code generators must respect.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "ir/support/data_type.h"

namespace relaxc {

enum class TargetKind : uint8_t { Vulkan, Cuda };

// A target's limits are either a named profile or read from a device (the runtime's
// DeviceLimits, converted by the tool). Codegen never emits what the target lacks: it
// fails with a diagnostic instead.
struct Target {
  TargetKind kind = TargetKind::Vulkan;
  // "desktop", "mobile", "device" (limits read from a device) for Vulkan; "sm_90" ...
  std::string profile;
  // The device's name when the limits were read from a device.
  std::string device_name;

  int64_t max_threads_per_block = 1024;
  std::array<int64_t, 3> max_block_size = {1024, 1024, 64};
  std::array<int64_t, 3> max_grid_size = {65535, 65535, 65535};
  int64_t max_shared_memory_bytes = 48 * 1024;  // static shared memory per block
  // A thread's local (private) memory: its "local" allocations. Neither Vulkan nor the
  // runtime's device limits state one, so it comes from the target kind: CUDA's
  // architectural 512 KiB per thread; 16 KiB on Vulkan, where drivers spill private arrays
  // to a per-invocation scratch area sized at pipeline creation (lavapipe: the CPU stack).
  int64_t max_local_memory_bytes = 16 * 1024;
  int64_t max_push_constant_bytes = 128;  // Vulkan: scalars travel as push constants
  int subgroup_size = 32;                 // warp size on CUDA; 0: unknown
  // The most lanes a vectorized loop becomes vector code with (passes/tir
  // legalize_vector_loops): SPIR-V vectors have up to 4; LLVM's NVPTX back end splits
  // wider vectors into its 2- and 4-lane loads and stores.
  int max_vector_lanes = 4;

  bool supports_fp16 = false;
  bool supports_fp64 = false;
  bool supports_int8 = false;
  bool supports_int16 = false;
  bool supports_int64 = false;
  bool supports_subgroup_arithmetic = false;  // Vulkan: subgroup add/max across a subgroup

  // Vulkan: the SPIR-V environment the module targets: 11 (Vulkan 1.1, SPIR-V 1.3) or
  // 13 (Vulkan 1.3, SPIR-V 1.6).
  int vulkan_version = 11;
  // CUDA: the compute capability, 90 for sm_90.
  int cuda_arch = 0;

  // "vulkan -profile=mobile", "cuda -arch=sm_90".
  std::string str() const;

  // Whether a value of `dtype` may appear in a kernel (loads, stores, arithmetic).
  bool supports(DataType dtype) const;
  // bfloat16 without native support: a Vulkan target with 16-bit integer storage, where
  // passes/tir legalize_bfloat16 keeps bfloat16 data as uint16 bits and computes in
  // float32. Native bfloat16 (supports(bfloat16)) is CUDA's, from sm_80.
  bool emulates_bfloat16() const;
};

// Parses a target string: "vulkan" (desktop profile), "vulkan -profile=mobile",
// "vulkan -profile=desktop", "vulkan -version=1.3", "cuda" (sm_80), "cuda -arch=sm_90".
// Throws UserError naming the bad word and what is accepted.
Target parse_target(const std::string& text);

// The named Vulkan profiles. "desktop": 1024 threads, 48 KiB shared memory, fp16, int8,
// int64, subgroups. "mobile": a baseline that mobile GPUs meet: 128 threads per block
// (128 x 128 x 64), 16 KiB shared memory, no fp16 / int8 / int64 / subgroup arithmetic.
// Both: 16 KiB of local memory per thread.
Target vulkan_profile(const std::string& name);

// The CUDA target for compute capability `arch` (sm_70 ... sm_90): 1024 threads, 48 KiB
// static shared memory, 512 KiB local memory per thread, warp size 32, fp16 from sm_53
// up, int64.
Target cuda_target(int arch);

}  // namespace relaxc
