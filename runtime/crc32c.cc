// CRC-32C: the SSE4.2 crc32 instruction where the CPU has it (eight bytes per step, so
// that the data section of a model's executable, tens of megabytes, is checked in
// milliseconds), else one 256-entry table built at compile time (a byte per step).
#include "runtime/crc32c.h"

#include <array>
#include <cstring>

namespace relaxc::runtime {
namespace {

constexpr uint32_t kPolynomial = 0x82F63B78u;  // 0x1EDC6F41, bit-reversed

constexpr std::array<uint32_t, 256> make_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t crc = i;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ ((crc & 1u) != 0 ? kPolynomial : 0u);
    table[i] = crc;
  }
  return table;
}

constexpr std::array<uint32_t, 256> kTable = make_table();

uint32_t crc32c_table(uint32_t crc, std::span<const uint8_t> bytes) {
  for (uint8_t b : bytes) crc = (crc >> 8) ^ kTable[(crc ^ b) & 0xFFu];
  return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t crc32c_sse42(uint32_t crc,
                                                        std::span<const uint8_t> bytes) {
  size_t i = 0;
  uint64_t wide = crc;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t word = 0;
    std::memcpy(&word, bytes.data() + i, 8);
    wide = __builtin_ia32_crc32di(wide, word);
  }
  crc = static_cast<uint32_t>(wide);
  for (; i < bytes.size(); ++i) crc = __builtin_ia32_crc32qi(crc, bytes[i]);
  return crc;
}

const bool kHasSse42 = __builtin_cpu_supports("sse4.2");
#endif

}  // namespace

uint32_t crc32c(std::span<const uint8_t> bytes) {
#if defined(__x86_64__)
  if (kHasSse42) return crc32c_sse42(0xFFFFFFFFu, bytes) ^ 0xFFFFFFFFu;
#endif
  return crc32c_table(0xFFFFFFFFu, bytes) ^ 0xFFFFFFFFu;
}

}  // namespace relaxc::runtime
