// The TensorIR math intrinsics in LLVM IR for NVPTX.
//
// - Exact operations are LLVM intrinsics, which the NVPTX back end maps to one
//   instruction: sqrt (sqrt.rn), fabs, floor, ceil, trunc, and round / nearbyint as
//   roundeven (cvt.rni: ties to even, as TVM's LLVM back end rounds).
// - Transcendental functions call libdevice (__nv_expf, __nv_tanhf, __nv_erff, ...),
//   linked and inlined afterwards, where it is installed: the accuracy CUDA's math library
//   documents (a few ulp).
// - Where libdevice is not installed they are built from the NVVM approximate instructions
//   (ex2.approx, lg2.approx, sin.approx, cos.approx; relative error around 2^-22, sin and
//   cos accurate for |x| up to about 100): exp(x) = ex2(x log2 e), log(x) = lg2(x) ln 2,
//   tan = sin / cos, pow(x, y) = ex2(y lg2(x)) (NaN for x < 0), log1p(x) = log(1 + x),
//   tanh(x) = 1 - 2 / (exp(2x) + 1) with x clamped to [-10, 10] (tanh(10) rounds to 1),
//   erf by Abramowitz & Stegun 7.1.26 (absolute error about 3e-7 in fp32), fmod as frem,
//   sinh and cosh from exp(x) and exp(-x), asinh, acosh and atanh from log and sqrt
//   (asinh odd by construction, so it is exact in sign for large negative x), atan by
//   Abramowitz & Stegun 4.4.49 on [0, 1] (error 2e-8) with atan(x) = pi/2 - atan(1/x)
//   above, asin(x) = atan(x / sqrt(1 - x^2)), acos(x) = pi/2 - asin(x).
//   These instructions exist for fp32 only: float64 then needs libdevice.
// - sigmoid(x) = 1 / (1 + exp(-x)) on either path; it tends to 0 and 1 without NaNs.
#include "codegen/cuda/nvptx_math.h"

#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <unordered_map>

namespace relaxc::codegen {
namespace {

class MathEmitter {
 public:
  MathEmitter(llvm::IRBuilder<>& b, llvm::Type* type, bool libdevice, const std::string& kernel,
              const std::string& op, Span span)
      : b_(b), type_(type), libdevice_(libdevice), kernel_(kernel), op_(op), span_(span) {}

  llvm::IRBuilder<>& b() { return b_; }
  llvm::Value* c(double value) { return llvm::ConstantFP::get(type_, value); }
  llvm::Value* mul(llvm::Value* x, llvm::Value* y) { return b_.CreateFMul(x, y); }
  llvm::Value* add(llvm::Value* x, llvm::Value* y) { return b_.CreateFAdd(x, y); }
  llvm::Value* div(llvm::Value* x, llvm::Value* y) { return b_.CreateFDiv(x, y); }
  llvm::Value* intrinsic(llvm::Intrinsic::ID id, std::vector<llvm::Value*> args) {
    return b_.CreateIntrinsic(id, {type_}, args);
  }

  // The libdevice function `name` ("__nv_exp"; "f" is appended for fp32) applied to args,
  // or null when libdevice is not in use.
  llvm::Value* call_libdevice(const std::string& name, const std::vector<llvm::Value*>& args) {
    if (!libdevice_) return nullptr;
    std::string symbol = type_->isFloatTy() ? name + "f" : name;
    std::vector<llvm::Type*> params(args.size(), type_);
    llvm::Module* module = b_.GetInsertBlock()->getModule();
    llvm::FunctionCallee callee =
        module->getOrInsertFunction(symbol, llvm::FunctionType::get(type_, params, false));
    if (auto* function = llvm::dyn_cast<llvm::Function>(callee.getCallee())) {
      function->setDoesNotAccessMemory();
      function->setDoesNotThrow();
      function->setWillReturn();
    }
    return b_.CreateCall(callee, args);
  }

