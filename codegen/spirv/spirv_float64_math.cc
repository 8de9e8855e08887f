// Double-precision exponentials, logarithms and tanh from operations SPIR-V allows on
// float64.
//
// Each base b (e, 2, 10) has c = log_b(2), split as c_hi + c_lo where c_hi keeps 42
// significant bits (so k * c_hi is exact for |k| < 2^11) and c_lo is the rest rounded to
// double (c_hi + c_lo equals c within 2^-95 c). The constants were computed with Python's
// decimal module at 60 digits.
//
// b^x (Cody-Waite reduction): k = roundeven(x / c), t = (x - k c_hi) - k c_lo, r = t ln(b),
// so b^x = 2^k e^r with |r| <= ln(2)/2 (a hair more where x / c rounds). x - k c_hi is
// exact (Sterbenz), so r carries an error of about one rounding. e^r = 1 + (r + r^2 q(r)),
// q the Taylor polynomial 1/2! + r/3! + ... + r^11/13!: its truncation error is at most
// (ln2/2)^14 / 14! < 5e-18, a fortieth of an ulp; with the rounding errors of r, of
// Horner's scheme and of the final sum the result is within 2 ulp (the most that
// tests/lit/ops/elementwise/float64_math.py measures against NumPy). 2^k is applied
// exactly as ldexp(p, k1) * ldexp(1, k2), k1 = floor(k/2), k2 = k - k1: both factors are
// normal numbers, so the one product rounds a subnormal result correctly and overflows
// to +inf where the result does. x is first clamped to [-1080 c, 1025 c], beyond which
// the result is 0 or +inf whatever r is; NaN is passed through by a final select.
//
// log_b(x): subnormal x is first scaled by 2^54 (and 54 taken from the exponent), then
// frexp gives x = m 2^k with m in [1/2, 1), moved to [sqrt(1/2), sqrt(2)) by doubling m
// where it is below sqrt(1/2). With f = m - 1 (exact) and s = f / (2 + f), |s| <= 0.1716,
// log(m) = 2 atanh(s) = 2s + s R(s^2), R = 2s^2/3 + 2s^4/5 + ... + 2s^20/21, and as
// 2s = f - s f, log(m) = f - s (f - R): the correction s (f - R) is under a fifth of f,
// so its rounding errors weigh little; the truncation error is below s^22/11 < 1e-18
// relative. Then log_b(x) = k c_hi + (log(m) / ln(b) + k c_lo), where k c_hi is exact:
// within 2 ulp (measured: at most 1 for log, 2 for log2 and log10). Selects give
// log(0) = -inf, log(x < 0) = NaN, log(+inf) = +inf and NaN for NaN (frexp's results for
// 0, infinities and NaN are not used).
//
// tanh(x) = -sign(x) m / (m + 2), m = e^y - 1 for y = -2 min(|x|, 20) (tanh(20) is 1 in
// double): with y = k ln(2) + r as above, m = 2^k (e^r - 1) + (2^k - 1), where e^r - 1 is
// r + r^2 q(r), accurate relative to r, so small |x| keeps its precision; 2^k - 1 is exact
// for -58 <= k <= 0. Measured within 2 ulp. Where |x| < 2^-28 (and for NaN) tanh(x) is x.
#include "codegen/spirv/spirv_float64_math.h"

#include <limits>

#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

struct BaseConstants {
  double log_b_2_hi, log_b_2_lo;  // log_b(2) = hi + lo, hi with 42 significant bits
  double log_2_b;                 // log_2(b) = 1 / log_b(2)
  double ln_b;                    // ln(b)
  double log_b_e;                 // log_b(e) = 1 / ln(b)
};

