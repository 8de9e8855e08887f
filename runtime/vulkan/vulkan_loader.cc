// Opening the Vulkan loader with dlopen and resolving the function tables through
// vkGetInstanceProcAddr / vkGetDeviceProcAddr; VkResult names for messages.
#include "runtime/vulkan/vulkan_loader.h"

#include <dlfcn.h>

#include <string>

namespace relaxc::runtime {
namespace {

// The loader, or the reason it could not be opened, decided once per process.
struct LoadedLoader {
  VulkanGlobalFunctions functions;
  std::string error;  // empty when loaded
};

LoadedLoader open_loader() {
  LoadedLoader loaded;
  void* library = nullptr;
  std::string dl_errors;
  for (const char* name : {"libvulkan.so.1", "libvulkan.so"}) {
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) break;
    const char* why = dlerror();
    dl_errors += std::string(dl_errors.empty() ? "" : "; ") + (why != nullptr ? why : name);
  }
  if (library == nullptr) {
    loaded.error =
        "the Vulkan loader was not found (dlopen libvulkan.so.1, libvulkan.so: " + dl_errors +
        "); install it (Debian/Ubuntu: apt install libvulkan1, plus a driver such as "
        "mesa-vulkan-drivers for the lavapipe CPU device)";
    return loaded;
  }
  auto get_instance_proc_addr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
  if (get_instance_proc_addr == nullptr) {
    loaded.error = "the Vulkan loader was found but does not export vkGetInstanceProcAddr";
    return loaded;
  }
  VulkanGlobalFunctions& fns = loaded.functions;
  fns.vkGetInstanceProcAddr = get_instance_proc_addr;
  fns.vkEnumerateInstanceVersion = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      get_instance_proc_addr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
#define RELAXC_LOAD_GLOBAL(name)                                                          \
  fns.name = reinterpret_cast<PFN_##name>(get_instance_proc_addr(VK_NULL_HANDLE, #name)); \
  if (fns.name == nullptr && loaded.error.empty()) {                                      \
    loaded.error = "the Vulkan loader does not provide " #name;                           \
  }
  RELAXC_VULKAN_GLOBAL_FUNCTIONS(RELAXC_LOAD_GLOBAL)
#undef RELAXC_LOAD_GLOBAL
  return loaded;
}

const char* vk_result_meaning(VkResult result) {
  switch (result) {
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "the host is out of memory";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "the device is out of memory";
    case VK_ERROR_DEVICE_LOST:
      return "the device was lost (a driver crash, a reset or a kernel that ran too long); "
             "reopen the device";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "a requested layer is not installed";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "a requested extension is not supported";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "a requested feature is not supported";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "no driver supports the requested Vulkan version";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "the driver failed to initialize";
    case VK_ERROR_TOO_MANY_OBJECTS:
      return "too many objects of this type (e.g. memory allocations) exist";
    case VK_ERROR_INVALID_SHADER_NV:
      return "the driver rejected the shader";
    default:
      return nullptr;
  }
}

}  // namespace

const VulkanGlobalFunctions& vulkan_loader() {
  static const LoadedLoader loaded = open_loader();
  if (!loaded.error.empty()) runtime_error() << loaded.error;
  return loaded.functions;
}

void VulkanInstanceFunctions::load(const VulkanGlobalFunctions& global, VkInstance instance,
                                   bool debug_utils) {
#define RELAXC_LOAD_INSTANCE(name)                                                    \
  name = reinterpret_cast<PFN_##name>(global.vkGetInstanceProcAddr(instance, #name)); \
  if (name == nullptr) {                                                              \
    runtime_error() << "the Vulkan instance does not provide " #name                  \
                       " (a Vulkan 1.1 loader and driver are needed)";                \
  }
  RELAXC_VULKAN_INSTANCE_FUNCTIONS(RELAXC_LOAD_INSTANCE)
  if (debug_utils) {
    RELAXC_VULKAN_DEBUG_UTILS_FUNCTIONS(RELAXC_LOAD_INSTANCE)
  }
#undef RELAXC_LOAD_INSTANCE
}

void VulkanDeviceFunctions::load(const VulkanInstanceFunctions& instance_functions, VkDevice device,
                                 bool push_descriptor) {
#define RELAXC_LOAD_DEVICE(name)                                                              \
  name = reinterpret_cast<PFN_##name>(instance_functions.vkGetDeviceProcAddr(device, #name)); \
  if (name == nullptr) runtime_error() << "the Vulkan device does not provide " #name;
  RELAXC_VULKAN_DEVICE_FUNCTIONS(RELAXC_LOAD_DEVICE)
  if (push_descriptor) {
    RELAXC_VULKAN_PUSH_DESCRIPTOR_FUNCTIONS(RELAXC_LOAD_DEVICE)
  }
#undef RELAXC_LOAD_DEVICE
}

std::string vk_result_name(VkResult result) {
  switch (result) {
#define RELAXC_RESULT_CASE(name) \
  case name:                     \
    return #name;
    RELAXC_RESULT_CASE(VK_SUCCESS)
    RELAXC_RESULT_CASE(VK_NOT_READY)
    RELAXC_RESULT_CASE(VK_TIMEOUT)
    RELAXC_RESULT_CASE(VK_EVENT_SET)
    RELAXC_RESULT_CASE(VK_EVENT_RESET)
    RELAXC_RESULT_CASE(VK_INCOMPLETE)
    RELAXC_RESULT_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    RELAXC_RESULT_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    RELAXC_RESULT_CASE(VK_ERROR_INITIALIZATION_FAILED)
    RELAXC_RESULT_CASE(VK_ERROR_DEVICE_LOST)
    RELAXC_RESULT_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    RELAXC_RESULT_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    RELAXC_RESULT_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    RELAXC_RESULT_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    RELAXC_RESULT_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    RELAXC_RESULT_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    RELAXC_RESULT_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    RELAXC_RESULT_CASE(VK_ERROR_FRAGMENTED_POOL)
    RELAXC_RESULT_CASE(VK_ERROR_UNKNOWN)
    RELAXC_RESULT_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    RELAXC_RESULT_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    RELAXC_RESULT_CASE(VK_ERROR_FRAGMENTATION)
    RELAXC_RESULT_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    RELAXC_RESULT_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    RELAXC_RESULT_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef RELAXC_RESULT_CASE
    default:
      return "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  }
}

void check_vk(VkResult result, std::string_view call, std::string_view context) {
  if (result == VK_SUCCESS) return;
  std::string message = std::string(call) + " failed with " + vk_result_name(result);
  if (const char* meaning = vk_result_meaning(result)) message += std::string(" (") + meaning + ")";
  if (!context.empty()) message += std::string(" while ") + std::string(context);
  runtime_error() << message;
}

}  // namespace relaxc::runtime