  // An NVVM approximate instruction on fp32 (ex2.approx.f32 ...).
  llvm::Value* nvvm(llvm::Intrinsic::ID id, llvm::Value* x) {
    if (!type_->isFloatTy()) {
      user_error(span_) << "kernel '" << kernel_ << "' uses " << op_.substr(4)
                        << " on float64, which needs libdevice (libdevice.10.bc of the CUDA "
                           "toolkit; set RELAXC_LIBDEVICE to its path)";
    }
    return b_.CreateIntrinsic(id, {}, {x});
  }

  llvm::Value* exp2(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_exp2", {x})) return v;
    return nvvm(llvm::Intrinsic::nvvm_ex2_approx_f, x);
  }
  llvm::Value* exp(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_exp", {x})) return v;
    return exp2(mul(x, c(1.4426950408889634)));
  }
  llvm::Value* log2(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_log2", {x})) return v;
    return nvvm(llvm::Intrinsic::nvvm_lg2_approx_f, x);
  }
  llvm::Value* log(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_log", {x})) return v;
    return mul(log2(x), c(0.6931471805599453));
  }
  llvm::Value* sin(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_sin", {x})) return v;
    return nvvm(llvm::Intrinsic::nvvm_sin_approx_f, x);
  }
  llvm::Value* cos(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_cos", {x})) return v;
    return nvvm(llvm::Intrinsic::nvvm_cos_approx_f, x);
  }
  llvm::Value* tanh(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_tanh", {x})) return v;
    llvm::Value* clamped = intrinsic(llvm::Intrinsic::minnum,
                                     {intrinsic(llvm::Intrinsic::maxnum, {x, c(-10.0)}), c(10.0)});
    llvm::Value* e2x = exp(mul(clamped, c(2.0)));
    return b_.CreateFSub(c(1.0), div(c(2.0), add(e2x, c(1.0))));
  }
  llvm::Value* erf(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_erf", {x})) return v;
    llvm::Value* ax = intrinsic(llvm::Intrinsic::fabs, {x});
    llvm::Value* t = div(c(1.0), add(c(1.0), mul(c(0.3275911), ax)));
    llvm::Value* poly = c(1.061405429);
    for (double coefficient : {-1.453152027, 1.421413741, -0.284496736, 0.254829592}) {
      poly = add(mul(poly, t), c(coefficient));
    }
    poly = mul(poly, t);
    llvm::Value* gauss = exp(b_.CreateFNeg(mul(ax, ax)));
    llvm::Value* magnitude = b_.CreateFSub(c(1.0), mul(poly, gauss));
    return intrinsic(llvm::Intrinsic::copysign, {magnitude, x});
  }
  llvm::Value* sqrt(llvm::Value* x) { return intrinsic(llvm::Intrinsic::sqrt, {x}); }
  llvm::Value* atan(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_atan", {x})) return v;
    llvm::Value* ax = intrinsic(llvm::Intrinsic::fabs, {x});
    llvm::Value* above_one = b_.CreateFCmpOGT(ax, c(1.0));
    llvm::Value* r = b_.CreateSelect(above_one, div(c(1.0), ax), ax);
    llvm::Value* r2 = mul(r, r);
    llvm::Value* poly = c(0.0028662257);
    for (double coefficient : {-0.0161657367, 0.0429096138, -0.0752896400, 0.1065626393,
                               -0.1420889944, 0.1999355085, -0.3333314528, 1.0}) {
      poly = add(mul(poly, r2), c(coefficient));
    }
    llvm::Value* at = mul(poly, r);
    at = b_.CreateSelect(above_one, b_.CreateFSub(c(1.5707963267948966), at), at);
    return intrinsic(llvm::Intrinsic::copysign, {at, x});
  }
  llvm::Value* asin(llvm::Value* x) {
    if (llvm::Value* v = call_libdevice("__nv_asin", {x})) return v;
    return atan(div(x, sqrt(b_.CreateFSub(c(1.0), mul(x, x)))));
  }

