// The NVPTX code generator's expressions: values with their dtypes, arithmetic with the
// right signedness, floor division, comparisons, conversions, loads (vector loads where
// contiguous), intrinsic calls.
//
// Signed int32 and int64 arithmetic is `nsw` (TensorIR index arithmetic does not wrap),
// which lets LLVM widen indices once per loop; narrower integers wrap as their width says.
// Float-to-integer conversions saturate (llvm.fpto[su]i.sat, which is what PTX's cvt does),
// so that no input value makes one undefined.
// T.shuffle_down is llvm.nvvm.shfl.sync.down (shfl.sync.down.b32) over the full warp;
// LLVM keeps it convergent, so optimization never moves it under a condition.
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>

#include "codegen/cuda/llvm_kernel_builder.h"
#include "codegen/cuda/nvptx_math.h"
#include "ir/arith/analyzer.h"
#include "ir/tir/functor.h"

namespace relaxc::codegen {

using tir::PrimExpr;

LlvmValue LlvmKernelBuilder::eval_int_imm(const tir::IntImmNode* imm) {
  DataType dtype = imm->dtype;
  if (dtype.is_bool()) return {b_.getInt1(imm->value != 0), dtype};
  return {llvm::ConstantInt::get(type_of(dtype), static_cast<uint64_t>(imm->value), true), dtype};
}

LlvmValue LlvmKernelBuilder::eval_float_imm(const tir::FloatImmNode* imm) {
  return {llvm::ConstantFP::get(type_of(imm->dtype), imm->value), imm->dtype};
}

LlvmValue LlvmKernelBuilder::eval_not(LlvmValue a) { return {b_.CreateNot(a.value), a.dtype}; }

LlvmValue LlvmKernelBuilder::eval_select(const tir::SelectNode* select) {
  LlvmValue condition = eval(select->condition);
  LlvmValue t = eval(select->true_value), f = eval(select->false_value);
  match_lanes(t, f);
  // A scalar condition chooses whole vectors; a vector one chooses lane by lane.
  if (condition.dtype.lanes() > 1) {
    match_lanes(condition, t);
    match_lanes(condition, f);
  }
  return {b_.CreateSelect(condition.value, t.value, f.value), t.dtype};
}

LlvmValue LlvmKernelBuilder::eval_ramp(const tir::RampNode* ramp) {
  LlvmValue base = eval(ramp->base), stride = eval(ramp->stride);
  RELAXC_ICHECK(base.dtype.lanes() == 1 && stride.dtype == base.dtype && base.dtype.is_integer())
      << "kernel '" << kernel_.name << "': a ramp of " << base.dtype.str();
  std::vector<llvm::Constant*> steps;
  for (int i = 0; i < ramp->lanes; ++i) {
    steps.push_back(llvm::ConstantInt::get(type_of(base.dtype), static_cast<uint64_t>(i)));
  }
  llvm::Value* offsets =
      b_.CreateMul(broadcast(stride, ramp->lanes).value, llvm::ConstantVector::get(steps));
  return {b_.CreateAdd(broadcast(base, ramp->lanes).value, offsets),
          base.dtype.with_lanes(ramp->lanes)};
}

LlvmValue LlvmKernelBuilder::eval_binary(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  LlvmValue x = eval(a), y = eval(b);
  match_lanes(x, y);
  DataType dtype = x.dtype;
  llvm::Value* u = x.value;
  llvm::Value* v = y.value;
  if (dtype.is_bool()) {
    // min and max of booleans are their conjunction and disjunction.
    if (kind == NodeKind::TirAnd || kind == NodeKind::TirMin) return {b_.CreateAnd(u, v), dtype};
    if (kind == NodeKind::TirOr || kind == NodeKind::TirMax) return {b_.CreateOr(u, v), dtype};
    RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': arithmetic " << node_kind_name(kind)
                         << " on booleans";
  }
  if (kind == NodeKind::TirFloorDiv || kind == NodeKind::TirFloorMod) {
    return eval_floor_div_mod(kind, x, y);
  }
  if (dtype.is_float()) {
    switch (kind) {
      case NodeKind::TirAdd:
        return {b_.CreateFAdd(u, v), dtype};
      case NodeKind::TirSub:
        return {b_.CreateFSub(u, v), dtype};
      case NodeKind::TirMul:
        return {b_.CreateFMul(u, v), dtype};
      case NodeKind::TirDiv:
        return {b_.CreateFDiv(u, v), dtype};
      case NodeKind::TirMod:
        return {b_.CreateFRem(u, v), dtype};
      case NodeKind::TirMin:
        return {b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, u, v), dtype};
      case NodeKind::TirMax:
        return {b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, u, v), dtype};
      default:
        break;
    }
  } else {
    bool is_signed = dtype.is_int();
    bool no_wrap = is_signed && dtype.bits() >= 32;
    switch (kind) {
      case NodeKind::TirAdd:
        return {b_.CreateAdd(u, v, "", false, no_wrap), dtype};
      case NodeKind::TirSub:
        return {b_.CreateSub(u, v, "", false, no_wrap), dtype};
      case NodeKind::TirMul:
        return {b_.CreateMul(u, v, "", false, no_wrap), dtype};
      case NodeKind::TirDiv:
        return {is_signed ? b_.CreateSDiv(u, v) : b_.CreateUDiv(u, v), dtype};
      case NodeKind::TirMod:
        return {is_signed ? b_.CreateSRem(u, v) : b_.CreateURem(u, v), dtype};
      case NodeKind::TirMin:
        return {b_.CreateBinaryIntrinsic(is_signed ? llvm::Intrinsic::smin : llvm::Intrinsic::umin,
                                         u, v),
                dtype};
      case NodeKind::TirMax:
        return {b_.CreateBinaryIntrinsic(is_signed ? llvm::Intrinsic::smax : llvm::Intrinsic::umax,
                                         u, v),
                dtype};
      default:
        break;
    }
  }
  RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': logical " << node_kind_name(kind)
                       << " on " << dtype.str();
}

