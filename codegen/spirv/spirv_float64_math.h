// Double-precision exponentials, logarithms and tanh in SPIR-V. GLSL.std.450 defines Exp,
// Log, Exp2, Log2, Tanh (and its other transcendental functions) for 16- and 32-bit floats
// only, so
// for float64 they are composed here from what SPIR-V allows on 64-bit floats: OpFAdd,
// OpFMul, OpFDiv, comparisons, OpSelect, and GLSL.std.450's RoundEven, Floor, FClamp,
// Ldexp and Frexp. See spirv_float64_math.cc for the algorithms and their error bounds.
#pragma once
#include <vector>

#include "codegen/spirv/spirv_builder.h"

namespace relaxc::codegen {

// Emits arithmetic on values of one float dtype (a scalar or a vector) in the builder's
// current block.
struct MathEmitter {
  SpirvBuilder& b;
  DataType dtype;
  SpirvId type;

  SpirvId c(double value) { return b.constant(dtype, value); }
  SpirvId op(spv::Op code, std::vector<uint32_t> operands) { return b.value(code, type, operands); }
  SpirvId mul(SpirvId x, SpirvId y) { return op(spv::OpFMul, {x, y}); }
  SpirvId add(SpirvId x, SpirvId y) { return op(spv::OpFAdd, {x, y}); }
  SpirvId sub(SpirvId x, SpirvId y) { return op(spv::OpFSub, {x, y}); }
  SpirvId glsl(GLSLstd450 f, std::vector<SpirvId> operands) { return b.glsl(f, type, operands); }
  // A comparison (OpFOrdLessThan, ...) giving bools of the dtype's lanes.
  SpirvId compare(spv::Op code, SpirvId x, SpirvId y) {
    return b.value(code, b.type_of(DataType::Bool(dtype.lanes())), {x, y});
  }
  SpirvId select(SpirvId condition, SpirvId if_true, SpirvId if_false) {
    return op(spv::OpSelect, {condition, if_true, if_false});
  }
};

// The base of an exponential or a logarithm.
enum class MathBase { kE, kTwo, kTen };

// base^x for float64 x: exp, exp2, exp10. Within 2 ulp of the exact value (more for
// results below 2^-1022, whose precision is that of subnormals); overflow gives +inf,
// underflow 0, NaN stays NaN.
SpirvId float64_exp(MathEmitter& e, SpirvId x, MathBase base);

// The logarithm of float64 x to `base`: log, log2, log10. Within 2 ulp of the exact value;
// log(0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN stays NaN; subnormals are exact
// inputs.
SpirvId float64_log(MathEmitter& e, SpirvId x, MathBase base);

// tanh of float64 x, within 3 ulp; tanh(+-0) = +-0, NaN stays NaN.
SpirvId float64_tanh(MathEmitter& e, SpirvId x);

}  // namespace relaxc::codegen
