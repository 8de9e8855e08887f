// Finding and linking libdevice.
//
// The file's bytes are cached per path (it is about half a megabyte); each module parses
// it lazily into its own LLVMContext, and the linker materializes only the functions the
// module calls (Linker::LinkOnlyNeeded), which are then internalized.
#include "codegen/cuda/libdevice.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

bool is_file(const std::string& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

// The file's contents, read once per process.
const llvm::MemoryBuffer& libdevice_bytes(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<llvm::MemoryBuffer>& entry = cache[path];
  if (entry == nullptr) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      cache.erase(path);
      user_error() << "cannot read libdevice '" << path << "': " << file.getError().message();
    }
    entry = std::move(*file);
  }
  return *entry;
}

}  // namespace

std::string find_libdevice() {
  if (const char* chosen = std::getenv("RELAXC_LIBDEVICE"); chosen != nullptr && *chosen != 0) {
    std::string path = chosen;
    if (path == "none") return "";
    if (!is_file(path)) {
      user_error() << "RELAXC_LIBDEVICE names '" << path
                   << "', which is not a file; give the path of libdevice.10.bc, or 'none'";
    }
    return path;
  }
  std::vector<std::string> folders;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != 0) {
    folders.push_back(std::string(home) + "/nvvm/libdevice");
  }
  folders.push_back("/usr/local/cuda/nvvm/libdevice");
  folders.push_back("/usr/lib/nvidia-cuda-toolkit/libdevice");
  for (const std::string& folder : folders) {
    std::string path = folder + "/libdevice.10.bc";
    if (is_file(path)) return path;
  }
  return "";
}

void link_libdevice(llvm::Module& module, const std::string& path) {
  const llvm::MemoryBuffer& bytes = libdevice_bytes(path);
  llvm::Expected<std::unique_ptr<llvm::Module>> library =
      llvm::getLazyBitcodeModule(bytes.getMemBufferRef(), module.getContext());
  if (!library) {
    std::string why = llvm::toString(library.takeError());
    user_error() << "libdevice '" << path << "' is not LLVM bitcode: " << why;
  }
  // libdevice is built for a generic NVPTX triple; taking the module's own avoids the
  // linker's mismatch warnings.
  (*library)->setTargetTriple(module.getTargetTriple());
  (*library)->setDataLayout(module.getDataLayout());
  bool failed = llvm::Linker::linkModules(
      module, std::move(*library), llvm::Linker::LinkOnlyNeeded,
      [](llvm::Module& linked, const llvm::StringSet<>& from_library) {
        llvm::internalizeModule(linked, [&](const llvm::GlobalValue& value) {
          return !value.hasName() || !from_library.contains(value.getName());
        });
      });
  if (failed) user_error() << "linking libdevice '" << path << "' failed";
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t{0});
}

}  // namespace relaxc::codegen
