// Opening libcuda with dlopen, resolving the Driver API table with dlsym, cuInit, and the
// driver's names and messages for result codes.
#include "runtime/cuda/cuda_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace relaxc::runtime {
namespace {

constexpr const char* kNotAvailable = "CUDA is not available: ";

// The symbol's address in `library`: the first name, else the fallback.
void* resolve(void* library, const char* name, const char* fallback) {
  if (void* address = dlsym(library, name)) return address;
  return dlsym(library, fallback);
}

// The process's driver, or the reason it could not be loaded, decided once.
struct LoadedDriver {
  CudaDriver driver;
  std::string error;  // empty when loaded
};

// libcuda.so.1 (else libcuda.so), or only the library RELAXC_CUDA_LIBRARY names (a driver
// outside the library path, or the tests' fake driver).
LoadedDriver load_process_driver() {
  static constexpr const char* kNames[] = {"libcuda.so.1", "libcuda.so"};
  LoadedDriver loaded;
  try {
    const char* chosen = std::getenv("RELAXC_CUDA_LIBRARY");
    if (chosen != nullptr && *chosen != '\0') {
      const char* names[] = {chosen};
      loaded.driver = load_cuda_driver(names);
    } else {
      loaded.driver = load_cuda_driver(kNames);
    }
  } catch (const RuntimeError& error) {
    loaded.error = error.what();
  }
  return loaded;
}

// Resolves the table from `library` and calls cuInit.
void resolve_and_init(void* library, CudaDriver& driver) {
#define RELAXC_CUDA_RESOLVE(name, symbol, fallback)                                     \
  driver.name = reinterpret_cast<PFN_##name>(resolve(library, symbol, fallback));       \
  if (driver.name == nullptr) {                                                         \
    runtime_error() << kNotAvailable << driver.library << " does not export " << symbol \
                    << " (the NVIDIA driver is too old; update it)";                    \
  }
  RELAXC_CUDA_FUNCTIONS(RELAXC_CUDA_RESOLVE)
#undef RELAXC_CUDA_RESOLVE
  CUresult result = driver.cuInit(0);
  if (result != CUDA_SUCCESS) {
    runtime_error() << kNotAvailable << "cuInit failed: " << driver.result_text(result) << " ("
                    << driver.library << ")";
  }
  driver.check(driver.cuDriverGetVersion(&driver.version), "cuDriverGetVersion");
}

}  // namespace

CudaDriver load_cuda_driver(std::span<const char* const> library_names) {
  void* library = nullptr;
  std::string tried, dl_errors;
  CudaDriver driver;
  for (const char* name : library_names) {
    tried += std::string(tried.empty() ? "" : ", ") + name;
    library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (library != nullptr) {
      driver.library = name;
      break;
    }
    const char* why = dlerror();
    dl_errors += std::string(dl_errors.empty() ? "" : "; ") + (why != nullptr ? why : name);
  }
  if (library == nullptr) {
    std::string first = library_names.empty() ? "libcuda.so.1" : library_names.front();
    runtime_error() << kNotAvailable << first << " not found (install the NVIDIA driver; dlopen "
                    << tried << ": " << dl_errors << ")";
  }
  // A library that fails here is closed again, so that a later load (by its soname) does
  // not find it already in the process.
  try {
    resolve_and_init(library, driver);
  } catch (const RuntimeError&) {
    dlclose(library);
    throw;
  }
  return driver;
}

const CudaDriver& cuda_driver() {
  static const LoadedDriver loaded = load_process_driver();
  if (!loaded.error.empty()) runtime_error() << loaded.error;
  return loaded.driver;
}

std::string CudaDriver::result_text(CUresult result) const {
  const char* name = nullptr;
  const char* meaning = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(result, &name) != CUDA_SUCCESS ||
      name == nullptr) {
    // The toolkit's stub library (found through a stubs folder on the library path)
    // names no error, not even its own.
    if (result == CUDA_ERROR_STUB_LIBRARY) {
      return "CUDA_ERROR_STUB_LIBRARY (the library loaded is the CUDA toolkit's stub, not the "
             "NVIDIA driver's libcuda)";
    }
    return "CUresult(" + std::to_string(static_cast<int>(result)) + ")";
  }
  std::string text = name;
  if (cuGetErrorString != nullptr && cuGetErrorString(result, &meaning) == CUDA_SUCCESS &&
      meaning != nullptr) {
    text += std::string(" (") + meaning + ")";
  }
  return text;
}

void CudaDriver::check(CUresult result, std::string_view call, std::string_view context) const {
  if (result == CUDA_SUCCESS) return;
  std::string message = std::string(call) + " failed: " + result_text(result);
  if (!context.empty()) message += " while " + std::string(context);
  runtime_error() << message;
}

ScopedCudaContext::ScopedCudaContext(const CudaDriver& driver, CUcontext context)
    : driver_(driver) {
  driver_.check(driver_.cuCtxPushCurrent(context), "cuCtxPushCurrent");
}

ScopedCudaContext::~ScopedCudaContext() {
  // Popping the context pushed above cannot fail unless the driver is gone; a destructor
  // has no way to report it.
  CUcontext popped = nullptr;
  (void)driver_.cuCtxPopCurrent(&popped);
}

}  // namespace relaxc::runtime
