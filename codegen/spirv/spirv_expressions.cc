// The SPIR-V code generator's expressions: values with their dtypes, arithmetic with the
// right signedness, floor division, comparisons, conversions, loads, intrinsic calls.
#include <climits>
#include <string>

#include "codegen/spirv/kernel_codegen.h"
#include "codegen/spirv/spirv_intrinsics.h"
#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"

namespace relaxc::codegen {

using tir::PrimExpr;

SpirvValue KernelCodegen::eval_int_imm(const tir::IntImmNode* imm) {
  int64_t value = imm->value;
  DataType dtype = imm->dtype;
  if (dtype.is_bool()) return {b_.bool_constant(value != 0), dtype};
  SpirvValue constant = {b_.int_constant(dtype, value), dtype};
  if (dtype == DataType::Int(64) && value >= INT32_MIN && value <= INT32_MAX) {
    narrow_int64_[constant.id] = {b_.int_constant(DataType::Int(32), value), DataType::Int(32)};
  }
  return constant;
}

SpirvValue KernelCodegen::eval_float_imm(const tir::FloatImmNode* imm) {
  return {b_.float_constant(imm->dtype, imm->value), imm->dtype};
}

SpirvValue KernelCodegen::eval_not(SpirvValue a) { return op(spv::OpLogicalNot, a.dtype, {a.id}); }

SpirvValue KernelCodegen::eval_select(const tir::SelectNode* select) {
  SpirvValue condition = eval(select->condition);
  SpirvValue t = eval(select->true_value), f = eval(select->false_value);
  match_lanes(t, f);
  match_lanes(condition, t);
  match_lanes(condition, f);
  return op(spv::OpSelect, t.dtype, {condition.id, t.id, f.id});
}

SpirvValue KernelCodegen::eval_ramp(const tir::RampNode* ramp) {
  SpirvValue base = eval(ramp->base), stride = eval(ramp->stride);
  RELAXC_ICHECK(base.dtype.lanes() == 1 && stride.dtype == base.dtype)
      << "kernel '" << kernel_.name << "': a ramp of a vector base";
  DataType vector = base.dtype.with_lanes(ramp->lanes);
  std::vector<uint32_t> steps;
  for (int i = 0; i < ramp->lanes; ++i) steps.push_back(b_.constant(base.dtype, i));
  SpirvValue step_vector = op(spv::OpCompositeConstruct, vector, steps);
  SpirvValue offsets = op(spv::OpIMul, vector, {broadcast(stride, ramp->lanes).id, step_vector.id});
  return op(spv::OpIAdd, vector, {broadcast(base, ramp->lanes).id, offsets.id});
}

SpirvValue KernelCodegen::eval_binary(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  SpirvValue x = eval(a), y = eval(b);
  match_lanes(x, y);
  DataType dtype = x.dtype;
  if (dtype.is_bool()) {
    // min and max of booleans are their conjunction and disjunction.
    if (kind == NodeKind::TirAnd || kind == NodeKind::TirMin) {
      return op(spv::OpLogicalAnd, dtype, {x.id, y.id});
    }
    if (kind == NodeKind::TirOr || kind == NodeKind::TirMax) {
      return op(spv::OpLogicalOr, dtype, {x.id, y.id});
    }
    RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': arithmetic " << node_kind_name(kind)
                         << " on booleans";
  }
  if (kind == NodeKind::TirFloorDiv || kind == NodeKind::TirFloorMod) {
    return eval_floor_div_mod(kind, x, y);
  }
  bool is_float = dtype.is_float();
  bool is_signed = dtype.is_int();
  GLSLstd450 extremum = GLSLstd450Bad;
  spv::Op code = spv::OpNop;
  switch (kind) {
    case NodeKind::TirAdd:
      code = is_float ? spv::OpFAdd : spv::OpIAdd;
      break;
    case NodeKind::TirSub:
      code = is_float ? spv::OpFSub : spv::OpISub;
      break;
    case NodeKind::TirMul:
      code = is_float ? spv::OpFMul : spv::OpIMul;
      break;
    case NodeKind::TirDiv:
      code = is_float ? spv::OpFDiv : is_signed ? spv::OpSDiv : spv::OpUDiv;
      break;
    case NodeKind::TirMod:
      if (is_signed) return signed_remainder(x, y, op(spv::OpSDiv, dtype, {x.id, y.id}));
      code = is_float ? spv::OpFRem : spv::OpUMod;
      break;
    case NodeKind::TirMin:
      extremum = is_float ? GLSLstd450FMin : is_signed ? GLSLstd450SMin : GLSLstd450UMin;
      break;
    case NodeKind::TirMax:
      extremum = is_float ? GLSLstd450FMax : is_signed ? GLSLstd450SMax : GLSLstd450UMax;
      break;
    default:
      RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': logical " << node_kind_name(kind)
                           << " on " << dtype.str();
  }
  if (extremum != GLSLstd450Bad) return {b_.glsl(extremum, type(dtype), {x.id, y.id}), dtype};
  return op(code, dtype, {x.id, y.id});
}

SpirvValue KernelCodegen::eval_floor_div_mod(NodeKind kind, SpirvValue x, SpirvValue y) {
  DataType dtype = x.dtype;
  bool is_div = kind == NodeKind::TirFloorDiv;
  if (dtype.is_float()) {
    SpirvValue quotient = op(spv::OpFDiv, dtype, {x.id, y.id});
    SpirvValue floored = {b_.glsl(GLSLstd450Floor, type(dtype), {quotient.id}), dtype};
    if (is_div) return floored;
    return op(spv::OpFSub, dtype, {x.id, op(spv::OpFMul, dtype, {floored.id, y.id}).id});
  }
  if (dtype.is_uint()) return op(is_div ? spv::OpUDiv : spv::OpUMod, dtype, {x.id, y.id});
  // Truncating division rounds toward zero; where the remainder is non-zero and its
  // sign differs from the divisor's, floor division is one less and the floor modulus
  // is the remainder plus the divisor.
  DataType flags = DataType::Bool(dtype.lanes());
  SpirvValue quotient = op(spv::OpSDiv, dtype, {x.id, y.id});
  SpirvValue remainder = signed_remainder(x, y, quotient);
  SpirvId zero = b_.constant(dtype, 0);
  SpirvValue has_remainder = op(spv::OpINotEqual, flags, {remainder.id, zero});
  SpirvValue sign_bits = op(spv::OpBitwiseXor, dtype, {remainder.id, y.id});
  SpirvValue signs_differ = op(spv::OpSLessThan, flags, {sign_bits.id, zero});
  SpirvValue adjust = op(spv::OpLogicalAnd, flags, {has_remainder.id, signs_differ.id});
  SpirvValue adjusted = is_div ? op(spv::OpISub, dtype, {quotient.id, b_.constant(dtype, 1)})
                               : op(spv::OpIAdd, dtype, {remainder.id, y.id});
  SpirvValue plain = is_div ? quotient : remainder;
  return op(spv::OpSelect, dtype, {adjust.id, adjusted.id, plain.id});
}

SpirvValue KernelCodegen::signed_remainder(SpirvValue x, SpirvValue y, SpirvValue quotient) {
  SpirvValue product = op(spv::OpIMul, x.dtype, {quotient.id, y.id});
  return op(spv::OpISub, x.dtype, {x.id, product.id});
}

SpirvValue KernelCodegen::eval_compare(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  struct Comparison {
    NodeKind kind;
    spv::Op on_float, on_signed, on_unsigned, on_bool;
  };
  static constexpr Comparison kComparisons[] = {
      {NodeKind::TirEQ, spv::OpFOrdEqual, spv::OpIEqual, spv::OpIEqual, spv::OpLogicalEqual},
      {NodeKind::TirNE, spv::OpFUnordNotEqual, spv::OpINotEqual, spv::OpINotEqual,
       spv::OpLogicalNotEqual},
      {NodeKind::TirLT, spv::OpFOrdLessThan, spv::OpSLessThan, spv::OpULessThan, spv::OpNop},
      {NodeKind::TirLE, spv::OpFOrdLessThanEqual, spv::OpSLessThanEqual, spv::OpULessThanEqual,
       spv::OpNop},
      {NodeKind::TirGT, spv::OpFOrdGreaterThan, spv::OpSGreaterThan, spv::OpUGreaterThan,
       spv::OpNop},
      {NodeKind::TirGE, spv::OpFOrdGreaterThanEqual, spv::OpSGreaterThanEqual,
       spv::OpUGreaterThanEqual, spv::OpNop},
  };
  SpirvValue x = eval(a), y = eval(b);
  // Comparing the int32 values that two int64 operands extend is exact, and it avoids
  // lavapipe's (Mesa 22.3) miscompilation of a sign-extended value compared with a small
  // 64-bit constant (always false).
  SpirvValue narrow_x = as_int32(x), narrow_y = as_int32(y);
  if (narrow_x.id != 0 && narrow_y.id != 0) {
    x = narrow_x;
    y = narrow_y;
  }
  match_lanes(x, y);
  DataType dtype = x.dtype;
  for (const Comparison& c : kComparisons) {
    if (c.kind != kind) continue;
    spv::Op code = dtype.is_bool()    ? c.on_bool
                   : dtype.is_float() ? c.on_float
                   : dtype.is_int()   ? c.on_signed
                                      : c.on_unsigned;
    if (code == spv::OpNop) {
      // Booleans order as integers: false < true.
      DataType as_int = DataType::UInt(32, dtype.lanes());
      x = convert(x, as_int);
      y = convert(y, as_int);
      code = c.on_unsigned;
    }
    return op(code, DataType::Bool(dtype.lanes()), {x.id, y.id});
  }
  RELAXC_UNREACHABLE() << node_kind_name(kind) << " is not a comparison";
}

SpirvValue KernelCodegen::eval_load(const tir::BufferLoadNode* load) {
  RELAXC_ICHECK(load->indices.size() == 1)
      << "kernel '" << kernel_.name << "': a load from " << load->buffer->name << " with "
      << load->indices.size() << " indices; the lowered form has flat buffers";
  const BufferBinding& binding = binding_of(load->buffer);
  if (SpirvValue vector = vector_load(binding, load->indices[0]); vector.id != 0) return vector;
  SpirvValue index = eval(load->indices[0]);
  if (index.dtype.lanes() == 1) {
    return convert(op(spv::OpLoad, binding.stored, {element_pointer(binding, index)}),
                   binding.dtype);
  }
  std::vector<uint32_t> lanes;
  for (int i = 0; i < index.dtype.lanes(); ++i) {
    SpirvValue element =
        op(spv::OpLoad, binding.stored, {element_pointer(binding, lane(index, i))});
    lanes.push_back(convert(element, binding.dtype).id);
  }
  return op(spv::OpCompositeConstruct, binding.dtype.with_lanes(index.dtype.lanes()), lanes);
}

SpirvValue KernelCodegen::eval_call(const tir::CallNode* call) {
  if (call->op == "tir.if_then_else") return eval_if_then_else(call);
  if (call->op == "tir.likely") return eval(call->args[0]);
  if (call->op.rfind("tir.bitwise_", 0) == 0 || call->op.rfind("tir.shift_", 0) == 0) {
    return eval_bit_operation(call);
  }
  if (call->op == "tir.reinterpret") {
    RELAXC_ICHECK(call->args.size() == 1) << "T.reinterpret takes one argument";
    SpirvValue value = eval(call->args[0]);
    DataType to = call->dtype.element_of().with_lanes(value.dtype.lanes());
    if (to.bits() != value.dtype.bits()) {
      user_error(call->span) << "kernel '" << kernel_.name << "': T.reinterpret from "
                             << value.dtype.str() << " to " << to.str()
                             << " changes the width; reinterpret between types of one width";
    }
    return to == value.dtype ? value : op(spv::OpBitcast, to, {value.id});
  }
  if (is_math_intrinsic(call->op)) {
    std::vector<SpirvValue> args;
    for (const PrimExpr& arg : call->args) args.push_back(eval(arg));
    for (size_t i = 1; i < args.size(); ++i) match_lanes(args[0], args[i]);
    return emit_math_intrinsic(b_, call->op, args, kernel_.name, call->span);
  }
  std::string callee = call->op;
  if (!call->args.empty()) {
    if (const auto* name = call->args[0].as<tir::StringImmNode>())
      callee += " '" + name->value + "'";
  }
  user_error(call->span) << "kernel '" << kernel_.name << "' calls " << callee
                         << ", which the SPIR-V back end does not provide";
  return {};  // not reached; GCC cannot see that the line above throws
}

// T.bitwise_* and T.shift_*; the bitwise operations of booleans are the logical ones.
SpirvValue KernelCodegen::eval_bit_operation(const tir::CallNode* call) {
  SpirvValue x = eval(call->args[0]);
  bool is_bool = x.dtype.is_bool();
  if (call->op == "tir.bitwise_not")
    return op(is_bool ? spv::OpLogicalNot : spv::OpNot, x.dtype, {x.id});
  RELAXC_ICHECK(call->args.size() == 2) << call->op << " takes two arguments";
  SpirvValue y = eval(call->args[1]);
  match_lanes(x, y);
  spv::Op code = spv::OpNop;
  if (call->op == "tir.bitwise_and") {
    code = is_bool ? spv::OpLogicalAnd : spv::OpBitwiseAnd;
  } else if (call->op == "tir.bitwise_or") {
    code = is_bool ? spv::OpLogicalOr : spv::OpBitwiseOr;
  } else if (call->op == "tir.bitwise_xor") {
    code = is_bool ? spv::OpLogicalNotEqual : spv::OpBitwiseXor;
  } else if (call->op == "tir.shift_left") {
    code = spv::OpShiftLeftLogical;
  } else if (call->op == "tir.shift_right") {
    code = x.dtype.is_int() ? spv::OpShiftRightArithmetic : spv::OpShiftRightLogical;
  }
  RELAXC_ICHECK(code != spv::OpNop && !(is_bool && call->op.rfind("tir.shift_", 0) == 0))
      << "kernel '" << kernel_.name << "': " << call->op << " of " << x.dtype.str();
  return op(code, x.dtype, {x.id, y.id});
}

SpirvValue KernelCodegen::eval_if_then_else(const tir::CallNode* call) {
  RELAXC_ICHECK(call->args.size() == 3) << "T.if_then_else takes three arguments";
  SpirvValue condition = eval(call->args[0]);
  if (condition.dtype.lanes() > 1) {
    // Lane-wise choice: both sides are evaluated.
    SpirvValue t = eval(call->args[1]), f = eval(call->args[2]);
    match_lanes(t, f);
    match_lanes(condition, t);
    return op(spv::OpSelect, t.dtype, {condition.id, t.id, f.id});
  }
  SpirvId then_label = b_.new_label(), else_label = b_.new_label(), merge = b_.new_label();
  b_.selection_merge(merge);
  b_.branch_conditional(condition.id, then_label, else_label);
  b_.start_block(then_label);
  SpirvValue t = eval(call->args[1]);
  SpirvId then_end = b_.current_block();
  b_.branch(merge);
  b_.start_block(else_label);
  SpirvValue f = eval(call->args[2]);
  SpirvId else_end = b_.current_block();
  b_.branch(merge);
  b_.start_block(merge);
  RELAXC_ICHECK(t.dtype == f.dtype)
      << "kernel '" << kernel_.name << "': T.if_then_else with sides of " << t.dtype.str()
      << " and " << f.dtype.str();
  return op(spv::OpPhi, t.dtype, {t.id, then_end, f.id, else_end});
}

SpirvValue KernelCodegen::convert(SpirvValue value, DataType to_dtype) {
  DataType from = value.dtype;
  DataType to = to_dtype.element_of().with_lanes(from.lanes());
  if (from == to) return value;
  if (to.is_bool()) {
    spv::Op code = from.is_float() ? spv::OpFUnordNotEqual : spv::OpINotEqual;
    return op(code, to, {value.id, b_.constant(from, 0)});
  }
  if (from.is_bool()) {
    return op(spv::OpSelect, to, {value.id, b_.constant(to, 1), b_.constant(to, 0)});
  }
  if (from.is_float() && to.is_float()) return op(spv::OpFConvert, to, {value.id});
  if (from.is_float()) {
    return op(to.is_int() ? spv::OpConvertFToS : spv::OpConvertFToU, to, {value.id});
  }
  if (to.is_float()) {
    return op(from.is_int() ? spv::OpConvertSToF : spv::OpConvertUToF, to, {value.id});
  }
  // Integers: change the width keeping the source's signedness (sign- or zero-extending),
  // then reinterpret the bits as the target's signedness.
  if (from.bits() != to.bits()) {
    DataType widened(from.code(), to.bits(), from.lanes());
    SpirvValue narrow = value;
    value = op(from.is_int() ? spv::OpSConvert : spv::OpUConvert, widened, {value.id});
    if (from == DataType::Int(32) && widened == DataType::Int(64)) narrow_int64_[value.id] = narrow;
  }
  return value.dtype == to ? value : op(spv::OpBitcast, to, {value.id});
}

SpirvValue KernelCodegen::as_int32(SpirvValue value) const {
  auto it = narrow_int64_.find(value.id);
  return it != narrow_int64_.end() ? it->second : SpirvValue{};
}

SpirvValue KernelCodegen::broadcast(SpirvValue scalar, int lanes) {
  if (lanes == 1) return scalar;
  RELAXC_ICHECK(scalar.dtype.lanes() == 1)
      << "kernel '" << kernel_.name << "': broadcast of a " << scalar.dtype.str();
  std::vector<uint32_t> copies(static_cast<size_t>(lanes), scalar.id);
  return op(spv::OpCompositeConstruct, scalar.dtype.with_lanes(lanes), copies);
}

void KernelCodegen::match_lanes(SpirvValue& a, SpirvValue& b) {
  if (a.dtype.lanes() == b.dtype.lanes()) return;
  if (a.dtype.lanes() == 1) {
    a = broadcast(a, b.dtype.lanes());
  } else {
    RELAXC_ICHECK(b.dtype.lanes() == 1) << "kernel '" << kernel_.name << "': operands of "
                                        << a.dtype.str() << " and " << b.dtype.str();
    b = broadcast(b, a.dtype.lanes());
  }
}

SpirvValue KernelCodegen::lane(SpirvValue vector, int index) {
  return op(spv::OpCompositeExtract, vector.dtype.element_of(),
            {vector.id, static_cast<uint32_t>(index)});
}

SpirvId KernelCodegen::element_pointer(const BufferBinding& binding, SpirvValue index) {
  RELAXC_ICHECK(index.dtype.is_integer() && !index.dtype.is_bool() && index.dtype.lanes() == 1)
      << "kernel '" << kernel_.name << "': a buffer index of " << index.dtype.str();
  SpirvId pointer = b_.pointer_type(binding.storage, type(binding.stored));
  if (binding.storage == spv::StorageClassStorageBuffer) {
    // Member 0 of the buffer's block is its runtime array.
    return b_.value(spv::OpAccessChain, pointer,
                    {binding.variable, b_.int_constant(DataType::Int(32), 0), index.id});
  }
  return b_.value(spv::OpAccessChain, pointer, {binding.variable, index.id});
}

SpirvValue KernelCodegen::vector_load(const BufferBinding& binding, const PrimExpr& index) {
  if (vector_loop_ == nullptr || binding.storage != spv::StorageClassStorageBuffer ||
      !binding.read_only || binding.stored != binding.dtype || binding.dtype.bits() != 32) {
    return {};
  }
  const tir::Var& var = vector_loop_->loop_var;
  int lanes = static_cast<int>(*tir::as_const_int(vector_loop_->extent));
  if (lanes != 2 && lanes != 4) return {};
  // Consecutive in the loop's variable, from a start that is a multiple of the lanes.
  PrimExpr step = arith::simplify(tir::substitute(index, {{var, PrimExpr(var) + 1}}) - index);
  if (!tir::is_const_int(step, 1)) return {};
  PrimExpr start = arith::simplify(tir::substitute(index, {{var, vector_loop_->min}}));
  PrimExpr count = tir::int_imm(start->dtype, lanes);
  if (!tir::is_const_int(arith::simplify(tir::floormod(start, count)), 0)) return {};
  DataType vector = binding.dtype.with_lanes(lanes);
  SpirvValue element = eval(arith::simplify(tir::floordiv(start, count)));
  SpirvId pointer =
      b_.value(spv::OpAccessChain, b_.pointer_type(spv::StorageClassStorageBuffer, type(vector)),
               {vector_view(binding, lanes), b_.int_constant(DataType::Int(32), 0), element.id});
  return op(spv::OpLoad, vector, {pointer});
}

SpirvId KernelCodegen::vector_view(const BufferBinding& binding, int lanes) {
  auto [it, added] = vector_views_.try_emplace({binding.variable, lanes}, 0);
  if (!added) return it->second;
  DataType vector = binding.dtype.with_lanes(lanes);
  SpirvId array = b_.runtime_array_type(type(vector), static_cast<uint32_t>(vector.bytes()));
  SpirvId block = b_.block_struct_type({array}, {0});
  SpirvId variable = b_.global_variable(b_.pointer_type(spv::StorageClassStorageBuffer, block),
                                        spv::StorageClassStorageBuffer);
  b_.decorate(variable, spv::DecorationDescriptorSet, {0});
  b_.decorate(variable, spv::DecorationBinding, {binding.binding});
  b_.decorate(variable, spv::DecorationNonWritable);
  b_.name(variable, binding.name + "_vec" + std::to_string(lanes));
  it->second = variable;
  return variable;
}

const BufferBinding& KernelCodegen::binding_of(const tir::Buffer& buffer) {
  auto it = buffers_.find(buffer->data.get());
  RELAXC_ICHECK(it != buffers_.end()) << "kernel '" << kernel_.name << "': buffer " << buffer->name
                                      << " is neither a param nor allocated";
  return it->second;
}

}  // namespace relaxc::codegen
