// PrimExpr -> IntProgram: a post-order walk that emits postfix code for the VM's integer
// stack machine (operands first, left before right, then the operator).
#include "codegen/vm/int_program_codegen.h"

#include <utility>

#include "ir/tir/functor.h"

namespace relaxc::codegen {
namespace {

using runtime::vm::IntInstr;
using runtime::vm::IntOp;
using runtime::vm::IntProgram;

class IntProgramEmitter {
 public:
  IntProgramEmitter(const IntSlots& slots, const std::string& what) : slots_(slots), what_(what) {}

  IntProgram take() { return std::move(program_); }

  void emit(const tir::PrimExpr& e) {
    NestingGuard guard(depth_, e.get());
    if (e->dtype.lanes() != 1 || !(e->dtype.is_integer())) {
      user_error(e->span) << what_ << ": the host computes only integer scalars, got an "
                          << "expression of type " << e->dtype.str();
    }
    switch (e->kind()) {
      case NodeKind::TirIntImm:
        return push(IntOp::Const, e.as<tir::IntImmNode>()->value);
      case NodeKind::TirVar: {
        auto it = slots_.vars.find(e.as<tir::VarNode>());
        if (it == slots_.vars.end()) {
          user_error(e->span) << what_ << ": variable '" << e.as<tir::VarNode>()->name
                              << "' has no value on the host";
        }
        return push(IntOp::Load, it->second);
      }
      case NodeKind::TirBufferLoad:
        return emit_load(*e.as<tir::BufferLoadNode>());
      case NodeKind::TirCast:
        return emit_cast(*e.as<tir::CastNode>());
      case NodeKind::TirAdd:
        return binary<tir::AddNode>(e, IntOp::Add);
      case NodeKind::TirSub:
        return binary<tir::SubNode>(e, IntOp::Sub);
      case NodeKind::TirMul:
        return binary<tir::MulNode>(e, IntOp::Mul);
      case NodeKind::TirDiv:
        return binary<tir::DivNode>(e, IntOp::TruncDiv);
      case NodeKind::TirMod:
        return binary<tir::ModNode>(e, IntOp::TruncMod);
      case NodeKind::TirFloorDiv:
        return binary<tir::FloorDivNode>(e, IntOp::FloorDiv);
      case NodeKind::TirFloorMod:
        return binary<tir::FloorModNode>(e, IntOp::FloorMod);
      case NodeKind::TirMin:
        return binary<tir::MinNode>(e, IntOp::Min);
      case NodeKind::TirMax:
        return binary<tir::MaxNode>(e, IntOp::Max);
      case NodeKind::TirEQ:
        return binary<tir::EQNode>(e, IntOp::EQ);
      case NodeKind::TirNE:
        return binary<tir::NENode>(e, IntOp::NE);
      case NodeKind::TirLT:
        return binary<tir::LTNode>(e, IntOp::LT);
      case NodeKind::TirLE:
        return binary<tir::LENode>(e, IntOp::LE);
      case NodeKind::TirGT:
        return binary<tir::GTNode>(e, IntOp::GT);
      case NodeKind::TirGE:
        return binary<tir::GENode>(e, IntOp::GE);
      case NodeKind::TirAnd:
        return binary<tir::AndNode>(e, IntOp::And);
      case NodeKind::TirOr:
        return binary<tir::OrNode>(e, IntOp::Or);
      case NodeKind::TirNot:
        emit(e.as<tir::NotNode>()->a);
        return push(IntOp::Not);
      case NodeKind::TirSelect: {
        const auto* s = e.as<tir::SelectNode>();
        return select(s->condition, s->true_value, s->false_value);
      }
      case NodeKind::TirLet: {
        // The stack machine has no local variables: the bound value is substituted
        // (host expressions are small, so the copies cost nothing worth a slot).
        const auto* let = e.as<tir::LetNode>();
        return emit(tir::substitute(let->body, tir::VarMap{{let->var, let->value}}));
      }
      case NodeKind::TirCall: {
        const auto* call = e.as<tir::CallNode>();
        if (call->op == "tir.if_then_else" && call->args.size() == 3) {
          return select(call->args[0], call->args[1], call->args[2]);
        }
        user_error(e->span) << what_ << ": the host cannot compute the intrinsic '" << call->op
                            << "'";
      }
      default:
        user_error(e->span) << what_ << ": the host cannot compute a " << node_kind_name(e->kind())
                            << " expression";
    }
  }

