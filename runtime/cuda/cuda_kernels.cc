// Kernel loading on CUDA. Before the driver sees the PTX, check_kernel_code's light scan
// of its text (scan_ptx_entries, here) finds the `.entry` declarations and their
// parameter sizes, so that a kernel whose parameters do not match the ABI it is launched
// with is a RuntimeError rather than a launch that reads garbage. Then cuModuleLoadDataEx
// JIT-compiles the module for the device (its error log goes into the message), and the entry's
// attributes are checked against the block size (registers can lower a kernel's threads per block
// below the device's maximum).
#include "runtime/cuda/cuda_kernels.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <utility>

namespace relaxc::runtime {
namespace {

constexpr size_t kJitLogBytes = 16 * 1024;

// The PTX text without its comments, which may mention `.entry` or hold parentheses.
std::string strip_comments(std::string_view ptx) {
  std::string text;
  text.reserve(ptx.size());
  for (size_t i = 0; i < ptx.size();) {
    if (ptx.compare(i, 2, "//") == 0) {
      i = ptx.find('\n', i);
      if (i == std::string_view::npos) break;
    } else if (ptx.compare(i, 2, "/*") == 0) {
      size_t end = ptx.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      text += ' ';
      i = end + 2;
    } else if (ptx[i] == '"') {  // strings (in .file directives) are kept whole
      size_t end = ptx.find('"', i + 1);
      end = end == std::string_view::npos ? ptx.size() : end + 1;
      text.append(ptx.substr(i, end - i));
      i = end;
    } else {
      text += ptx[i++];
    }
  }
  return text;
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '%';
}

// The size in bytes of one `.param` declaration ("  .param .u64 .ptr .global .align 1 a",
// ".param .align 8 .b8 s[16]"), or nullopt when it has no fundamental type this scan knows.
std::optional<size_t> param_bytes(std::string_view declaration) {
  std::optional<size_t> element;
  size_t count = 1;
  for (size_t i = 0; i < declaration.size();) {
    while (i < declaration.size() && std::isspace(static_cast<unsigned char>(declaration[i]))) ++i;
    size_t begin = i;
    while (i < declaration.size() && !std::isspace(static_cast<unsigned char>(declaration[i]))) {
      ++i;
    }
    std::string_view word = declaration.substr(begin, i - begin);
    if (word.size() >= 3 && word[0] == '.' && std::strchr("usbf", word[1]) != nullptr &&
        std::isdigit(static_cast<unsigned char>(word[2])) != 0) {
      int bits = std::atoi(std::string(word.substr(2)).c_str());
      if (bits == 8 || bits == 16 || bits == 32 || bits == 64) element = bits / 8;
    }
    if (size_t open = word.find('['); open != std::string_view::npos) {
      count = std::strtoull(std::string(word.substr(open + 1)).c_str(), nullptr, 10);
    }
  }
  if (!element || count == 0) return std::nullopt;
  return *element * count;
}

}  // namespace

std::vector<PtxEntry> scan_ptx_entries(std::string_view ptx) {
  std::string text = strip_comments(ptx);
  std::vector<PtxEntry> entries;
  for (size_t at = text.find(".entry"); at != std::string::npos; at = text.find(".entry", at)) {
    at += 6;
    if (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at]))) continue;
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    size_t begin = at;
    while (at < text.size() && is_identifier_char(text[at])) ++at;
    PtxEntry entry{text.substr(begin, at - begin), std::vector<size_t>{}};
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    if (at < text.size() && text[at] == '(') {
      size_t close = text.find(')', at);
      if (close == std::string::npos) {
        entry.param_sizes.reset();
      } else {
        std::string_view list(text.data() + at + 1, close - at - 1);
        for (size_t from = 0; from <= list.size() && entry.param_sizes;) {
          size_t comma = std::min(list.find(',', from), list.size());
          std::string_view declaration = list.substr(from, comma - from);
          if (declaration.find_first_not_of(" \t\r\n") != std::string_view::npos) {
            std::optional<size_t> bytes = param_bytes(declaration);
            if (bytes) {
              entry.param_sizes->push_back(*bytes);
            } else {
              entry.param_sizes.reset();
            }
          }
          from = comma + 1;
        }
        at = close;
      }
    }
    if (!entry.name.empty()) entries.push_back(std::move(entry));
  }
  return entries;
}

namespace {

// The PTX text of `binary` (check_kernel_code's: text, with the entry the ABI names and
// matching parameters) as a NUL-terminated string the driver can read.
std::string checked_ptx(const KernelBinary& binary) {
  if (binary.format != KernelFormat::Ptx) {
    runtime_error() << "kernel '" << binary.name << "' is " << kernel_format_name(binary.format)
                    << "; the CUDA device runs PTX";
  }
  check_kernel_code(binary);
  std::string ptx(binary.code.begin(), binary.code.end());
  while (!ptx.empty() && ptx.back() == '\0') ptx.pop_back();
  return ptx;
}

// The shared limits, then the buffer count against the kernel parameter space.
void check_limits(const KernelBinary& binary, const DeviceLimits& limits) {
  check_kernel_limits(binary, limits);
  const std::string where = kernel_on_device(binary.name, limits);
  if (binary.num_buffers < 0) {
    runtime_error() << where << "takes " << binary.num_buffers << " buffers";
  }
  // Parameters are laid out at their natural alignment; 8 bytes each bounds that.
  size_t param_bytes = 8 * (static_cast<size_t>(binary.num_buffers) + binary.scalars.size());
  if (param_bytes > static_cast<size_t>(limits.max_push_constant_bytes)) {
    runtime_error() << where << "takes " << binary.num_buffers << " buffers and "
                    << binary.scalars.size() << " scalars, more than the kernel parameter space of "
                    << limits.max_push_constant_bytes << " bytes holds";
  }
}

std::string abi_key(const KernelBinary& binary, const std::string& ptx) {
  std::string key = ptx;
  key += '\0' + binary.name + '\0' + std::to_string(binary.num_buffers) + '\0';
  for (uint32_t size : binary.block_size) key += std::to_string(size) + ',';
  for (ScalarType type : binary.scalars) key += type == ScalarType::Int64 ? 'l' : 'i';
  key += '\0' + std::to_string(binary.shared_memory_bytes);
  return key;
}

}  // namespace

