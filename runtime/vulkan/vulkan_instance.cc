// The Vulkan instance: version negotiation, the validation layer and its messenger, and
// the driver libraries kept loaded once opened.
#include "runtime/vulkan/vulkan_instance.h"

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace relaxc::runtime {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const VulkanGlobalFunctions& fns, const char* name) {
  uint32_t count = 0;
  check_vk(fns.vkEnumerateInstanceLayerProperties(&count, nullptr),
           "vkEnumerateInstanceLayerProperties");
  std::vector<VkLayerProperties> layers(count);
  check_vk(fns.vkEnumerateInstanceLayerProperties(&count, layers.data()),
           "vkEnumerateInstanceLayerProperties");
  layers.resize(count);
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& layer) {
    return std::strcmp(layer.layerName, name) == 0;
  });
}

bool has_instance_extension(const VulkanGlobalFunctions& fns, const char* layer, const char* name) {
  uint32_t count = 0;
  check_vk(fns.vkEnumerateInstanceExtensionProperties(layer, &count, nullptr),
           "vkEnumerateInstanceExtensionProperties");
  std::vector<VkExtensionProperties> extensions(count);
  check_vk(fns.vkEnumerateInstanceExtensionProperties(layer, &count, extensions.data()),
           "vkEnumerateInstanceExtensionProperties");
  extensions.resize(count);
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const VkExtensionProperties& extension) {
                       return std::strcmp(extension.extensionName, name) == 0;
                     });
}

// The paths of the shared objects loaded in the process now.
std::set<std::string> loaded_libraries() {
  std::set<std::string> paths;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] != '\0') {
          static_cast<std::set<std::string>*>(data)->insert(info->dlpi_name);
        }
        return 0;
      },
      &paths);
  return paths;
}

// Marks every shared object loaded now, except those in `except`, as never to be
// unloaded. The loader opens the drivers (ICDs, with their dependencies: lavapipe brings
// LLVM) and layers when an instance is made and closes them at vkDestroyInstance. Drivers
// are made to be loaded once per process: unloading one drops memory that only its own
// data still pointed to, which LeakSanitizer then reports in a module it can no longer
// name (so no suppression can match it, and whether it shows depends on the paths the
// driver took on this processor), and opening it again costs a reload. Kept loaded, that
// memory stays reachable, and leak checkers still see every block of relaxc's own.
void keep_libraries_loaded(const std::set<std::string>& except) {
  for (const std::string& path : loaded_libraries()) {
    if (except.count(path) != 0) continue;
    // RTLD_NOLOAD: only a library already loaded; the handle is kept on purpose.
    dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
  }
}

const char* severity_name(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  return (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) != 0 ? "error" : "warning";
}

}  // namespace

