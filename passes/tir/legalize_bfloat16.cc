// legalize_bfloat16: bfloat16 on a target without native bfloat16, in 16-bit integer
// storage and float32 arithmetic.
//
// Algorithm: one bottom-up rewrite of a kernel, for a target that emulates bfloat16
// (Target::emulates_bfloat16); other kernels are returned as they are.
// - Every bfloat16 buffer (parameter or Allocate) becomes a uint16 buffer of the same
//   shape: the same bytes, so the runtime and the host data do not change.
// - A load of one widens the bits to float32: reinterpret(uint32(bits) << 16), exact.
// - Every other bfloat16 expression is computed in float32 from its rewritten operands.
//   A result that may not be a bfloat16 value (arithmetic, a math call, a conversion to
//   bfloat16) is rounded to one at once, so each operation rounds as native bfloat16 does
//   (and as the CUDA back end, which computes bfloat16 math in float32 and rounds once per
//   operation); min, max, selects, lets and broadcasts pick a value and need no rounding.
//   Constants are rounded at compile time the same way. Comparisons compare the float32
//   values. Let variables of bfloat16 become float32 variables.
// - A store into a bfloat16 buffer stores the rounded bits of the float32 value.
// Rounding is to nearest, ties to even, on the float32 bits b:
// (b + 0x7fff + ((b >> 16) & 1)) >> 16, which also carries a finite value that rounds past
// the largest bfloat16 into infinity and keeps infinities; a NaN (b & 0x7fffffff >
// 0x7f800000) keeps its sign and high payload bits and becomes quiet: (b >> 16) | 0x40.
// A scalar parameter of bfloat16 is refused: the host passes kernel scalars as shape
// values and indices, never as bfloat16.
#include <bit>
#include <cmath>
#include <unordered_map>