LlvmValue LlvmKernelBuilder::eval_floor_div_mod(NodeKind kind, LlvmValue x, LlvmValue y) {
  DataType dtype = x.dtype;
  bool is_div = kind == NodeKind::TirFloorDiv;
  if (dtype.is_float()) {
    llvm::Value* floored =
        b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b_.CreateFDiv(x.value, y.value));
    if (is_div) return {floored, dtype};
    return {b_.CreateFSub(x.value, b_.CreateFMul(floored, y.value)), dtype};
  }
  if (dtype.is_uint()) {
    return {is_div ? b_.CreateUDiv(x.value, y.value) : b_.CreateURem(x.value, y.value), dtype};
  }
  // Truncating division rounds toward zero; where the remainder is non-zero and its sign
  // differs from the divisor's, floor division is one less and the floor modulus is the
  // remainder plus the divisor. LLVM folds the correction away where it knows the signs.
  llvm::Value* quotient = b_.CreateSDiv(x.value, y.value);
  llvm::Value* remainder = b_.CreateSRem(x.value, y.value);
  llvm::Value* zero = llvm::Constant::getNullValue(quotient->getType());
  llvm::Value* has_remainder = b_.CreateICmpNE(remainder, zero);
  llvm::Value* signs_differ = b_.CreateICmpSLT(b_.CreateXor(remainder, y.value), zero);
  llvm::Value* adjust = b_.CreateAnd(has_remainder, signs_differ);
  llvm::Value* one = llvm::ConstantInt::get(quotient->getType(), 1);
  if (is_div) return {b_.CreateSelect(adjust, b_.CreateSub(quotient, one), quotient), dtype};
  return {b_.CreateSelect(adjust, b_.CreateAdd(remainder, y.value), remainder), dtype};
}

