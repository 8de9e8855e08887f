// Exact int64 arithmetic for the analyzer: overflow-checked operations, floor and
// truncating division, and the value ranges of integer data types.
#pragma once

#include <cstdint>
#include <limits>
#include <numeric>
#include <optional>

#include "ir/arith/analyzer.h"
#include "ir/support/data_type.h"

namespace relaxc::arith {

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_sub(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_neg(int64_t a) { return checked_sub(0, a); }

// Floor division and modulo (TIR's FloorDiv / FloorMod); nullopt for b == 0 and for
// the one overflowing quotient, INT64_MIN / -1.
inline std::optional<int64_t> floor_div(int64_t a, int64_t b) {
  if (b == 0 || (b == -1 && a == std::numeric_limits<int64_t>::min())) return std::nullopt;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

inline std::optional<int64_t> floor_mod(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Truncating division and modulo (TIR's Div / Mod, C semantics).
inline std::optional<int64_t> trunc_div(int64_t a, int64_t b) {
  if (b == 0 || (b == -1 && a == std::numeric_limits<int64_t>::min())) return std::nullopt;
  return a / b;
}

inline std::optional<int64_t> trunc_mod(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  if (b == -1) return 0;
  return a % b;
}

// Greatest common divisor of |a| and |b| (gcd(0, b) = |b|); 0 if it does not fit.
inline int64_t gcd_abs(int64_t a, int64_t b) {
  uint64_t ua = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t ub = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  uint64_t g = std::gcd(ua, ub);
  return g > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? 0
                                                                        : static_cast<int64_t>(g);
}

// The values an integer data type holds, as inclusive bounds (a 64-bit bound is
// reported as unbounded on that side); unbounded for non-integer types.
inline ConstIntBound dtype_bound(DataType dtype) {
  ConstIntBound b;
  if (!dtype.is_integer()) return b;
  int bits = dtype.bits();
  if (dtype.is_int()) {
    if (bits < 64) {
      b.min = -(int64_t{1} << (bits - 1));
      b.max = (int64_t{1} << (bits - 1)) - 1;
    }
  } else {
    b.min = 0;
    if (bits < 64) b.max = (int64_t{1} << bits) - 1;
  }
  return b;
}

// Whether `value` is representable in integer type `dtype`.
inline bool fits_dtype(int64_t value, DataType dtype) {
  if (!dtype.is_integer()) return false;
  if (dtype.bits() >= 64) return dtype.is_int() || value >= 0;
  ConstIntBound b = dtype_bound(dtype);
  return value >= b.min && value <= b.max;
}

// Whether the analyzer computes with `dtype` as exact integers: signed scalars. (Bool
// and unsigned values are left to folding of constants.)
inline bool is_canonical_int(DataType dtype) { return dtype.is_int() && dtype.is_scalar(); }

}  // namespace relaxc::arith