const BaseConstants& constants_of(MathBase base) {
  static constexpr BaseConstants kE = {0x1.62e42fefa38p-1, 0x1.ef35793c7673p-45,
                                       0x1.71547652b82fep+0, 1.0, 1.0};
  static constexpr BaseConstants kTwo = {1.0, 0.0, 1.0, 0x1.62e42fefa39efp-1, 0x1.71547652b82fep+0};
  static constexpr BaseConstants kTen = {0x1.34413509f78p-2, 0x1.fef311f12b358p-46,
                                         0x1.a934f0979a371p+1, 0x1.26bb1bbb55516p+1,
                                         0x1.bcb7b1526e50ep-2};
  switch (base) {
    case MathBase::kE:
      return kE;
    case MathBase::kTwo:
      return kTwo;
    case MathBase::kTen:
      return kTen;
  }
  RELAXC_UNREACHABLE() << "unknown math base";
}

// coefficients[0] + x (coefficients[1] + x (...)), by Horner's scheme.
SpirvId polynomial(MathEmitter& e, SpirvId x, const std::vector<double>& coefficients) {
  SpirvId sum = e.c(coefficients.back());
  for (size_t i = coefficients.size() - 1; i-- > 0;)
    sum = e.add(e.mul(sum, x), e.c(coefficients[i]));
  return sum;
}

// 1/2!, 1/3!, ..., 1/13!: each factorial is exact in double, so each quotient is
// correctly rounded.
std::vector<double> exp_taylor_coefficients() {
  std::vector<double> coefficients;
  double factorial = 1;
  for (int n = 2; n <= 13; ++n) {
    factorial *= n;
    coefficients.push_back(1 / factorial);
  }
  return coefficients;
}

// 2/3, 2/5, ..., 2/21: the series of 2 atanh(s) / s - 2 in s^2, divided by s^2.
std::vector<double> atanh_series_coefficients() {
  std::vector<double> coefficients;
  for (int n = 3; n <= 21; n += 2) coefficients.push_back(2.0 / n);
  return coefficients;
}

DataType int32_lanes(const MathEmitter& e) { return DataType::Int(32, e.dtype.lanes()); }

// 2^k for a float64 integer k whose power is a normal number.
SpirvId power_of_two(MathEmitter& e, SpirvId k) {
  SpirvId int_k = e.b.value(spv::OpConvertFToS, e.b.type_of(int32_lanes(e)), {k});
  return e.glsl(GLSLstd450Ldexp, {e.c(1), int_k});
}

// x = k log_b(2) + r / ln(b): the integer k (as a float64) and r, |r| <= ln(2)/2.
struct Reduction {
  SpirvId k, r;
};

Reduction reduce(MathEmitter& e, SpirvId x, const BaseConstants& constants) {
  SpirvId k = e.glsl(GLSLstd450RoundEven, {e.mul(x, e.c(constants.log_2_b))});
  SpirvId t = e.sub(x, e.mul(k, e.c(constants.log_b_2_hi)));
  if (constants.log_b_2_lo != 0) t = e.sub(t, e.mul(k, e.c(constants.log_b_2_lo)));
  return {k, constants.ln_b == 1 ? t : e.mul(t, e.c(constants.ln_b))};
}

// e^r - 1 for |r| <= ln(2)/2: r + r^2 q(r).
SpirvId exp_minus_one(MathEmitter& e, SpirvId r) {
  return e.add(r, e.mul(e.mul(r, r), polynomial(e, r, exp_taylor_coefficients())));
}

}  // namespace

SpirvId float64_exp(MathEmitter& e, SpirvId x, MathBase base) {
  const BaseConstants& constants = constants_of(base);
  double log_b_2 = constants.log_b_2_hi + constants.log_b_2_lo;
  SpirvId clamped = e.glsl(GLSLstd450FClamp, {x, e.c(-1080 * log_b_2), e.c(1025 * log_b_2)});
  Reduction reduced = reduce(e, clamped, constants);
  SpirvId exp_r = e.add(e.c(1), exp_minus_one(e, reduced.r));
  SpirvId first_half = e.glsl(GLSLstd450Floor, {e.mul(reduced.k, e.c(0.5))});
  SpirvId second_half = e.sub(reduced.k, first_half);
  SpirvId scaled = e.mul(power_of_two(e, first_half), exp_r);
  SpirvId is_nan = e.b.value(spv::OpIsNan, e.b.type_of(DataType::Bool(e.dtype.lanes())), {x});
  return e.select(is_nan, x, e.mul(scaled, power_of_two(e, second_half)));
}