LlvmValue LlvmKernelBuilder::eval_compare(NodeKind kind, const PrimExpr& a, const PrimExpr& b) {
  struct Comparison {
    NodeKind kind;
    llvm::CmpInst::Predicate on_float, on_signed, on_unsigned;
  };
  using P = llvm::CmpInst::Predicate;
  static constexpr Comparison kComparisons[] = {
      {NodeKind::TirEQ, P::FCMP_OEQ, P::ICMP_EQ, P::ICMP_EQ},
      {NodeKind::TirNE, P::FCMP_UNE, P::ICMP_NE, P::ICMP_NE},
      {NodeKind::TirLT, P::FCMP_OLT, P::ICMP_SLT, P::ICMP_ULT},
      {NodeKind::TirLE, P::FCMP_OLE, P::ICMP_SLE, P::ICMP_ULE},
      {NodeKind::TirGT, P::FCMP_OGT, P::ICMP_SGT, P::ICMP_UGT},
      {NodeKind::TirGE, P::FCMP_OGE, P::ICMP_SGE, P::ICMP_UGE},
  };
  LlvmValue x = eval(a), y = eval(b);
  match_lanes(x, y);
  DataType dtype = x.dtype;
  for (const Comparison& c : kComparisons) {
    if (c.kind != kind) continue;
    // Booleans order as unsigned integers: false < true.
    P predicate = dtype.is_float() ? c.on_float : dtype.is_int() ? c.on_signed : c.on_unsigned;
    llvm::Value* result = dtype.is_float() ? b_.CreateFCmp(predicate, x.value, y.value)
                                           : b_.CreateICmp(predicate, x.value, y.value);
    return {result, DataType::Bool(dtype.lanes())};
  }
  RELAXC_UNREACHABLE() << node_kind_name(kind) << " is not a comparison";
}

LlvmValue LlvmKernelBuilder::eval_load(const tir::BufferLoadNode* load) {
  RELAXC_ICHECK(load->indices.size() == 1)
      << "kernel '" << kernel_.name << "': a load from " << load->buffer->name << " with "
      << load->indices.size() << " indices; the lowered form has flat buffers";
  const LlvmBuffer& buffer = buffer_of(load->buffer);
  VectorAccess access = vector_access(load->indices[0]);
  if (access.start.defined()) {
    LlvmValue start = eval(access.start);
    return {load_element(buffer, element_pointer(buffer, start), access.lanes,
                         access_alignment(buffer, access.start, access.lanes)),
            buffer.dtype.with_lanes(access.lanes)};
  }
  LlvmValue index = eval(load->indices[0]);
  uint64_t alignment =
      static_cast<uint64_t>(memory_type_of(buffer.dtype)->getPrimitiveSizeInBits() / 8);
  if (index.dtype.lanes() == 1) {
    return {load_element(buffer, element_pointer(buffer, index), 1, alignment), buffer.dtype};
  }
  // A gather: lane by lane.
  int lanes = index.dtype.lanes();
  llvm::Value* result = llvm::PoisonValue::get(type_of(buffer.dtype.with_lanes(lanes)));
  for (int i = 0; i < lanes; ++i) {
    LlvmValue lane_index = {b_.CreateExtractElement(index.value, i), index.dtype.element_of()};
    llvm::Value* element = load_element(buffer, element_pointer(buffer, lane_index), 1, alignment);
    result = b_.CreateInsertElement(result, element, i);
  }
  return {result, buffer.dtype.with_lanes(lanes)};
}