 private:
  void push(IntOp op, int64_t operand = 0) { program_.code.push_back(IntInstr{op, operand}); }

  template <typename Node>
  void binary(const tir::PrimExpr& e, IntOp op) {
    const auto* node = e.as<Node>();
    emit(node->a);
    emit(node->b);
    push(op);
  }

  void select(const tir::PrimExpr& cond, const tir::PrimExpr& a, const tir::PrimExpr& b) {
    emit(cond);
    emit(a);
    emit(b);
    push(IntOp::Select);
  }

  void emit_load(const tir::BufferLoadNode& load) {
    if (slots_.heap == nullptr || load.buffer.get() != slots_.heap) {
      user_error(load.span) << what_ << ": the host cannot read buffer '" << load.buffer->name
                            << "'";
    }
    const int64_t* index = load.indices.size() == 1 ? tir::as_const_int(load.indices[0]) : nullptr;
    if (index == nullptr || *index < 0) {
      user_error(load.span) << what_ << ": the shape heap '" << load.buffer->name
                            << "' must be read at a constant non-negative index";
    }
    push(IntOp::Load, *index);
  }

  // Integer conversions keep the value where it fits; a narrower target type wraps
  // around as the device would (two's complement), which floormod expresses exactly.
  void emit_cast(const tir::CastNode& cast) {
    const tir::PrimExpr& from = cast.value;
    emit(from);
    DataType to = cast.dtype;
    if (to.is_bool()) {
      if (!from->dtype.is_bool()) {
        push(IntOp::Const, 0);
        push(IntOp::NE);
      }
      return;
    }
    if (to.bits() >= 64 || from->dtype.is_bool()) return;
    int64_t modulus = int64_t{1} << to.bits();
    if (to.is_uint()) {
      push(IntOp::Const, modulus);
      push(IntOp::FloorMod);
      return;
    }
    int64_t half = modulus / 2;
    push(IntOp::Const, half);
    push(IntOp::Add);
    push(IntOp::Const, modulus);
    push(IntOp::FloorMod);
    push(IntOp::Const, half);
    push(IntOp::Sub);
  }

  const IntSlots& slots_;
  const std::string& what_;
  IntProgram program_;
  int depth_ = 0;
};

}  // namespace

IntProgram int_program_codegen(const tir::PrimExpr& e, const IntSlots& slots,
                               const std::string& what) {
  RELAXC_ICHECK(e.defined()) << what << ": no expression";
  IntProgramEmitter emitter(slots, what);
  emitter.emit(e);
  IntProgram program = emitter.take();
  std::string problem = runtime::vm::validate_int_program(program);
  if (!problem.empty()) {
    // Only the stack depth can go wrong here: the emitter balances every operator.
    user_error(e->span) << what << ": the expression is too deeply nested for the host (" << problem
                        << ")";
  }
  return program;
}

runtime::DType runtime_dtype(DataType dtype, const std::string& what) {
  if (dtype.is_void()) return runtime::DType::Void();
  runtime::DType out;
  switch (dtype.code()) {
    case DataType::Code::Int:
      out.code = runtime::DType::Code::Int;
      break;
    case DataType::Code::UInt:
      out.code = runtime::DType::Code::UInt;
      break;
    case DataType::Code::Float:
      out.code = runtime::DType::Code::Float;
      break;
    case DataType::Code::BFloat:
      out.code = runtime::DType::Code::BFloat;
      break;
    case DataType::Code::Handle:
      user_error() << what << ": a handle has no run-time data type";
  }
  out.bits = static_cast<uint8_t>(dtype.bits());
  out.lanes = static_cast<uint16_t>(dtype.lanes());
  return out;
}

}  // namespace relaxc::codegen
