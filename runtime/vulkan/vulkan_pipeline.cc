// Kernel loading: a light scan of the SPIR-V header and entry points (so that a damaged
// or mismatched module is a RuntimeError instead of a driver crash), then the shader
// module, layouts and compute pipeline; and the push-constant packing of launches.
#include "runtime/vulkan/vulkan_pipeline.h"

#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

namespace relaxc::runtime {
namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpFunction = 54;
constexpr uint32_t kOpFunctionEnd = 56;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kExecutionModeLocalSize = 17;

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

// The literal string starting at `words[begin]`, up to its terminating zero byte.
std::string literal_string(const std::vector<uint32_t>& words, size_t begin, size_t end) {
  std::string text;
  for (size_t i = begin; i < end; ++i) {
    for (int byte = 0; byte < 4; ++byte) {
      char c = static_cast<char>((words[i] >> (8 * byte)) & 0xff);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

// What the module says about the entry point `name` (after checking its instruction
// lengths and end): whether a GLCompute one exists, the compute entry points it has,
// and its LocalSize if it declares one.
struct EntryPointInfo {
  bool found = false;
  std::vector<std::string> compute_entry_points;
  std::optional<std::array<uint32_t, 3>> local_size;
};

EntryPointInfo scan_module(const std::vector<uint32_t>& words, const std::string& name,
                           const std::string& kernel) {
  EntryPointInfo info;
  std::optional<uint32_t> entry_id;
  std::vector<std::pair<uint32_t, std::array<uint32_t, 3>>> local_sizes;
  // Every instruction's length is checked, so that a truncated module is caught here.
  uint32_t last_opcode = 0;
  bool in_functions = false;  // entry points and modes come before the functions
  for (size_t at = 5; at < words.size();) {
    uint32_t word_count = words[at] >> 16;
    uint32_t opcode = words[at] & 0xffff;
    if (word_count == 0 || word_count > words.size() - at) {
      runtime_error() << "kernel '" << kernel
                      << "': the SPIR-V module is damaged (the instruction at word " << at
                      << " has a bad length)";
    }
    last_opcode = opcode;
    in_functions = in_functions || opcode == kOpFunction;
    if (in_functions) {
      at += word_count;
      continue;
    }
    if (opcode == kOpEntryPoint && word_count >= 4 && words[at + 1] == kExecutionModelGLCompute) {
      std::string entry = literal_string(words, at + 3, at + word_count);
      info.compute_entry_points.push_back(entry);
      if (entry == name) {
        info.found = true;
        entry_id = words[at + 2];
      }
    }
    if (opcode == kOpExecutionMode && word_count >= 6 && words[at + 2] == kExecutionModeLocalSize) {
      local_sizes.push_back({words[at + 1], {words[at + 3], words[at + 4], words[at + 5]}});
    }
    at += word_count;
  }
  if (last_opcode != kOpFunctionEnd) {
    runtime_error() << "kernel '" << kernel
                    << "': the SPIR-V module is damaged (it does not end with OpFunctionEnd)";
  }
  for (const auto& [id, size] : local_sizes) {
    if (entry_id && id == *entry_id) info.local_size = size;
  }
  return info;
}

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
  if (binary.code.size() % 4 != 0) {
    runtime_error() << "kernel '" << kernel << "': the SPIR-V code is " << binary.code.size()
                    << " bytes, not a whole number of 32-bit words";
  }
  if (binary.code.size() < 20) {
    runtime_error() << "kernel '" << kernel << "': the SPIR-V code is " << binary.code.size()
                    << " bytes, shorter than the 5-word SPIR-V header";
  }
  std::vector<uint32_t> words(binary.code.size() / 4);
  std::memcpy(words.data(), binary.code.data(), binary.code.size());
  if (words[0] != kSpirvMagic) {
    runtime_error() << "kernel '" << kernel
                    << "': the code does not start with the SPIR-V magic number "
                    << hex(kSpirvMagic) << " (found " << hex(words[0]) << ")";
  }
  uint32_t major = (words[1] >> 16) & 0xff, minor = (words[1] >> 8) & 0xff;
  uint32_t api = context.physical().api_version;
  if (major != 1 || minor > max_spirv_minor(api)) {
    runtime_error() << "kernel '" << kernel << "' is SPIR-V " << major << "." << minor
                    << ", but Vulkan " << VK_API_VERSION_MAJOR(api) << "."
                    << VK_API_VERSION_MINOR(api) << " on \"" << context.physical().limits.name
                    << "\" takes SPIR-V up to 1." << max_spirv_minor(api);
  }
  EntryPointInfo entry = scan_module(words, binary.name, kernel);
  if (!entry.found) {
    std::string found;
    for (const std::string& name : entry.compute_entry_points) {
      found += (found.empty() ? "'" : ", '") + name + "'";
    }
    runtime_error() << "kernel '" << kernel
                    << "': the SPIR-V module has no GLCompute entry point named '" << kernel
                    << "' (it has " << (found.empty() ? "none" : found) << ")";
  }
  if (entry.local_size && *entry.local_size != binary.block_size) {
    runtime_error() << "kernel '" << kernel << "': the block size " << size_text(binary.block_size)
                    << " differs from the SPIR-V module's LocalSize "
                    << size_text(*entry.local_size);
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

std::vector<uint8_t> VulkanKernel::pack_scalars(std::span<const int64_t> scalars) const {
  std::vector<uint8_t> bytes(push_constant_bytes_, 0);
  for (size_t i = 0; i < scalars.size(); ++i) {
    if (abi_.scalars[i] == ScalarType::Int64) {
      std::memcpy(bytes.data() + scalar_offsets_[i], &scalars[i], 8);
      continue;
    }
    int32_t value = static_cast<int32_t>(scalars[i]);
    std::memcpy(bytes.data() + scalar_offsets_[i], &value, 4);
  }
  return bytes;
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