LlvmValue LlvmKernelBuilder::eval_call(const tir::CallNode* call) {
  if (call->op == "tir.if_then_else") return eval_if_then_else(call);
  if (call->op == "tir.likely") return eval(call->args[0]);
  if (call->op.rfind("tir.bitwise_", 0) == 0 || call->op.rfind("tir.shift_", 0) == 0) {
    return eval_bit_operation(call);
  }
  if (call->op == "tir.reinterpret") {
    RELAXC_ICHECK(call->args.size() == 1) << "T.reinterpret takes one argument";
    LlvmValue value = eval(call->args[0]);
    DataType to = call->dtype.element_of().with_lanes(value.dtype.lanes());
    if (to.bits() != value.dtype.bits() || to.is_bool() || value.dtype.is_bool()) {
      user_error(call->span) << "kernel '" << kernel_.name << "': T.reinterpret from "
                             << value.dtype.str() << " to " << to.str()
                             << " changes the width; reinterpret between types of one width";
    }
    return {to == value.dtype ? value.value : b_.CreateBitCast(value.value, type_of(to)), to};
  }
  if (call->op == "tir.shuffle_down") return eval_shuffle_down(call);
  if (is_nvptx_math_intrinsic(call->op)) return eval_math(call);
  std::string callee = call->op;
  if (!call->args.empty()) {
    if (const auto* name = call->args[0].as<tir::StringImmNode>()) {
      callee += " '" + name->value + "'";
    }
  }
  user_error(call->span) << "kernel '" << kernel_.name << "' calls " << callee
                         << ", which the CUDA back end does not provide";
  return {};  // not reached; GCC cannot see that the line above throws
}

// T.bitwise_* and T.shift_*. Booleans are i1, so their bitwise operations are the
// logical ones.
LlvmValue LlvmKernelBuilder::eval_bit_operation(const tir::CallNode* call) {
  LlvmValue x = eval(call->args[0]);
  if (call->op == "tir.bitwise_not") return {b_.CreateNot(x.value), x.dtype};
  RELAXC_ICHECK(call->args.size() == 2) << call->op << " takes two arguments";
  LlvmValue y = eval(call->args[1]);
  match_lanes(x, y);
  llvm::Value* result = nullptr;
  if (call->op == "tir.bitwise_and") {
    result = b_.CreateAnd(x.value, y.value);
  } else if (call->op == "tir.bitwise_or") {
    result = b_.CreateOr(x.value, y.value);
  } else if (call->op == "tir.bitwise_xor") {
    result = b_.CreateXor(x.value, y.value);
  } else if (call->op == "tir.shift_left") {
    result = b_.CreateShl(x.value, y.value);
  } else if (call->op == "tir.shift_right") {
    result = x.dtype.is_int() ? b_.CreateAShr(x.value, y.value) : b_.CreateLShr(x.value, y.value);
  }
  RELAXC_ICHECK(result != nullptr) << "kernel '" << kernel_.name << "': " << call->op;
  return {result, x.dtype};
}

LlvmValue LlvmKernelBuilder::eval_math(const tir::CallNode* call) {
  std::vector<LlvmValue> args;
  for (const PrimExpr& arg : call->args) args.push_back(eval(arg));
  RELAXC_ICHECK(!args.empty()) << call->op << " without arguments";
  for (size_t i = 1; i < args.size(); ++i) match_lanes(args[0], args[i]);
  for (size_t i = 1; i < args.size(); ++i) match_lanes(args[i], args[0]);
  DataType dtype = args[0].dtype;
  RELAXC_ICHECK(dtype.is_float()) << call->op << " of " << dtype.str() << " in kernel "
                                  << kernel_.name;
  // Vectors are computed lane by lane: libdevice's functions are scalar.
  auto lane_call = [&](int lane) {
    std::vector<llvm::Value*> operands;
    for (const LlvmValue& arg : args) {
      operands.push_back(dtype.lanes() == 1 ? arg.value : b_.CreateExtractElement(arg.value, lane));
    }
    return emit_nvptx_math(b_, call->op, operands, dtype.element_of(), libdevice_, kernel_.name,
                           call->span);
  };
  if (dtype.lanes() == 1) {
    llvm::Value* result = lane_call(0);
    return {result, result->getType()->isIntegerTy(1) ? DataType::Bool() : dtype};
  }
  llvm::Value* result = nullptr;
  DataType result_dtype;
  for (int i = 0; i < dtype.lanes(); ++i) {
    llvm::Value* element = lane_call(i);
    if (result == nullptr) {
      result_dtype = element->getType()->isIntegerTy(1) ? DataType::Bool(dtype.lanes()) : dtype;
      result = llvm::PoisonValue::get(type_of(result_dtype));
    }
    result = b_.CreateInsertElement(result, element, i);
  }
  return {result, result_dtype};
}

