// The TensorIR math intrinsics in SPIR-V.
//
// Most map to one GLSL.std.450 instruction. The others are composed:
// - exp10(x) = exp2(x * log2(10)) and log10(x) = log2(x) * log10(2) up to 32 bits,
//   log1p(x) = log(1 + x) (log1p loses the relative precision of small x that a true
//   log1p keeps);
// - sigmoid(x) = 1 / (1 + exp(-x)), which tends to 0 and 1 without NaNs;
// - tanh up to 32 bits clamps its argument to [-10, 10] first: tanh(10) rounds to 1 in
//   fp32 and fp16, and drivers that compute tanh from exponentials return NaN for large
//   |x|;
// - erf(x) = sign(x) (1 - p(t) exp(-x^2)), t = 1 / (1 + 0.3275911 |x|), p a degree-5
//   polynomial (Abramowitz & Stegun 7.1.26): absolute error at most 1.5e-7 in exact
//   arithmetic, about 3e-7 evaluated in fp32 (fp16 evaluation is as good as fp16 allows);
// - fmod is OpFRem (the result has the sign of the dividend, as C's fmod);
// - asin(x) = atan2(x, sqrt(1 - x^2)) and acos(x) = atan2(sqrt(1 - x^2), x): Vulkan lets
//   Asin and Acos be as coarse as 4096 ulp, and lavapipe's are off by 4e-4, while its
//   Atan2 is accurate.
// GLSL.std.450 defines the transcendental functions for 16- and 32-bit floats only. For
// float64, exp, exp2, exp10, log, log2, log10 (and so log1p and sigmoid) and tanh are
// composed by spirv_float64_math.cc; the others are refused.
#include "codegen/spirv/spirv_intrinsics.h"

#include <functional>
#include <unordered_map>

#include "codegen/spirv/spirv_float64_math.h"

namespace relaxc::codegen {
namespace {

using Composite = std::function<SpirvId(MathEmitter&, const std::vector<SpirvId>&)>;

struct MathIntrinsic {
  GLSLstd450 glsl = GLSLstd450Bad;  // the direct mapping, or Bad for a composite
  Composite composite;
  bool needs_32_bit_or_less;  // uses a GLSL.std.450 function defined for 16/32 bits only
};

// base^x: GLSL.std.450's Exp or Exp2 up to 32 bits (exp10(x) = exp2(x * log2(10))), the
// composition of spirv_float64_math.cc for float64.
SpirvId exponential(MathEmitter& e, SpirvId x, MathBase base) {
  if (e.dtype.bits() == 64) return float64_exp(e, x, base);
  if (base == MathBase::kE) return e.glsl(GLSLstd450Exp, {x});
  if (base == MathBase::kTwo) return e.glsl(GLSLstd450Exp2, {x});
  return e.glsl(GLSLstd450Exp2, {e.mul(x, e.c(3.321928094887362))});
}

// log_b(x): GLSL.std.450's Log or Log2 up to 32 bits (log10(x) = log2(x) * log10(2)), the
// composition of spirv_float64_math.cc for float64.
SpirvId logarithm(MathEmitter& e, SpirvId x, MathBase base) {
  if (e.dtype.bits() == 64) return float64_log(e, x, base);
  if (base == MathBase::kE) return e.glsl(GLSLstd450Log, {x});
  if (base == MathBase::kTwo) return e.glsl(GLSLstd450Log2, {x});
  return e.mul(e.glsl(GLSLstd450Log2, {x}), e.c(0.30102999566398120));
}

// The intrinsics base^x and log_b(x), for every float width.
MathIntrinsic exponential_intrinsic(MathBase base) {
  return {
      GLSLstd450Bad,
      [base](MathEmitter& e, const std::vector<SpirvId>& a) { return exponential(e, a[0], base); },
      false};
}

MathIntrinsic logarithm_intrinsic(MathBase base) {
  return {
      GLSLstd450Bad,
      [base](MathEmitter& e, const std::vector<SpirvId>& a) { return logarithm(e, a[0], base); },
      false};
}

SpirvId erf_approximation(MathEmitter& e, SpirvId x) {
  SpirvId ax = e.glsl(GLSLstd450FAbs, {x});
  SpirvId t = e.op(spv::OpFDiv, {e.c(1.0), e.add(e.c(1.0), e.mul(e.c(0.3275911), ax))});
  SpirvId poly = e.c(1.061405429);
  for (double coefficient : {-1.453152027, 1.421413741, -0.284496736, 0.254829592}) {
    poly = e.add(e.mul(poly, t), e.c(coefficient));
  }
  poly = e.mul(poly, t);
  SpirvId gauss = e.glsl(GLSLstd450Exp, {e.op(spv::OpFNegate, {e.mul(ax, ax)})});
  SpirvId magnitude = e.op(spv::OpFSub, {e.c(1.0), e.mul(poly, gauss)});
  return e.mul(e.glsl(GLSLstd450FSign, {x}), magnitude);
}

// sqrt(1 - x^2), as sqrt((1 - x)(1 + x)), exact near |x| = 1.
SpirvId cosine_of_arcsine(MathEmitter& e, SpirvId x) {
  SpirvId one = e.c(1.0);
  return e.glsl(GLSLstd450Sqrt, {e.mul(e.op(spv::OpFSub, {one, x}), e.add(one, x))});
}

const std::unordered_map<std::string, MathIntrinsic>& math_intrinsics() {
  static const std::unordered_map<std::string, MathIntrinsic> table = {
      {"tir.exp", exponential_intrinsic(MathBase::kE)},
      {"tir.exp2", exponential_intrinsic(MathBase::kTwo)},
      {"tir.log", logarithm_intrinsic(MathBase::kE)},
      {"tir.log2", logarithm_intrinsic(MathBase::kTwo)},
      {"tir.sqrt", {GLSLstd450Sqrt, nullptr, false}},
      {"tir.rsqrt", {GLSLstd450InverseSqrt, nullptr, false}},
      {"tir.sin", {GLSLstd450Sin, nullptr, true}},
      {"tir.cos", {GLSLstd450Cos, nullptr, true}},
      {"tir.tan", {GLSLstd450Tan, nullptr, true}},
      {"tir.asin",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) {
          return e.glsl(GLSLstd450Atan2, {a[0], cosine_of_arcsine(e, a[0])});
        },
        true}},
      {"tir.acos",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) {
          return e.glsl(GLSLstd450Atan2, {cosine_of_arcsine(e, a[0]), a[0]});
        },
        true}},
      {"tir.atan", {GLSLstd450Atan, nullptr, true}},
      {"tir.sinh", {GLSLstd450Sinh, nullptr, true}},
      {"tir.cosh", {GLSLstd450Cosh, nullptr, true}},
      {"tir.asinh", {GLSLstd450Asinh, nullptr, true}},
      {"tir.acosh", {GLSLstd450Acosh, nullptr, true}},
      {"tir.atanh", {GLSLstd450Atanh, nullptr, true}},
      {"tir.pow", {GLSLstd450Pow, nullptr, true}},
      {"tir.fabs", {GLSLstd450FAbs, nullptr, false}},
      {"tir.floor", {GLSLstd450Floor, nullptr, false}},
      {"tir.ceil", {GLSLstd450Ceil, nullptr, false}},
      {"tir.round", {GLSLstd450Round, nullptr, false}},
      {"tir.trunc", {GLSLstd450Trunc, nullptr, false}},
      {"tir.nearbyint", {GLSLstd450RoundEven, nullptr, false}},
      {"tir.tanh",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) {
          if (e.dtype.bits() == 64) return float64_tanh(e, a[0]);
          SpirvId clamped = e.glsl(GLSLstd450FClamp, {a[0], e.c(-10.0), e.c(10.0)});
          return e.glsl(GLSLstd450Tanh, {clamped});
        },
        false}},
      {"tir.exp10", exponential_intrinsic(MathBase::kTen)},
      {"tir.log10", logarithm_intrinsic(MathBase::kTen)},
      {"tir.log1p",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) {
          return logarithm(e, e.add(e.c(1.0), a[0]), MathBase::kE);
        },
        false}},
      // e = exp(-|x|), s = 1 / (1 + e): x >= 0 ? s : e * s. The divisor stays in [1, 2],
      // where Vulkan bounds a division's error (not past 2^126, as 1 + exp(-x) gets).
      {"tir.sigmoid",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) {
          SpirvId magnitude = e.glsl(GLSLstd450FAbs, {a[0]});
          SpirvId exp_neg = exponential(e, e.op(spv::OpFNegate, {magnitude}), MathBase::kE);
          SpirvId s = e.op(spv::OpFDiv, {e.c(1.0), e.add(e.c(1.0), exp_neg)});
          return e.select(e.compare(spv::OpFOrdGreaterThanEqual, a[0], e.c(0.0)), s,
                          e.mul(exp_neg, s));
        },
        false}},
      {"tir.erf",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) { return erf_approximation(e, a[0]); },
        true}},
      {"tir.fmod",
       {GLSLstd450Bad,
        [](MathEmitter& e, const std::vector<SpirvId>& a) {
          return e.op(spv::OpFRem, {a[0], a[1]});
        },
        false}},
  };
  return table;
}

}  // namespace

