// HostTensor element access and construction.
#include "ir/support/host_tensor.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "ir/support/diagnostics.h"

namespace relaxc {

namespace {

// IEEE half <-> float conversions, for float16 constants.
float half_to_float(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign << 31;
    } else {
      exp = 127 - 15 + 1;
      while ((mant & 0x400) == 0) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ff;
      bits = (sign << 31) | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    bits = (sign << 31) | 0x7f800000 | (mant << 13);
  } else {
    bits = (sign << 31) | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t float_to_half(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint32_t sign = (bits >> 16) & 0x8000;
  int32_t exp = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
  uint32_t mant = bits & 0x7fffff;
  if (((bits >> 23) & 0xff) == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (mant ? 0x200 : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    if ((mant >> (shift - 1)) & 1) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  if (mant & 0x1000) ++half;  // round half up
  return static_cast<uint16_t>(half);
}

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// `v` as an integer of `dtype`, truncated toward zero and saturated to the dtype's range
// (NaN: 0; bool: whether v is non-zero), as the bits of its two's complement: a value
// out of range (Shrink's lambd of 7e22 on int32, a Clip bound of -inf) must not reach
// a C++ conversion, whose result is undefined there.
uint64_t saturated_integer_bits(double v, DataType dtype) {
  if (std::isnan(v)) return 0;
  if (dtype.is_bool()) return v != 0 ? 1 : 0;
  int bits = dtype.bits();
  if (dtype.is_int()) {
    double limit = std::ldexp(1.0, bits - 1);  // exact: a power of two
    int64_t low = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t{1} << (bits - 1));
    if (v < -limit) return static_cast<uint64_t>(low);
    if (v >= limit) return static_cast<uint64_t>(-(low + 1));
    return static_cast<uint64_t>(static_cast<int64_t>(v));
  }
  double limit = std::ldexp(1.0, bits);
  if (v <= -1) return 0;
  if (v >= limit) return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return static_cast<uint64_t>(v);
}

}  // namespace

int64_t HostTensor::num_elements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

double HostTensor::element_as_double(int64_t i) const {
  const uint8_t* p = data->data() + i * dtype.bytes();
  switch (dtype.code()) {
    case DataType::Code::Float:
      if (dtype.bits() == 16) return half_to_float(load<uint16_t>(p));
      if (dtype.bits() == 32) return load<float>(p);
      return load<double>(p);
    case DataType::Code::BFloat: {
      uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    default: return static_cast<double>(element_as_int(i));
  }
}

int64_t HostTensor::element_as_int(int64_t i) const {
  const uint8_t* p = data->data() + i * dtype.bytes();
  if (dtype.is_float()) {
    return static_cast<int64_t>(saturated_integer_bits(element_as_double(i), DataType::Int(64)));
  }
  bool is_signed = dtype.is_int();
  switch (dtype.bits()) {
    case 1:
    // Each arm converts to int64 on its own: a ?: over int32 and uint32 would convert
    // the signed value to unsigned first.
    case 8: return is_signed ? int64_t{load<int8_t>(p)} : int64_t{load<uint8_t>(p)};
    case 16: return is_signed ? int64_t{load<int16_t>(p)} : int64_t{load<uint16_t>(p)};
    case 32: return is_signed ? int64_t{load<int32_t>(p)} : int64_t{load<uint32_t>(p)};
    case 64: return load<int64_t>(p);
    default: RELAXC_UNREACHABLE() << "bad integer width " << dtype.bits();
  }
}

HostTensor HostTensor::from_doubles(DataType dtype, std::vector<int64_t> shape,
                                    const std::vector<double>& values) {
  HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  RELAXC_ICHECK(static_cast<int64_t>(values.size()) == t.num_elements())
      << values.size() << " values for " << t.num_elements() << " elements";
  auto bytes = std::make_shared<std::vector<uint8_t>>(values.size() * dtype.bytes());
  for (size_t i = 0; i < values.size(); ++i) {
    uint8_t* p = bytes->data() + i * dtype.bytes();
    double v = values[i];
    switch (dtype.code()) {
      case DataType::Code::Float:
        if (dtype.bits() == 16) {
          store(p, float_to_half(static_cast<float>(v)));
        } else if (dtype.bits() == 32) {
          store(p, static_cast<float>(v));
        } else {
          store(p, v);
        }
        break;
      case DataType::Code::BFloat: {
        float f = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        store(p, static_cast<uint16_t>(bits >> 16));
        break;
      }
      default: {
        uint64_t iv = saturated_integer_bits(v, dtype);
        switch (dtype.bits()) {
          case 1:
          case 8: store(p, static_cast<uint8_t>(iv)); break;
          case 16: store(p, static_cast<uint16_t>(iv)); break;
          case 32: store(p, static_cast<uint32_t>(iv)); break;
          default: store(p, iv); break;
        }
      }
    }
  }
  t.data = std::move(bytes);
  return t;
}

bool HostTensor::operator==(const HostTensor& o) const {
  if (dtype != o.dtype || shape != o.shape) return false;
  if (data == o.data) return true;
  if (!data || !o.data) return false;
  return *data == *o.data;
}

}  // namespace relaxc