LlvmValue LlvmKernelBuilder::eval_shuffle_down(const tir::CallNode* call) {
  RELAXC_ICHECK(call->args.size() == 2) << "T.shuffle_down takes two arguments";
  LlvmValue value = eval(call->args[0]);
  LlvmValue delta = eval(call->args[1]);
  DataType dtype = value.dtype;
  bool is_float = dtype == DataType::Float(32);
  if (!is_float &&
      (!dtype.is_integer() || dtype.is_bool() || dtype.bits() != 32 || dtype.lanes() != 1)) {
    user_error(call->span) << "kernel '" << kernel_.name << "': T.shuffle_down of " << dtype.str()
                           << "; a warp shuffle moves a 32-bit scalar (float32, int32, uint32)";
  }
  if (!delta.dtype.is_integer() || delta.dtype.is_bool() || delta.dtype.lanes() != 1) {
    user_error(call->args[1]->span.defined() ? call->args[1]->span : call->span)
        << "kernel '" << kernel_.name << "': the lane offset of T.shuffle_down is "
        << delta.dtype.str() << "; expected an integer scalar";
  }
  delta = convert(delta, DataType::Int(32));
  // The clamp operand packs the segment mask ((32 - width) << 8, 0 for the whole warp)
  // and the highest lane (31).
  constexpr uint32_t kFullMask = 0xffffffffu;
  constexpr uint32_t kWidth = 32;
  constexpr uint32_t kClamp = ((32 - kWidth) << 8) | 0x1f;
  llvm::Intrinsic::ID id = is_float ? llvm::Intrinsic::nvvm_shfl_sync_down_f32
                                    : llvm::Intrinsic::nvvm_shfl_sync_down_i32;
  llvm::Value* result = b_.CreateIntrinsic(
      id, {}, {b_.getInt32(kFullMask), value.value, delta.value, b_.getInt32(kClamp)});
  return {result, dtype};
}

LlvmValue LlvmKernelBuilder::eval_if_then_else(const tir::CallNode* call) {
  RELAXC_ICHECK(call->args.size() == 3) << "T.if_then_else takes three arguments";
  LlvmValue condition = eval(call->args[0]);
  if (condition.dtype.lanes() > 1) {
    // Lane-wise choice: both sides are evaluated.
    LlvmValue t = eval(call->args[1]), f = eval(call->args[2]);
    match_lanes(t, f);
    match_lanes(condition, t);
    match_lanes(condition, f);
    return {b_.CreateSelect(condition.value, t.value, f.value), t.dtype};
  }
  // Only the chosen side is evaluated: it may hold a load that is out of bounds otherwise.
  llvm::Function* function = b_.GetInsertBlock()->getParent();
  llvm::BasicBlock* then_block = llvm::BasicBlock::Create(context_, "select.then", function);
  llvm::BasicBlock* else_block = llvm::BasicBlock::Create(context_, "select.else", function);
  llvm::BasicBlock* merge = llvm::BasicBlock::Create(context_, "select.end", function);
  b_.CreateCondBr(condition.value, then_block, else_block);
  b_.SetInsertPoint(then_block);
  LlvmValue t = eval(call->args[1]);
  llvm::BasicBlock* then_end = b_.GetInsertBlock();
  b_.SetInsertPoint(else_block);
  LlvmValue f = eval(call->args[2]);
  // A scalar side meeting a vector one is broadcast, at the end of its own branch.
  int lanes = std::max(t.dtype.lanes(), f.dtype.lanes());
  f = broadcast(f, lanes);
  llvm::BasicBlock* else_end = b_.GetInsertBlock();
  b_.CreateBr(merge);
  b_.SetInsertPoint(then_end);
  t = broadcast(t, lanes);
  b_.CreateBr(merge);
  RELAXC_ICHECK(t.dtype == f.dtype)
      << "kernel '" << kernel_.name << "': T.if_then_else with sides of " << t.dtype.str()
      << " and " << f.dtype.str();
  b_.SetInsertPoint(merge);
  llvm::PHINode* phi = b_.CreatePHI(type_of(t.dtype), 2);
  phi->addIncoming(t.value, then_end);
  phi->addIncoming(f.value, else_end);
  return {phi, t.dtype};
}

