// Reading a physical device's limits and features (Vulkan 1.1 property and feature
// chains, plus the 1.2 / extension structures where present) and choosing a device.
#include "runtime/vulkan/vulkan_physical_device.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace relaxc::runtime {
namespace {

std::vector<VkExtensionProperties> device_extensions(const VulkanInstanceFunctions& fns,
                                                     VkPhysicalDevice device) {
  uint32_t count = 0;
  check_vk(fns.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr),
           "vkEnumerateDeviceExtensionProperties");
  std::vector<VkExtensionProperties> extensions(count);
  check_vk(fns.vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data()),
           "vkEnumerateDeviceExtensionProperties");
  extensions.resize(count);
  return extensions;
}

bool has_extension(const std::vector<VkExtensionProperties>& extensions, const char* name) {
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}

std::optional<uint32_t> find_compute_queue_family(const VulkanInstanceFunctions& fns,
                                                  VkPhysicalDevice device) {
  uint32_t count = 0;
  fns.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  fns.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i) {
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0 && families[i].queueCount > 0) {
      return i;
    }
  }
  return std::nullopt;
}

PhysicalDeviceInfo query_device(const VulkanInstance& instance, VkPhysicalDevice device) {
  const VulkanInstanceFunctions& fns = instance.functions();
  PhysicalDeviceInfo info;
  info.handle = device;
  VkPhysicalDeviceProperties basic{};
  fns.vkGetPhysicalDeviceProperties(device, &basic);
  info.api_version = std::min(basic.apiVersion, instance.api_version());
  info.compute_queue_family = find_compute_queue_family(fns, device);
  fns.vkGetPhysicalDeviceMemoryProperties(device, &info.memory);
  const VkPhysicalDeviceLimits& vk_limits = basic.limits;
  if (info.compute_queue_family && vk_limits.timestampPeriod > 0) {
    uint32_t count = 0;
    fns.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    fns.vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    info.timestamp_valid_bits = families[*info.compute_queue_family].timestampValidBits;
    info.timestamp_period_ns = vk_limits.timestampPeriod;
  }
  info.max_storage_buffer_range = vk_limits.maxStorageBufferRange;
  info.max_storage_buffers_per_stage = vk_limits.maxPerStageDescriptorStorageBuffers;

  DeviceLimits& limits = info.limits;
  limits.name = basic.deviceName;
  limits.is_cpu = basic.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  limits.is_discrete = basic.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
  limits.max_threads_per_block = vk_limits.maxComputeWorkGroupInvocations;
  for (int d = 0; d < 3; ++d) {
    limits.max_block_size[d] = vk_limits.maxComputeWorkGroupSize[d];
    limits.max_grid_size[d] = vk_limits.maxComputeWorkGroupCount[d];
  }
  limits.max_shared_memory_bytes = vk_limits.maxComputeSharedMemorySize;
  limits.max_push_constant_bytes = vk_limits.maxPushConstantsSize;
  limits.api_version_major = static_cast<int>(VK_API_VERSION_MAJOR(info.api_version));
  limits.api_version_minor = static_cast<int>(VK_API_VERSION_MINOR(info.api_version));
  // The property and feature chains below are Vulkan 1.1; such a device is listed with
  // its basic limits and never chosen.
  if (info.api_version < VK_API_VERSION_1_1) return info;

  std::vector<VkExtensionProperties> extensions = device_extensions(fns, device);
  bool vulkan_1_2 = info.api_version >= VK_API_VERSION_1_2;
  bool has_8bit_storage = vulkan_1_2 || has_extension(extensions, "VK_KHR_8bit_storage");
  bool has_float16_int8 = vulkan_1_2 || has_extension(extensions, "VK_KHR_shader_float16_int8");
  bool has_push_descriptor = has_extension(extensions, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);

  VkPhysicalDeviceSubgroupProperties subgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceMaintenance3Properties maintenance3{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
  VkPhysicalDevicePushDescriptorPropertiesKHR push_descriptor{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
  subgroup.pNext = &maintenance3;
  if (has_push_descriptor) maintenance3.pNext = &push_descriptor;
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
  properties.pNext = &subgroup;
  fns.vkGetPhysicalDeviceProperties2(device, &properties);

  // 16-bit storage is core 1.1; 8-bit storage and float16/int8 need 1.2 or their
  // extensions, and are chained only then.
  VkPhysicalDevice16BitStorageFeatures storage16{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
  VkPhysicalDevice8BitStorageFeatures storage8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES};
  VkPhysicalDeviceShaderFloat16Int8Features float16_int8{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  void** tail = &features.pNext;
  *tail = &storage16;
  tail = &storage16.pNext;
  if (has_8bit_storage) {
    *tail = &storage8;
    tail = &storage8.pNext;
  }
  if (has_float16_int8) *tail = &float16_int8;
  fns.vkGetPhysicalDeviceFeatures2(device, &features);

  info.shader_int16 = features.features.shaderInt16 == VK_TRUE;
  info.shader_int64 = features.features.shaderInt64 == VK_TRUE;
  info.shader_float64 = features.features.shaderFloat64 == VK_TRUE;
  info.storage_buffer_16bit = storage16.storageBuffer16BitAccess == VK_TRUE;
  info.storage_buffer_8bit = has_8bit_storage && storage8.storageBuffer8BitAccess == VK_TRUE;
  info.shader_float16 = has_float16_int8 && float16_int8.shaderFloat16 == VK_TRUE;
  info.shader_int8 = has_float16_int8 && float16_int8.shaderInt8 == VK_TRUE;
  info.use_8bit_storage_extension = !vulkan_1_2 && info.storage_buffer_8bit;
  info.use_float16_int8_extension = !vulkan_1_2 && (info.shader_float16 || info.shader_int8);
  info.max_memory_allocation_size = maintenance3.maxMemoryAllocationSize;
  limits.buffer_offset_alignment = vk_limits.minStorageBufferOffsetAlignment;
  limits.max_allocation_bytes = maintenance3.maxMemoryAllocationSize;
  limits.pool_block_bytes = maintenance3.maxMemoryAllocationSize == 0
                                ? kPoolBlockBytes
                                : std::min(kPoolBlockBytes, maintenance3.maxMemoryAllocationSize);
  info.max_push_descriptors = has_push_descriptor ? push_descriptor.maxPushDescriptors : 0;

  limits.subgroup_size = static_cast<int>(subgroup.subgroupSize);
  limits.supports_subgroup_arithmetic =
      (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
      (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) != 0;
  limits.supports_fp16 = info.shader_float16 && info.storage_buffer_16bit;
  limits.supports_fp64 = info.shader_float64;
  limits.supports_int8 = info.shader_int8 && info.storage_buffer_8bit;
  limits.supports_int16 = info.shader_int16;
  limits.supports_int64 = info.shader_int64;
  return info;
}

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool is_index(const std::string& text) {
  return !text.empty() && text.size() <= 9 &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string device_list(const std::vector<PhysicalDeviceInfo>& devices) {
  std::string list;
  for (size_t i = 0; i < devices.size(); ++i) {
    list += (i == 0 ? "" : ", ") + std::to_string(i) + ": " + devices[i].limits.name;
  }
  return list.empty() ? "none" : list;
}

// Discrete GPUs first, then integrated, then the rest (virtual GPUs, CPU devices).
int kind_rank(const PhysicalDeviceInfo& device) {
  if (device.limits.is_discrete) return 0;
  if (device.limits.is_cpu) return 2;
  return 1;
}

}  // namespace

std::vector<PhysicalDeviceInfo> query_physical_devices(const VulkanInstance& instance) {
  std::vector<PhysicalDeviceInfo> devices;
  for (VkPhysicalDevice device : instance.physical_devices()) {
    devices.push_back(query_device(instance, device));
  }
  return devices;
}

size_t choose_physical_device(const std::vector<PhysicalDeviceInfo>& devices,
                              const std::string& request, const std::string& origin) {
  if (devices.empty()) {
    runtime_error() << "no Vulkan device found; install a driver (e.g. mesa-vulkan-drivers "
                       "for the lavapipe CPU device)";
  }
  std::optional<size_t> chosen;
  if (request.empty()) {
    for (size_t i = 0; i < devices.size(); ++i) {
      if (!devices[i].compute_queue_family || devices[i].api_version < VK_API_VERSION_1_1) {
        continue;
      }
      if (!chosen || kind_rank(devices[i]) < kind_rank(devices[*chosen])) chosen = i;
    }
    if (!chosen) {
      runtime_error() << "no Vulkan 1.1 device with a compute queue was found; the devices are: "
                      << device_list(devices);
    }
    return *chosen;
  }
  if (is_index(request)) {
    size_t index = std::stoul(request);
    if (index >= devices.size()) {
      runtime_error() << "Vulkan device index " << request << " (" << origin
                      << ") is out of range; the devices are: " << device_list(devices);
    }
    chosen = index;
  } else {
    std::string needle = lowercase(request);
    for (size_t i = 0; i < devices.size() && !chosen; ++i) {
      if (lowercase(devices[i].limits.name).find(needle) != std::string::npos) chosen = i;
    }
    if (!chosen) {
      runtime_error() << "no Vulkan device matches \"" << request << "\" (" << origin
                      << "); the devices are: " << device_list(devices);
    }
  }
  if (!devices[*chosen].compute_queue_family) {
    runtime_error() << "Vulkan device \"" << devices[*chosen].limits.name
                    << "\" has no queue that runs compute shaders";
  }
  if (devices[*chosen].api_version < VK_API_VERSION_1_1) {
    runtime_error() << "Vulkan device \"" << devices[*chosen].limits.name
                    << "\" supports only Vulkan 1.0; relaxc needs 1.1 or later";
  }
  return *chosen;
}

}  // namespace relaxc::runtime
