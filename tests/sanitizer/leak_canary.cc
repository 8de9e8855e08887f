// A planted leak, to show that LeakSanitizer still sees relaxc's own leaks after a Vulkan
// device (and with it the driver libraries, which the runtime keeps loaded) was opened
// and closed. The test passes when the report names exactly this one block.
#include <cstdio>
#include <memory>

#include "runtime/open_device.h"

namespace {

// The size is unusual so that the expected report cannot match another leak.
constexpr int kPlantedBytes = 4321;

void plant_leak() {
  char* block = new char[kPlantedBytes];
  block[0] = 1;
  // The pointer goes out of scope without a delete: a leak in our code.
  std::printf("planted a leak of %d bytes at %p\n", kPlantedBytes, static_cast<void*>(block));
}

}  // namespace

int main() {
  try {
    std::unique_ptr<relaxc::runtime::Device> device = relaxc::runtime::open_device("vulkan");
    std::printf("opened and closed a Vulkan device\n");
  } catch (const relaxc::runtime::RuntimeError& e) {
    std::printf("no Vulkan device: %s\n", e.what());
  }
  plant_leak();
  return 0;
}