LlvmValue LlvmKernelBuilder::convert(LlvmValue value, DataType to_dtype) {
  DataType from = value.dtype;
  DataType to = to_dtype.element_of().with_lanes(from.lanes());
  if (from == to) return value;
  llvm::Value* v = value.value;
  llvm::Type* type = type_of(to);
  if (to.is_bool()) {
    llvm::Value* zero = llvm::Constant::getNullValue(v->getType());
    return {from.is_float() ? b_.CreateFCmpUNE(v, zero) : b_.CreateICmpNE(v, zero), to};
  }
  if (from.is_bool())
    return {to.is_float() ? b_.CreateUIToFP(v, type) : b_.CreateZExt(v, type), to};
  if (from.is_float() && to.is_float()) {
    if (from.bits() == to.bits()) {
      // float16 <-> bfloat16: through float32, which holds both exactly.
      v = b_.CreateFPExt(v, type_of(DataType::Float(32, from.lanes())));
      return {b_.CreateFPTrunc(v, type), to};
    }
    return {from.bits() < to.bits() ? b_.CreateFPExt(v, type) : b_.CreateFPTrunc(v, type), to};
  }
  if (from.is_float()) {
    llvm::Intrinsic::ID id =
        to.is_int() ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return {b_.CreateIntrinsic(id, {type, v->getType()}, {v}), to};
  }
  if (to.is_float())
    return {from.is_int() ? b_.CreateSIToFP(v, type) : b_.CreateUIToFP(v, type), to};
  // Integers: the source's signedness decides between sign- and zero-extension.
  return {b_.CreateIntCast(v, type, from.is_int()), to};
}

LlvmValue LlvmKernelBuilder::broadcast(LlvmValue scalar, int lanes) {
  if (lanes == 1 || scalar.dtype.lanes() == lanes) return scalar;
  RELAXC_ICHECK(scalar.dtype.lanes() == 1) << "kernel '" << kernel_.name << "': broadcast of a "
                                           << scalar.dtype.str() << " to " << lanes << " lanes";
  return {b_.CreateVectorSplat(static_cast<unsigned>(lanes), scalar.value),
          scalar.dtype.with_lanes(lanes)};
}

void LlvmKernelBuilder::match_lanes(LlvmValue& a, LlvmValue& b) {
  if (a.dtype.lanes() == b.dtype.lanes()) return;
  if (a.dtype.lanes() == 1) {
    a = broadcast(a, b.dtype.lanes());
  } else {
    RELAXC_ICHECK(b.dtype.lanes() == 1) << "kernel '" << kernel_.name << "': operands of "
                                        << a.dtype.str() << " and " << b.dtype.str();
    b = broadcast(b, a.dtype.lanes());
  }
}

// --- Memory.

LlvmKernelBuilder::VectorAccess LlvmKernelBuilder::vector_access(const PrimExpr& index) {
  if (const auto* ramp = index.as<tir::RampNode>()) {
    if (tir::is_const_int(ramp->stride, 1) && ramp->base->dtype.lanes() == 1) {
      return {ramp->lanes, ramp->base};
    }
    return {ramp->lanes, PrimExpr()};
  }
  if (vector_loop_ == nullptr) return {};
  const tir::Var& var = vector_loop_->loop_var;
  int lanes = static_cast<int>(*tir::as_const_int(vector_loop_->extent));
  PrimExpr step =
      arith::simplify(tir::sub(tir::substitute(index, {{var, PrimExpr(var) + 1}}), index));
  if (!tir::is_const_int(step, 1)) return {};
  return {lanes, arith::simplify(tir::substitute(index, {{var, vector_loop_->min}}))};
}

