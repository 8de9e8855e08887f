// CRC-32C with one 256-entry table, built at compile time (a byte per step is fast
// enough: the loader checksums each section once).
#include "runtime/crc32c.h"

#include <array>

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

}  // namespace

uint32_t crc32c(std::span<const uint8_t> bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t b : bytes) crc = (crc >> 8) ^ kTable[(crc ^ b) & 0xFFu];
  return crc ^ 0xFFFFFFFFu;
}

}  // namespace relaxc::runtime
