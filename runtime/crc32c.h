// CRC-32C (Castagnoli), the checksum of each section of an executable file: it detects
// accidental damage (a flipped bit, a truncated or spliced copy) before the loader reads
// anything from the damaged bytes. It is not a signature: see docs/architecture.md on why
// an executable is trusted like a shared library.
#pragma once
#include <cstdint>
#include <span>

namespace relaxc::runtime {

// The CRC-32C of `bytes` (reflected polynomial 0x82F63B78, initial value and final xor
// 0xFFFFFFFF): crc32c("123456789") == 0xE3069283.
uint32_t crc32c(std::span<const uint8_t> bytes);

}  // namespace relaxc::runtime