uint64_t LlvmKernelBuilder::access_alignment(const LlvmBuffer& buffer, const PrimExpr& start,
                                             int lanes) {
  uint64_t element = memory_type_of(buffer.dtype)->getPrimitiveSizeInBits() / 8;
  // The widest power of two, up to the vector's size and the base's alignment, that
  // divides start * element provably.
  uint64_t alignment = element;
  while (alignment * 2 <= element * static_cast<uint64_t>(lanes) &&
         alignment * 2 <= buffer.alignment) {
    alignment *= 2;
  }
  for (; alignment > element; alignment /= 2) {
    PrimExpr elements = tir::int_imm(start->dtype, static_cast<int64_t>(alignment / element));
    if (tir::is_const_int(arith::simplify(tir::floormod(start, elements)), 0)) break;
  }
  return alignment;
}

llvm::Value* LlvmKernelBuilder::element_pointer(const LlvmBuffer& buffer, LlvmValue index) {
  RELAXC_ICHECK(index.dtype.is_integer() && !index.dtype.is_bool() && index.dtype.lanes() == 1)
      << "kernel '" << kernel_.name << "': a buffer index of " << index.dtype.str();
  llvm::Value* offset = index.value;
  // GEP indices are signed: an unsigned index is widened first.
  if (index.dtype.is_uint() && index.dtype.bits() < 64)
    offset = b_.CreateZExt(offset, b_.getInt64Ty());
  return b_.CreateInBoundsGEP(memory_type_of(buffer.dtype), buffer.base, {offset});
}

llvm::Value* LlvmKernelBuilder::load_element(const LlvmBuffer& buffer, llvm::Value* pointer,
                                             int lanes, uint64_t alignment) {
  DataType dtype = buffer.dtype.with_lanes(lanes);
  llvm::Value* value = b_.CreateAlignedLoad(memory_type_of(dtype), pointer, llvm::Align(alignment));
  if (dtype.is_bool()) value = b_.CreateTrunc(value, type_of(dtype));
  return value;
}

void LlvmKernelBuilder::store_element(llvm::Value* pointer, LlvmValue value, uint64_t alignment) {
  llvm::Value* v = value.value;
  if (value.dtype.is_bool()) v = b_.CreateZExt(v, memory_type_of(value.dtype));
  b_.CreateAlignedStore(v, pointer, llvm::Align(alignment));
}

const LlvmBuffer& LlvmKernelBuilder::buffer_of(const tir::Buffer& buffer) {
  auto it = buffers_.find(buffer->data.get());
  RELAXC_ICHECK(it != buffers_.end()) << "kernel '" << kernel_.name << "': buffer " << buffer->name
                                      << " is neither a param nor allocated";
  return it->second;
}

llvm::Type* LlvmKernelBuilder::type_of(DataType dtype) {
  llvm::Type* element = nullptr;
  if (dtype.is_integer()) {
    element = b_.getIntNTy(static_cast<unsigned>(dtype.bits()));
  } else if (dtype.is_bfloat() && dtype.bits() == 16) {
    element = b_.getBFloatTy();
  } else if (dtype.is_float() && dtype.bits() == 16) {
    element = b_.getHalfTy();
  } else if (dtype.is_float() && dtype.bits() == 32) {
    element = b_.getFloatTy();
  } else if (dtype.is_float() && dtype.bits() == 64) {
    element = b_.getDoubleTy();
  }
  RELAXC_ICHECK(element != nullptr)
      << "kernel '" << kernel_.name << "': no LLVM type for " << dtype.str();
  if (dtype.lanes() == 1) return element;
  return llvm::FixedVectorType::get(element, static_cast<unsigned>(dtype.lanes()));
}

llvm::Type* LlvmKernelBuilder::memory_type_of(DataType dtype) {
  return type_of(dtype.is_bool() ? DataType::UInt(8, dtype.lanes()) : dtype);
}

}  // namespace relaxc::codegen