VulkanInstance VulkanInstance::create(bool validation) {
  std::set<std::string> libraries_before = loaded_libraries();
  const VulkanGlobalFunctions& global = vulkan_loader();
  uint32_t loader_version = VK_API_VERSION_1_0;
  if (global.vkEnumerateInstanceVersion != nullptr) {
    check_vk(global.vkEnumerateInstanceVersion(&loader_version), "vkEnumerateInstanceVersion");
  }
  if (loader_version < VK_API_VERSION_1_1) {
    runtime_error() << "the Vulkan loader supports only Vulkan 1.0; relaxc needs 1.1 or later";
  }

  VulkanInstance instance;
  instance.libraries_before_ = std::move(libraries_before);
  instance.api_version_ = std::min<uint32_t>(loader_version, VK_API_VERSION_1_3);
  std::vector<const char*> layers, extensions;
  VkDebugUtilsMessengerCreateInfoEXT messenger_info{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  if (validation) {
    if (!has_layer(global, kValidationLayer)) {
      runtime_error() << "Vulkan validation was requested but the layer " << kValidationLayer
                      << " is not installed (Debian/Ubuntu: apt install "
                         "vulkan-validationlayers)";
    }
    if (!has_instance_extension(global, kValidationLayer, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !has_instance_extension(global, nullptr, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      runtime_error() << "Vulkan validation was requested but VK_EXT_debug_utils, which "
                         "reports its messages, is not available";
    }
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    instance.log_ = std::make_unique<MessageLog>();
    messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                     VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = &VulkanInstance::on_message;
    messenger_info.pUserData = instance.log_.get();
  }

  VkApplicationInfo app_info{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app_info.pApplicationName = "relaxc";
  app_info.pEngineName = "relaxc";
  app_info.apiVersion = instance.api_version_;
  // Synchronization validation checks the barriers between copies and dispatches, the
  // part of a runtime that the core checks cannot see.
  VkValidationFeatureEnableEXT enabled_features[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT validation_features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  validation_features.enabledValidationFeatureCount = 1;
  validation_features.pEnabledValidationFeatures = enabled_features;
  if (validation &&
      has_instance_extension(global, kValidationLayer, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
    extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
    messenger_info.pNext = &validation_features;
  }
  VkInstanceCreateInfo create_info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  // Chained here too, so that instance creation and destruction are validated.
  create_info.pNext = validation ? &messenger_info : nullptr;
  create_info.pApplicationInfo = &app_info;
  create_info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  create_info.ppEnabledLayerNames = layers.data();
  create_info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  create_info.ppEnabledExtensionNames = extensions.data();
  check_vk(global.vkCreateInstance(&create_info, nullptr, &instance.instance_), "vkCreateInstance");
  instance.functions_.load(global, instance.instance_, validation);
  if (validation) {
    messenger_info.pNext = nullptr;  // the validation features belong to the instance
    check_vk(instance.functions_.vkCreateDebugUtilsMessengerEXT(instance.instance_, &messenger_info,
                                                                nullptr, &instance.messenger_),
             "vkCreateDebugUtilsMessengerEXT");
  }
  return instance;
}

VulkanInstance::VulkanInstance(VulkanInstance&& other) noexcept
    : instance_(std::exchange(other.instance_, VK_NULL_HANDLE)),
      functions_(other.functions_),
      api_version_(other.api_version_),
      log_(std::move(other.log_)),
      messenger_(std::exchange(other.messenger_, VK_NULL_HANDLE)),
      libraries_before_(std::move(other.libraries_before_)) {}

VulkanInstance& VulkanInstance::operator=(VulkanInstance&& other) noexcept {
  if (this != &other) {
    destroy();
    instance_ = std::exchange(other.instance_, VK_NULL_HANDLE);
    functions_ = other.functions_;
    api_version_ = other.api_version_;
    log_ = std::move(other.log_);
    messenger_ = std::exchange(other.messenger_, VK_NULL_HANDLE);
    libraries_before_ = std::move(other.libraries_before_);
  }
  return *this;
}

VulkanInstance::~VulkanInstance() { destroy(); }

void VulkanInstance::destroy() {
  if (messenger_ != VK_NULL_HANDLE) {
    functions_.vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE) {
    keep_libraries_loaded(libraries_before_);
    functions_.vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
  }
}

std::vector<VkPhysicalDevice> VulkanInstance::physical_devices() const {
  uint32_t count = 0;
  check_vk(functions_.vkEnumeratePhysicalDevices(instance_, &count, nullptr),
           "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  if (count > 0) {
    VkResult result = functions_.vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    // A device that appeared between the two calls is left for the next enumeration.
    if (result != VK_INCOMPLETE) check_vk(result, "vkEnumeratePhysicalDevices");
  }
  devices.resize(count);
  return devices;
}

std::vector<std::string> VulkanInstance::validation_messages() const {
  if (log_ == nullptr) return {};
  std::lock_guard<std::mutex> lock(log_->mutex);
  return log_->messages;
}

VkBool32 VulkanInstance::on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                    VkDebugUtilsMessageTypeFlagsEXT /*types*/,
                                    const VkDebugUtilsMessengerCallbackDataEXT* data,
                                    void* user_data) {
  auto* log = static_cast<MessageLog*>(user_data);
  std::string message = std::string("Vulkan validation ") + severity_name(severity) + ": ";
  if (data != nullptr && data->pMessage != nullptr) message += data->pMessage;
  std::lock_guard<std::mutex> lock(log->mutex);
  log->messages.push_back(std::move(message));
  return VK_FALSE;  // the call that caused the message goes on
}

}  // namespace relaxc::runtime