 private:
  llvm::IRBuilder<>& b_;
  llvm::Type* type_;
  bool libdevice_;
  const std::string& kernel_;
  const std::string& op_;
  Span span_;
};

using Args = const std::vector<llvm::Value*>&;
using MathFunction = std::function<llvm::Value*(MathEmitter&, Args)>;

// An exact operation: one LLVM intrinsic.
MathFunction exact(llvm::Intrinsic::ID id) {
  return [id](MathEmitter& e, Args a) { return e.intrinsic(id, a); };
}

// A libdevice function, or `fallback` without libdevice.
MathFunction library(const char* name, MathFunction fallback) {
  return [name, fallback](MathEmitter& e, Args a) {
    if (llvm::Value* v = e.call_libdevice(name, a)) return v;
    return fallback(e, a);
  };
}

const std::unordered_map<std::string, MathFunction>& math_functions() {
  static const std::unordered_map<std::string, MathFunction> table = {
      {"tir.sqrt", exact(llvm::Intrinsic::sqrt)},
      {"tir.fabs", exact(llvm::Intrinsic::fabs)},
      {"tir.floor", exact(llvm::Intrinsic::floor)},
      {"tir.ceil", exact(llvm::Intrinsic::ceil)},
      {"tir.trunc", exact(llvm::Intrinsic::trunc)},
      {"tir.round", exact(llvm::Intrinsic::roundeven)},
      {"tir.nearbyint", exact(llvm::Intrinsic::roundeven)},
      {"tir.exp", [](MathEmitter& e, Args a) { return e.exp(a[0]); }},
      {"tir.exp2", [](MathEmitter& e, Args a) { return e.exp2(a[0]); }},
      {"tir.exp10",
       library("__nv_exp10",
               [](MathEmitter& e, Args a) { return e.exp2(e.mul(a[0], e.c(3.321928094887362))); })},
      {"tir.log", [](MathEmitter& e, Args a) { return e.log(a[0]); }},
      {"tir.log2", [](MathEmitter& e, Args a) { return e.log2(a[0]); }},
      {"tir.log10",
       library("__nv_log10", [](MathEmitter& e,
                                Args a) { return e.mul(e.log2(a[0]), e.c(0.30102999566398120)); })},
      {"tir.log1p",
       library("__nv_log1p", [](MathEmitter& e, Args a) { return e.log(e.add(e.c(1.0), a[0])); })},
      {"tir.rsqrt", library("__nv_rsqrt",
                            [](MathEmitter& e, Args a) {
                              return e.div(e.c(1.0), e.intrinsic(llvm::Intrinsic::sqrt, a));
                            })},
      {"tir.sin", [](MathEmitter& e, Args a) { return e.sin(a[0]); }},
      {"tir.cos", [](MathEmitter& e, Args a) { return e.cos(a[0]); }},
      {"tir.tan",
       library("__nv_tan", [](MathEmitter& e, Args a) { return e.div(e.sin(a[0]), e.cos(a[0])); })},
      {"tir.tanh", [](MathEmitter& e, Args a) { return e.tanh(a[0]); }},
      {"tir.erf", [](MathEmitter& e, Args a) { return e.erf(a[0]); }},
      {"tir.pow", library("__nv_pow", [](MathEmitter& e,
                                         Args a) { return e.exp2(e.mul(a[1], e.log2(a[0]))); })},
      {"tir.fmod",
       library("__nv_fmod", [](MathEmitter& e, Args a) { return e.b().CreateFRem(a[0], a[1]); })},
      {"tir.atan", [](MathEmitter& e, Args a) { return e.atan(a[0]); }},
      {"tir.asin", [](MathEmitter& e, Args a) { return e.asin(a[0]); }},
      {"tir.acos", library("__nv_acos",
                           [](MathEmitter& e, Args a) {
                             return e.b().CreateFSub(e.c(1.5707963267948966), e.asin(a[0]));
                           })},
      {"tir.sinh", library("__nv_sinh",
                           [](MathEmitter& e, Args a) {
                             llvm::Value* d = e.b().CreateFSub(
                                 e.exp(a[0]), e.exp(e.b().CreateFNeg(a[0])));
                             return e.mul(d, e.c(0.5));
                           })},
      {"tir.cosh",
       library("__nv_cosh",
               [](MathEmitter& e, Args a) {
                 return e.mul(e.add(e.exp(a[0]), e.exp(e.b().CreateFNeg(a[0]))), e.c(0.5));
               })},
      {"tir.asinh",
       library("__nv_asinh",
               [](MathEmitter& e, Args a) {
                 llvm::Value* ax = e.intrinsic(llvm::Intrinsic::fabs, {a[0]});
                 llvm::Value* root = e.sqrt(e.add(e.mul(ax, ax), e.c(1.0)));
                 return e.intrinsic(llvm::Intrinsic::copysign, {e.log(e.add(ax, root)), a[0]});
               })},
      {"tir.acosh", library("__nv_acosh",
                            [](MathEmitter& e, Args a) {
                              llvm::Value* root =
                                  e.sqrt(e.b().CreateFSub(e.mul(a[0], a[0]), e.c(1.0)));
                              return e.log(e.add(a[0], root));
                            })},
      {"tir.atanh", library("__nv_atanh",
                            [](MathEmitter& e, Args a) {
                              llvm::Value* ratio = e.div(e.add(e.c(1.0), a[0]),
                                                         e.b().CreateFSub(e.c(1.0), a[0]));
                              return e.mul(e.log(ratio), e.c(0.5));
                            })},
      // e = exp(-|x|), s = 1 / (1 + e): x >= 0 ? s : e * s (the SPIR-V back end's form:
      // the divisor stays in [1, 2]).
      {"tir.sigmoid",
       [](MathEmitter& e, Args a) {
         llvm::Value* magnitude = e.intrinsic(llvm::Intrinsic::fabs, {a[0]});
         llvm::Value* exp_neg = e.exp(e.b().CreateFNeg(magnitude));
         llvm::Value* s = e.div(e.c(1.0), e.add(e.c(1.0), exp_neg));
         return e.b().CreateSelect(e.b().CreateFCmpOGE(a[0], e.c(0.0)), s, e.mul(exp_neg, s));
       }},
  };
  return table;
}

}  // namespace

bool is_nvptx_math_intrinsic(const std::string& op) {
  return op == "tir.isnan" || op == "tir.isinf" || math_functions().count(op) != 0;
}

llvm::Value* emit_nvptx_math(llvm::IRBuilder<>& builder, const std::string& op,
                             const std::vector<llvm::Value*>& args, DataType dtype, bool libdevice,
                             const std::string& kernel_name, Span span) {
  RELAXC_ICHECK(!args.empty() && dtype.is_float() && dtype.lanes() == 1)
      << op << " of " << dtype.str() << " in kernel " << kernel_name;
  if (op == "tir.isnan") return builder.CreateFCmpUNO(args[0], args[0]);
  if (op == "tir.isinf") {
    llvm::Value* magnitude =
        builder.CreateIntrinsic(llvm::Intrinsic::fabs, {args[0]->getType()}, {args[0]});
    return builder.CreateFCmpOEQ(magnitude, llvm::ConstantFP::getInfinity(args[0]->getType()));
  }
  auto it = math_functions().find(op);
  RELAXC_ICHECK(it != math_functions().end()) << op << " is not a math intrinsic";
  // float16 and bfloat16 are computed in float32 and rounded once at the end.
  bool narrow = dtype.bits() < 32;
  llvm::Type* compute = narrow ? builder.getFloatTy() : args[0]->getType();
  std::vector<llvm::Value*> operands;
  for (llvm::Value* arg : args)
    operands.push_back(narrow ? builder.CreateFPExt(arg, compute) : arg);
  MathEmitter emitter(builder, compute, libdevice, kernel_name, op, span);
  llvm::Value* result = it->second(emitter, operands);
  return narrow ? builder.CreateFPTrunc(result, args[0]->getType()) : result;
}

}  // namespace relaxc::codegen