bool is_math_intrinsic(const std::string& op) {
  return op == "tir.isnan" || op == "tir.isinf" || math_intrinsics().count(op) != 0;
}

SpirvValue emit_math_intrinsic(SpirvBuilder& builder, const std::string& op,
                               const std::vector<SpirvValue>& args, const std::string& kernel_name,
                               Span span) {
  RELAXC_ICHECK(!args.empty()) << op << " without arguments";
  DataType dtype = args[0].dtype;
  RELAXC_ICHECK(dtype.is_float()) << op << " of " << dtype.str() << " in kernel " << kernel_name;
  std::vector<SpirvId> ids;
  for (const SpirvValue& arg : args) {
    RELAXC_ICHECK(arg.dtype == dtype) << op << " with arguments of different dtypes";
    ids.push_back(arg.id);
  }
  if (op == "tir.isnan" || op == "tir.isinf") {
    DataType result = DataType::Bool(dtype.lanes());
    return {builder.value(op == "tir.isnan" ? spv::OpIsNan : spv::OpIsInf, builder.type_of(result),
                          {ids[0]}),
            result};
  }
  auto it = math_intrinsics().find(op);
  RELAXC_ICHECK(it != math_intrinsics().end()) << op << " is not a math intrinsic";
  const MathIntrinsic& intrinsic = it->second;
  if (intrinsic.needs_32_bit_or_less && dtype.bits() > 32) {
    user_error(span) << "kernel '" << kernel_name << "' uses " << op.substr(4) << " on "
                     << dtype.element_of().str()
                     << ", which Vulkan (GLSL.std.450) provides only for float16 and float32";
  }
  MathEmitter emitter{builder, dtype, builder.type_of(dtype)};
  SpirvId result =
      intrinsic.composite ? intrinsic.composite(emitter, ids) : emitter.glsl(intrinsic.glsl, ids);
  return {result, dtype};
}

}  // namespace relaxc::codegen
