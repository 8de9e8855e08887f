// HostArray: tensors on the host as doubles, and their memory representation.
#include "ir/tir/host_array.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

namespace relaxc::tir {
namespace {

int64_t element_count(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

uint16_t fp16_bits(double v) {
  float f = static_cast<float>(v);
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t half = mant >> shift;
    uint32_t rest = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rest > mid || (rest == mid && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(half);
}

double fp16_value(uint16_t h) {
  int sign = (h >> 15) ? -1 : 1;
  int exp = (h >> 10) & 0x1f;
  int mant = h & 0x3ff;
  if (exp == 0) return sign * std::ldexp(mant, -24);
  if (exp == 31) return mant ? NAN : sign * INFINITY;
  return sign * std::ldexp(mant + 1024, exp - 25);
}

template <typename T>
void store(std::vector<uint8_t>& out, size_t i, T v) {
  std::memcpy(out.data() + i * sizeof(T), &v, sizeof(T));
}
template <typename T>
T load(const std::vector<uint8_t>& in, size_t i) {
  T v;
  std::memcpy(&v, in.data() + i * sizeof(T), sizeof(T));
  return v;
}

}  // namespace

double round_to_fp16(double v) { return fp16_value(fp16_bits(v)); }

std::vector<uint8_t> HostArray::to_bytes() const {
  size_t bytes_per = static_cast<size_t>(dtype.bytes());
  std::vector<uint8_t> out(data.size() * bytes_per);
  for (size_t i = 0; i < data.size(); ++i) {
    double v = data[i];
    if (dtype.is_float() && dtype.bits() == 32) {
      store(out, i, static_cast<float>(v));
    } else if (dtype.is_float() && dtype.bits() == 64) {
      store(out, i, v);
    } else if (dtype.is_float() && dtype.bits() == 16 && !dtype.is_bfloat()) {
      store(out, i, fp16_bits(v));
    } else if (dtype.is_integer() && dtype.bits() == 32) {
      store(out, i, static_cast<int32_t>(v));
    } else if (dtype.is_integer() && dtype.bits() == 64) {
      store(out, i, static_cast<int64_t>(v));
    } else if (dtype.is_integer() && dtype.bits() == 8) {
      store(out, i, static_cast<int8_t>(v));
    } else {
      throw std::runtime_error("HostArray: unsupported dtype " + dtype.str());
    }
  }
  return out;
}

void HostArray::from_bytes(const std::vector<uint8_t>& bytes) {
  size_t bytes_per = static_cast<size_t>(dtype.bytes());
  if (bytes.size() != data.size() * bytes_per) {
    throw std::runtime_error("HostArray::from_bytes: size mismatch");
  }
  for (size_t i = 0; i < data.size(); ++i) {
    if (dtype.is_float() && dtype.bits() == 32) {
      data[i] = load<float>(bytes, i);
    } else if (dtype.is_float() && dtype.bits() == 64) {
      data[i] = load<double>(bytes, i);
    } else if (dtype.is_float() && dtype.bits() == 16 && !dtype.is_bfloat()) {
      data[i] = fp16_value(load<uint16_t>(bytes, i));
    } else if (dtype.is_integer() && dtype.bits() == 32) {
      data[i] = load<int32_t>(bytes, i);
    } else if (dtype.is_integer() && dtype.bits() == 64) {
      data[i] = static_cast<double>(load<int64_t>(bytes, i));
    } else if (dtype.is_integer() && dtype.bits() == 8) {
      data[i] = load<int8_t>(bytes, i);
    } else {
      throw std::runtime_error("HostArray: unsupported dtype " + dtype.str());
    }
  }
}

HostArray zeros(DataType dtype, std::vector<int64_t> shape) {
  HostArray a{dtype, shape, {}};
  a.data.assign(static_cast<size_t>(element_count(shape)), 0.0);
  return a;
}

}  // namespace relaxc::tir