SpirvId float64_log(MathEmitter& e, SpirvId x, MathBase base) {
  const BaseConstants& constants = constants_of(base);
  SpirvId subnormal = e.compare(spv::OpFOrdLessThan, x, e.c(0x1p-1022));
  SpirvId normal_x = e.select(subnormal, e.mul(x, e.c(0x1p54)), x);
  SpirvId int_type = e.b.type_of(int32_lanes(e));
  SpirvId exponent_variable =
      e.b.function_variable(e.b.pointer_type(spv::StorageClassFunction, int_type));
  SpirvId mantissa = e.glsl(GLSLstd450Frexp, {normal_x, exponent_variable});
  SpirvId exponent =
      e.sub(e.op(spv::OpConvertSToF, {e.b.value(spv::OpLoad, int_type, {exponent_variable})}),
            e.select(subnormal, e.c(54), e.c(0)));
  SpirvId below = e.compare(spv::OpFOrdLessThan, mantissa, e.c(0x1.6a09e667f3bcdp-1));
  mantissa = e.select(below, e.mul(mantissa, e.c(2)), mantissa);
  exponent = e.select(below, e.sub(exponent, e.c(1)), exponent);
  SpirvId f = e.sub(mantissa, e.c(1));
  SpirvId s = e.op(spv::OpFDiv, {f, e.add(e.c(2), f)});
  SpirvId z = e.mul(s, s);
  SpirvId series = e.mul(z, polynomial(e, z, atanh_series_coefficients()));
  SpirvId log_m = e.sub(f, e.mul(s, e.sub(f, series)));
  if (constants.log_b_e != 1) log_m = e.mul(log_m, e.c(constants.log_b_e));
  SpirvId low_part =
      constants.log_b_2_lo == 0 ? log_m : e.add(log_m, e.mul(exponent, e.c(constants.log_b_2_lo)));
  SpirvId high_part =
      constants.log_b_2_hi == 1 ? exponent : e.mul(exponent, e.c(constants.log_b_2_hi));
  SpirvId result = e.add(high_part, low_part);
  SpirvId infinity = e.c(std::numeric_limits<double>::infinity());
  SpirvId at_zero_or_below =
      e.select(e.compare(spv::OpFOrdEqual, x, e.c(0)), e.op(spv::OpFNegate, {infinity}),
               e.c(std::numeric_limits<double>::quiet_NaN()));
  result = e.select(e.compare(spv::OpFOrdGreaterThan, x, e.c(0)), result, at_zero_or_below);
  return e.select(e.compare(spv::OpFOrdEqual, x, infinity), infinity, result);
}

SpirvId float64_tanh(MathEmitter& e, SpirvId x) {
  SpirvId magnitude = e.glsl(GLSLstd450FMin, {e.glsl(GLSLstd450FAbs, {x}), e.c(20)});
  Reduction reduced = reduce(e, e.mul(magnitude, e.c(-2)), constants_of(MathBase::kE));
  SpirvId power = power_of_two(e, reduced.k);
  SpirvId expm1 = e.add(e.mul(power, exp_minus_one(e, reduced.r)), e.sub(power, e.c(1)));
  SpirvId negative_tanh = e.op(spv::OpFDiv, {expm1, e.add(expm1, e.c(2))});
  SpirvId result = e.select(e.compare(spv::OpFOrdLessThan, x, e.c(0)), negative_tanh,
                            e.op(spv::OpFNegate, {negative_tanh}));
  return e.select(e.compare(spv::OpFUnordLessThan, e.glsl(GLSLstd450FAbs, {x}), e.c(0x1p-28)), x,
                  result);
}

}  // namespace relaxc::codegen