CudaKernelCache::CudaKernelCache(const CudaDriver& driver, const DeviceLimits& limits)
    : driver_(driver), limits_(limits) {}

CudaKernelCache::~CudaKernelCache() {
  for (auto& [ptx, module] : modules_) (void)driver_.cuModuleUnload(module);
}

CUmodule CudaKernelCache::module_for(const std::string& ptx, const std::string& kernel) {
  auto it = modules_.find(ptx);
  if (it != modules_.end()) return it->second;
  std::string error_log(kJitLogBytes, '\0');
  std::string info_log(kJitLogBytes, '\0');
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                            CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  // Sizes travel in the pointer-sized option values themselves, as the API specifies.
  void* values[] = {error_log.data(), reinterpret_cast<void*>(uintptr_t{kJitLogBytes}),
                    info_log.data(), reinterpret_cast<void*>(uintptr_t{kJitLogBytes})};
  CUmodule module = nullptr;
  CUresult result = driver_.cuModuleLoadDataEx(&module, ptx.c_str(), 4, options, values);
  if (result != CUDA_SUCCESS) {
    error_log.resize(strnlen(error_log.data(), error_log.size()));
    while (!error_log.empty() && std::isspace(static_cast<unsigned char>(error_log.back()))) {
      error_log.pop_back();
    }
    runtime_error() << "cuModuleLoadDataEx failed: " << driver_.result_text(result)
                    << " while loading kernel '" << kernel << "'"
                    << (error_log.empty() ? std::string(" (the JIT log is empty)")
                                          : ": " + error_log);
  }
  modules_.emplace(ptx, module);
  return module;
}

KernelId CudaKernelCache::load(const KernelBinary& binary) {
  std::string ptx = checked_ptx(binary);
  std::string key = abi_key(binary, ptx);
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  check_limits(binary, limits_);

  CUmodule module = module_for(ptx, binary.name);
  CudaKernel kernel;
  kernel.abi = {binary.name, binary.num_buffers, binary.scalars};
  CUresult result = driver_.cuModuleGetFunction(&kernel.function, module, binary.name.c_str());
  driver_.check(result, "cuModuleGetFunction", "loading kernel '" + binary.name + "'");
  int max_threads = 0, registers = 0;
  driver_.check(driver_.cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                           kernel.function),
                "cuFuncGetAttribute", "reading kernel '" + binary.name + "'");
  driver_.check(driver_.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel.function),
                "cuFuncGetAttribute", "reading kernel '" + binary.name + "'");
  int64_t threads = int64_t{binary.block_size[0]} * binary.block_size[1] * binary.block_size[2];
  if (threads > max_threads) {
    runtime_error() << kernel_on_device(binary.name, limits_) << "block size "
                    << size_text(binary.block_size) << " has " << threads
                    << " threads, but the compiled kernel runs at most " << max_threads
                    << " per block (it uses " << registers << " registers per thread)";
  }
  kernel.block_size = binary.block_size;
  kernels_.push_back(std::move(kernel));
  KernelId id = static_cast<KernelId>(kernels_.size());
  ids_.emplace(std::move(key), id);
  return id;
}

const CudaKernel& CudaKernelCache::get(KernelId id) const {
  if (id == 0 || id > kernels_.size()) {
    runtime_error() << "kernel id " << id << " was not returned by load_kernel";
  }
  return kernels_[id - 1];
}

void CudaKernel::launch(const CudaDriver& driver, CUstream stream,
                        std::array<uint32_t, 3> grid_size, std::span<const CUdeviceptr> buffers,
                        std::span<const int64_t> scalars, CudaLaunchParams& params) const {
  if (grid_size[0] == 0 || grid_size[1] == 0 || grid_size[2] == 0) return;  // no work
  // cuLaunchKernel reads each parameter through a pointer to its value, at call time.
  params.addresses.assign(buffers.begin(), buffers.end());
  params.wide.assign(scalars.begin(), scalars.end());
  params.narrow.resize(scalars.size());
  params.pointers.clear();
  for (CUdeviceptr& address : params.addresses) params.pointers.push_back(&address);
  for (size_t i = 0; i < scalars.size(); ++i) {
    if (abi.scalars[i] == ScalarType::Int64) {
      params.pointers.push_back(&params.wide[i]);
      continue;
    }
    params.narrow[i] = static_cast<int32_t>(params.wide[i]);
    params.pointers.push_back(&params.narrow[i]);
  }
  CUresult result = driver.cuLaunchKernel(
      function, grid_size[0], grid_size[1], grid_size[2], block_size[0], block_size[1],
      block_size[2], /*sharedMemBytes=*/0, stream, params.pointers.data(), nullptr);
  if (result != CUDA_SUCCESS) {
    driver.check(result, "cuLaunchKernel",
                 "launching kernel '" + abi.name + "' with grid " + size_text(grid_size) +
                     " and block " + size_text(block_size));
  }
}

}  // namespace relaxc::runtime