#include "ir/tir/functor.h"
#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {
namespace {

constexpr DataType kF32 = DataType::Float(32);

// `value` as a constant of integer `dtype` (broadcast to its lanes).
PrimExpr constant(DataType dtype, int64_t value) {
  PrimExpr scalar = int_imm(dtype.element_of(), value);
  return dtype.is_vector() ? broadcast(scalar, dtype.lanes()) : scalar;
}

// uint16 bits of bfloat16 -> the float32 of the same value.
PrimExpr widen(const PrimExpr& bits) {
  DataType u32 = DataType::UInt(32, bits->dtype.lanes());
  PrimExpr shifted = call(u32, "tir.shift_left", {cast(u32, bits), constant(u32, 16)});
  return call(kF32.with_lanes(bits->dtype.lanes()), "tir.reinterpret", {shifted});
}

// X if `value` is widen(X): a bfloat16 value already, whose bits need no rounding.
PrimExpr widened_bits(const PrimExpr& value) {
  const auto* as_float = value.as<CallNode>();
  if (as_float == nullptr || as_float->op != "tir.reinterpret") return {};
  const auto* shift = as_float->args[0].as<CallNode>();
  if (shift == nullptr || shift->op != "tir.shift_left") return {};
  const auto* amount = shift->args[1].as<BroadcastNode>();
  if (!is_const_int(amount != nullptr ? amount->value : shift->args[1], 16)) return {};
  const auto* bits = shift->args[0].as<CastNode>();
  if (bits == nullptr || bits->value->dtype.element_of() != DataType::UInt(16)) return {};
  return bits->value;
}

// float32 -> the uint16 bits of the nearest bfloat16 (ties to even; NaN stays a quiet NaN).
PrimExpr bfloat16_bits(const PrimExpr& value) {
  if (PrimExpr bits = widened_bits(value); bits.defined()) return bits;
  DataType u32 = DataType::UInt(32, value->dtype.lanes());
  Var bits = var("bf16_bits", u32);
  auto op = [](const char* name, PrimExpr a, PrimExpr b) {
    DataType dtype = a->dtype;
    return call(dtype, name, {std::move(a), std::move(b)});
  };
  PrimExpr high = op("tir.shift_right", bits, constant(u32, 16));
  PrimExpr is_nan =
      gt(op("tir.bitwise_and", bits, constant(u32, 0x7fffffff)), constant(u32, 0x7f800000));
  PrimExpr quiet_nan = op("tir.bitwise_or", high, constant(u32, 0x40));
  PrimExpr bias = add(constant(u32, 0x7fff), op("tir.bitwise_and", high, constant(u32, 1)));
  PrimExpr rounded = op("tir.shift_right", add(bits, bias), constant(u32, 16));
  return let(bits, call(u32, "tir.reinterpret", {value}),
             cast(DataType::UInt(16, value->dtype.lanes()), select(is_nan, quiet_nan, rounded)));
}

PrimExpr round_to_bfloat16(const PrimExpr& value) { return widen(bfloat16_bits(value)); }

// The float32 nearest `value`, rounded to bfloat16 as bfloat16_bits does, on the host.
double bfloat16_value(double value) {
  auto bits = std::bit_cast<uint32_t>(static_cast<float>(value));
  uint32_t rounded =
      std::isnan(value) ? (bits >> 16) | 0x40u : (bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16;
  return std::bit_cast<float>(rounded << 16);
}

class Bfloat16Emulator final : public Mutator {
 private:
  Var float32_var(const Var& v) {
    if (!v->dtype.is_bfloat()) return v;
    auto it = vars_.find(v.get());
    if (it != vars_.end()) return it->second;
    Var replacement = var(v->name, kF32.with_lanes(v->dtype.lanes()), v->span);
    vars_.emplace(v.get(), replacement);
    return replacement;
  }

  Var mutate_var_def(const Var& v) override { return float32_var(v); }
  PrimExpr mutate_node(const VarNode* node) override { return float32_var(Var(node)); }

  // `node` rebuilt from its rewritten operands, in float32 if it was bfloat16.
  template <typename T>
  PrimExpr in_float32(const T* node) {
    Ref<T> rebuilt = mutate_children(node);
    if (!rebuilt->dtype.is_bfloat()) return rebuilt;
    auto* copy = copy_node(*rebuilt);
    copy->dtype = kF32.with_lanes(rebuilt->dtype.lanes());
    return PrimExpr(copy);
  }

  // As in_float32, rounded to bfloat16 if it was bfloat16.
  template <typename T>
  PrimExpr rounded(const T* node) {
    PrimExpr result = in_float32(node);
    return node->dtype.is_bfloat() ? round_to_bfloat16(result) : result;
  }

#define RELAXC_BF16_ROUNDED(Kind, Type) \
  PrimExpr mutate_node(const Type* node) override { return rounded(node); }
#define RELAXC_BF16_EXACT(Kind, Type) \
  PrimExpr mutate_node(const Type* node) override { return in_float32(node); }
  RELAXC_BF16_ROUNDED(TirAdd, AddNode)
  RELAXC_BF16_ROUNDED(TirSub, SubNode)
  RELAXC_BF16_ROUNDED(TirMul, MulNode)
  RELAXC_BF16_ROUNDED(TirDiv, DivNode)
  RELAXC_BF16_ROUNDED(TirMod, ModNode)
  RELAXC_BF16_ROUNDED(TirFloorDiv, FloorDivNode)
  RELAXC_BF16_ROUNDED(TirFloorMod, FloorModNode)
  RELAXC_BF16_EXACT(TirMin, MinNode)
  RELAXC_BF16_EXACT(TirMax, MaxNode)
  RELAXC_BF16_EXACT(TirSelect, SelectNode)
  RELAXC_BF16_EXACT(TirBroadcast, BroadcastNode)
  RELAXC_BF16_EXACT(TirLet, LetNode)
#undef RELAXC_BF16_ROUNDED
#undef RELAXC_BF16_EXACT

  PrimExpr mutate_node(const CallNode* node) override {
    if (node->op == "tir.reinterpret") return reinterpret(node);
    if (node->op == "tir.if_then_else") return in_float32(node);
    return rounded(node);
  }

  // Reinterpreting to or from bfloat16 goes through its uint16 bits.
  PrimExpr reinterpret(const CallNode* node) {
    PrimExpr value = mutate(node->args[0]);
    DataType from = node->args[0]->dtype;
    if (from.is_bfloat()) {
      return call(node->dtype, "tir.reinterpret", {bfloat16_bits(value)}, node->span);
    }
    if (!node->dtype.is_bfloat()) return mutate_children(node);
    DataType u16 = DataType::UInt(16, from.lanes());
    return widen(call(u16, "tir.reinterpret", {value}, node->span));
  }

  PrimExpr mutate_node(const FloatImmNode* node) override {
    if (!node->dtype.is_bfloat()) return PrimExpr(node);
    return float_imm(kF32, bfloat16_value(node->value), node->span);
  }

  PrimExpr mutate_node(const CastNode* node) override {
    PrimExpr value = mutate(node->value);
    if (node->dtype.is_bfloat()) {
      DataType f32 = kF32.with_lanes(node->dtype.lanes());
      return round_to_bfloat16(value->dtype == f32 ? value : cast(f32, value, node->span));
    }
    if (value->dtype == node->dtype) return value;
    if (value.same_as(node->value)) return PrimExpr(node);
    return cast(node->dtype, value, node->span);
  }

  Ref<BufferNode> mutate_node(const BufferNode* node) override {
    Ref<BufferNode> rebuilt = mutate_children(node);
    if (!rebuilt->dtype.is_bfloat()) return rebuilt;
    auto* copy = copy_node(*rebuilt);
    copy->dtype = DataType::UInt(16, rebuilt->dtype.lanes());
    return Ref<BufferNode>(copy);
  }

  PrimExpr mutate_node(const BufferLoadNode* node) override {
    PrimExpr load = mutate_children(node);
    if (!node->dtype.is_bfloat()) return load;
    auto* copy = copy_node(*load.as<BufferLoadNode>());
    copy->dtype = DataType::UInt(16, node->dtype.lanes());
    return widen(PrimExpr(copy));
  }

  Stmt mutate_node(const BufferStoreNode* node) override {
    if (!node->buffer->dtype.is_bfloat()) return mutate_children(node);
    std::vector<PrimExpr> indices;
    for (const PrimExpr& index : node->indices) indices.push_back(mutate(index));
    return buffer_store(mutate(node->buffer), bfloat16_bits(mutate(node->value)), indices,
                        node->span);
  }

  std::unordered_map<const VarNode*, Var> vars_;
};

}  // namespace

PrimFunc legalize_bfloat16(const PrimFunc& kernel, const Target& target) {
  if (target.supports(DataType::BFloat(16)) || !target.emulates_bfloat16()) return kernel;
  for (const Var& param : kernel->params) {
    if (param->dtype.is_bfloat()) {
      user_error(param->span) << "scalar parameter '" << param->name
                              << "' has dtype bfloat16, which target '" << target.str()
                              << "' emulates only in buffers; pass it in a tensor";
    }
  }
  Bfloat16Emulator emulator;
  return emulator.mutate(kernel);
}

}  // namespace relaxc::tir
