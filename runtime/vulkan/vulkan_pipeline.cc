// Kernel loading: check_kernel_code's light scan of the SPIR-V (so that a damaged or
// mismatched module is a RuntimeError instead of a driver crash) and the device's SPIR-V
// version, then the shader module, layouts and compute pipeline; and the push-constant
// packing of launches.
#include "runtime/vulkan/vulkan_pipeline.h"

#include <cstring>
#include <utility>

namespace relaxc::runtime {
namespace {

// The highest SPIR-V version a Vulkan version consumes: 1.1 -> 1.3, 1.2 -> 1.5, 1.3 -> 1.6.
uint32_t max_spirv_minor(uint32_t vulkan_api_version) {
  if (vulkan_api_version >= VK_API_VERSION_1_3) return 6;
  if (vulkan_api_version >= VK_API_VERSION_1_2) return 5;
  return 3;
}

// The SPIR-V words of `binary`, checked for what a driver could crash on.
std::vector<uint32_t> checked_words(const VulkanContext& context, const KernelBinary& binary) {
  const std::string& kernel = binary.name;
  if (binary.format != KernelFormat::SpirV) {
    runtime_error() << "kernel '" << kernel << "' is " << kernel_format_name(binary.format)
                    << "; the Vulkan device runs SPIR-V";
  }
  check_kernel_code(binary);
  std::vector<uint32_t> words(binary.code.size() / 4);
  std::memcpy(words.data(), binary.code.data(), binary.code.size());
  uint32_t major = (words[1] >> 16) & 0xff, minor = (words[1] >> 8) & 0xff;
  uint32_t api = context.physical().api_version;
  if (major != 1 || minor > max_spirv_minor(api)) {
    runtime_error() << "kernel '" << kernel << "' is SPIR-V " << major << "." << minor
                    << ", but Vulkan " << VK_API_VERSION_MAJOR(api) << "."
                    << VK_API_VERSION_MINOR(api) << " on \"" << context.physical().limits.name
                    << "\" takes SPIR-V up to 1." << max_spirv_minor(api);
  }
  return words;
}

// The shared limits, then the buffer count against the storage buffers a stage binds.
void check_limits(const VulkanContext& context, const KernelBinary& binary) {
  const DeviceLimits& limits = context.physical().limits;
  check_kernel_limits(binary, limits);
  const std::string where = kernel_on_device(binary.name, limits);
  uint32_t max_buffers = context.physical().max_storage_buffers_per_stage;
  if (binary.num_buffers < 0 || static_cast<uint32_t>(binary.num_buffers) > max_buffers) {
    runtime_error() << where << "takes " << binary.num_buffers << " buffers; the device binds 0 to "
                    << max_buffers;
  }
}

}  // namespace

VulkanKernel VulkanKernel::create(const VulkanContext& context, const KernelBinary& binary) {
  check_limits(context, binary);
  std::vector<uint32_t> words = checked_words(context, binary);

  VulkanKernel kernel;
  kernel.context_ = &context;
  kernel.abi_ = {binary.name, binary.num_buffers, binary.scalars};
  uint32_t offset = 0;
  for (ScalarType type : binary.scalars) {
    uint32_t size = type == ScalarType::Int64 ? 8 : 4;
    offset = (offset + size - 1) / size * size;
    kernel.scalar_offsets_.push_back(offset);
    offset += size;
  }
  kernel.push_constant_bytes_ = offset;
  const DeviceLimits& limits = context.physical().limits;
  if (offset > limits.max_push_constant_bytes) {
    runtime_error() << "kernel '" << binary.name << "': its scalars take " << offset
                    << " bytes of push constants, more than the device's "
                    << limits.max_push_constant_bytes;
  }
  kernel.uses_push_descriptors_ =
      context.push_descriptors() && binary.num_buffers > 0 &&
      static_cast<uint32_t>(binary.num_buffers) <= context.physical().max_push_descriptors;

  const VulkanDeviceFunctions& fn = context.fn();
  VkDevice device = context.device();
  const std::string what = "loading kernel '" + binary.name + "'";
  VkShaderModuleCreateInfo module_info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  module_info.codeSize = words.size() * 4;
  module_info.pCode = words.data();
  check_vk(fn.vkCreateShaderModule(device, &module_info, nullptr, &kernel.module_),
           "vkCreateShaderModule", what);

  std::vector<VkDescriptorSetLayoutBinding> bindings(binary.num_buffers);
  for (int i = 0; i < binary.num_buffers; ++i) {
    bindings[i].binding = static_cast<uint32_t>(i);
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  if (kernel.uses_push_descriptors_) {
    set_info.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
  }
  set_info.bindingCount = static_cast<uint32_t>(bindings.size());
  set_info.pBindings = bindings.data();
  check_vk(fn.vkCreateDescriptorSetLayout(device, &set_info, nullptr, &kernel.set_layout_),
           "vkCreateDescriptorSetLayout", what);

  VkPushConstantRange push_range{VK_SHADER_STAGE_COMPUTE_BIT, 0, kernel.push_constant_bytes_};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &kernel.set_layout_;
  layout_info.pushConstantRangeCount = kernel.push_constant_bytes_ > 0 ? 1 : 0;
  layout_info.pPushConstantRanges = &push_range;
  check_vk(fn.vkCreatePipelineLayout(device, &layout_info, nullptr, &kernel.pipeline_layout_),
           "vkCreatePipelineLayout", what);

  VkComputePipelineCreateInfo pipeline_info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  pipeline_info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  pipeline_info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  pipeline_info.stage.module = kernel.module_;
  pipeline_info.stage.pName = kernel.abi_.name.c_str();
  pipeline_info.layout = kernel.pipeline_layout_;
  check_vk(fn.vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &pipeline_info, nullptr,
                                       &kernel.pipeline_),
           "vkCreateComputePipelines", what);
  return kernel;
}

VulkanKernel::VulkanKernel(VulkanKernel&& other) noexcept
    : context_(other.context_),
      abi_(std::move(other.abi_)),
      scalar_offsets_(std::move(other.scalar_offsets_)),
      push_constant_bytes_(other.push_constant_bytes_),
      uses_push_descriptors_(other.uses_push_descriptors_),
      module_(std::exchange(other.module_, VK_NULL_HANDLE)),
      set_layout_(std::exchange(other.set_layout_, VK_NULL_HANDLE)),
      pipeline_layout_(std::exchange(other.pipeline_layout_, VK_NULL_HANDLE)),
      pipeline_(std::exchange(other.pipeline_, VK_NULL_HANDLE)) {}

VulkanKernel& VulkanKernel::operator=(VulkanKernel&& other) noexcept {
  if (this != &other) {
    destroy();
    context_ = other.context_;
    abi_ = std::move(other.abi_);
    scalar_offsets_ = std::move(other.scalar_offsets_);
    push_constant_bytes_ = other.push_constant_bytes_;
    uses_push_descriptors_ = other.uses_push_descriptors_;
    module_ = std::exchange(other.module_, VK_NULL_HANDLE);
    set_layout_ = std::exchange(other.set_layout_, VK_NULL_HANDLE);
    pipeline_layout_ = std::exchange(other.pipeline_layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(other.pipeline_, VK_NULL_HANDLE);
  }
  return *this;
}

VulkanKernel::~VulkanKernel() { destroy(); }

void VulkanKernel::destroy() {
  if (context_ == nullptr) return;
  const VulkanDeviceFunctions& fn = context_->fn();
  VkDevice device = context_->device();
  if (pipeline_ != VK_NULL_HANDLE) fn.vkDestroyPipeline(device, pipeline_, nullptr);
  if (pipeline_layout_ != VK_NULL_HANDLE) {
    fn.vkDestroyPipelineLayout(device, pipeline_layout_, nullptr);
  }
  if (set_layout_ != VK_NULL_HANDLE) fn.vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
  if (module_ != VK_NULL_HANDLE) fn.vkDestroyShaderModule(device, module_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  pipeline_layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  module_ = VK_NULL_HANDLE;
}

void VulkanKernel::pack_scalars(std::span<const int64_t> scalars,
                                std::vector<uint8_t>& bytes) const {
  bytes.assign(push_constant_bytes_, 0);
  for (size_t i = 0; i < scalars.size(); ++i) {
    if (abi_.scalars[i] == ScalarType::Int64) {
      std::memcpy(bytes.data() + scalar_offsets_[i], &scalars[i], 8);
      continue;
    }
    int32_t value = static_cast<int32_t>(scalars[i]);
    std::memcpy(bytes.data() + scalar_offsets_[i], &value, 4);
  }
}

KernelId KernelCache::load(const VulkanContext& context, const KernelBinary& binary) {
  std::string key(binary.code.begin(), binary.code.end());
  key += '\0' + binary.name + '\0' + std::to_string(binary.num_buffers) + '\0';
  for (uint32_t size : binary.block_size) key += std::to_string(size) + ',';
  for (ScalarType type : binary.scalars) key += type == ScalarType::Int64 ? 'l' : 'i';
  key += '\0' + std::to_string(binary.shared_memory_bytes);
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  kernels_.push_back(VulkanKernel::create(context, binary));
  KernelId id = static_cast<KernelId>(kernels_.size());
  ids_.emplace(std::move(key), id);
  return id;
}

const VulkanKernel& KernelCache::get(KernelId id) const {
  if (id == 0 || id > kernels_.size()) {
    runtime_error() << "kernel id " << id << " was not returned by load_kernel";
  }
  return kernels_[id - 1];
}

}  // namespace relaxc::runtime
