// Opening a device from a spec string ("vulkan:1", "cuda", "auto") through the device
// registry.
#include "runtime/open_device.h"

#include "runtime/device_registry.h"

namespace relaxc::runtime {
namespace {

// "expected 'auto', 'vulkan', 'vulkan:INDEX', 'vulkan:NAME', 'cuda' or 'cuda:INDEX'".
std::string accepted_specs() {
  std::vector<std::string> specs = {"'auto'"};
  for (const DeviceKind* kind : device_kinds()) {
    specs.push_back("'" + std::string(kind->name) + "'");
    for (std::string_view form : kind->selector_forms) {
      specs.push_back("'" + std::string(kind->name) + ":" + std::string(form) + "'");
    }
  }
  std::string text = "expected ";
  for (size_t i = 0; i < specs.size(); ++i) {
    if (i > 0) text += i + 1 == specs.size() ? " or " : ", ";
    text += specs[i];
  }
  return text;
}

// The first kind, in the order of preference, that opens a device (a CUDA GPU, else the
// Vulkan device open_vulkan_device prefers: a discrete GPU, an integrated one, then a
// CPU device such as lavapipe).
std::unique_ptr<Device> open_best(const std::string& spec) {
  std::string failures;
  for (const DeviceKind* kind : device_kinds_by_preference()) {
    try {
      return kind->open("");
    } catch (const RuntimeError& e) {
      failures +=
          (failures.empty() ? "" : ". ") + std::string(kind->display_name) + ": " + e.what();
    }
  }
  runtime_error() << "device '" << spec << "': no device present. " << failures;
}

}  // namespace

std::unique_ptr<Device> open_device(const std::string& spec) {
  if (spec.empty() || spec == "auto") return open_best(spec.empty() ? "auto" : spec);
  size_t colon = spec.find(':');
  std::string name = spec.substr(0, colon);
  std::string selector = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (colon != std::string::npos && selector.empty()) {
    runtime_error() << "device '" << spec << "': nothing after ':'; " << accepted_specs();
  }
  const DeviceKind* kind = find_device_kind(name);
  if (kind == nullptr) {
    runtime_error() << "device '" << spec << "': unknown device kind '" << name << "'; "
                    << accepted_specs();
  }
  try {
    return kind->open(selector);
  } catch (const RuntimeError& e) {
    runtime_error() << "device '" << spec << "': " << e.what();
  }
}

}  // namespace relaxc::runtime
