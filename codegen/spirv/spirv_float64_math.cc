// Double-precision exponentials and logarithms from operations SPIR-V allows on float64.
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

}  // namespace

SpirvId float64_exp(MathEmitter& e, SpirvId x, MathBase base) {
  const BaseConstants& constants = constants_of(base);
  double log_b_2 = constants.log_b_2_hi + constants.log_b_2_lo;
  SpirvId clamped = e.glsl(GLSLstd450FClamp, {x, e.c(-1080 * log_b_2), e.c(1025 * log_b_2)});
  SpirvId exponent = e.glsl(GLSLstd450RoundEven, {e.mul(clamped, e.c(constants.log_2_b))});
  SpirvId t = e.sub(clamped, e.mul(exponent, e.c(constants.log_b_2_hi)));
  if (constants.log_b_2_lo != 0) t = e.sub(t, e.mul(exponent, e.c(constants.log_b_2_lo)));
  SpirvId r = constants.ln_b == 1 ? t : e.mul(t, e.c(constants.ln_b));
  SpirvId q = polynomial(e, r, exp_taylor_coefficients());
  SpirvId exp_r = e.add(e.c(1), e.add(r, e.mul(e.mul(r, r), q)));
  SpirvId first_half = e.glsl(GLSLstd450Floor, {e.mul(exponent, e.c(0.5))});
  SpirvId second_half = e.sub(exponent, first_half);
  SpirvId int_type = e.b.type_of(int32_lanes(e));
  SpirvId scaled =
      e.glsl(GLSLstd450Ldexp, {exp_r, e.b.value(spv::OpConvertFToS, int_type, {first_half})});
  SpirvId power =
      e.glsl(GLSLstd450Ldexp, {e.c(1), e.b.value(spv::OpConvertFToS, int_type, {second_half})});
  SpirvId is_nan = e.b.value(spv::OpIsNan, e.b.type_of(DataType::Bool(e.dtype.lanes())), {x});
  return e.select(is_nan, x, e.mul(scaled, power));
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

}  // namespace relaxc::codegen
