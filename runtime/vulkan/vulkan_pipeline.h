// Kernels on Vulkan: the SPIR-V checks, shader module, descriptor set and pipeline
// layouts, compute pipeline and push-constant packing of one kernel, and the cache
// that finds a loaded kernel again by its code and ABI.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/kernel_checks.h"
#include "runtime/vulkan/vulkan_context.h"

namespace relaxc::runtime {

class VulkanKernel {
 public:
  // Checks `binary` (SPIR-V words with the magic number, a GLCompute entry point of its
  // name, a workgroup size within the device's limits and equal to the module's) and
  // creates its pipeline. RuntimeError naming the kernel and what is wrong, or the
  // Vulkan call that failed.
  static VulkanKernel create(const VulkanContext& context, const KernelBinary& binary);

  VulkanKernel(VulkanKernel&& other) noexcept;
  VulkanKernel& operator=(VulkanKernel&& other) noexcept;
  VulkanKernel(const VulkanKernel&) = delete;
  VulkanKernel& operator=(const VulkanKernel&) = delete;
  ~VulkanKernel();

  const LaunchAbi& abi() const { return abi_; }
  const std::string& name() const { return abi_.name; }
  int num_buffers() const { return abi_.num_buffers; }
  bool uses_push_descriptors() const { return uses_push_descriptors_; }
  VkPipeline pipeline() const { return pipeline_; }
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  uint32_t push_constant_bytes() const { return push_constant_bytes_; }

  // The scalars, checked against abi() (check_launch), into `bytes` in the push-constant
  // layout of the ABI: int32 at 4-byte, int64 at 8-byte aligned offsets, in order.
  void pack_scalars(std::span<const int64_t> scalars, std::vector<uint8_t>& bytes) const;

 private:
  VulkanKernel() = default;
  void destroy();

  const VulkanContext* context_ = nullptr;
  LaunchAbi abi_;
  std::vector<uint32_t> scalar_offsets_;
  uint32_t push_constant_bytes_ = 0;
  bool uses_push_descriptors_ = false;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
};

// Loaded kernels, keyed by the SPIR-V words together with the entry point and ABI, so
// that loading the same kernel twice creates one pipeline. Ids start at 1.
class KernelCache {
 public:
  KernelId load(const VulkanContext& context, const KernelBinary& binary);
  // RuntimeError for an id that load did not return. The kernel stays where it is for
  // the cache's life (kept runs of dispatches point to it).
  const VulkanKernel& get(KernelId id) const;

 private:
  std::deque<VulkanKernel> kernels_;
  std::unordered_map<std::string, KernelId> ids_;
};

}  // namespace relaxc::runtime
