// The walk over a lowered kernel (ir/tir/lowered_func.h) that the GPU back ends share:
// which hook of the back end each statement and expression kind goes to, lets binding
// their variable, variables looked up, and the internal error for a kind the lowered
// kernel form does not have. A back end derives from KernelWalker<itself, its value>
// (its value carries a dtype and the back end's handle of the value) and implements the
// hooks that emit() and eval() call; what differs between back ends is only in them.
#pragma once
#include <unordered_map>

#include "ir/support/diagnostics.h"
#include "ir/tir/functor.h"
#include "ir/tir/lowered_func.h"

namespace relaxc::codegen {

template <typename Backend, typename Value>
class KernelWalker {
 protected:
  explicit KernelWalker(const tir::DeviceKernel& kernel) : kernel_(kernel) {}

  // Emits `stmt`: for, while, if, store, allocate and evaluate through the back end's
  // emit_* hook of that name; sequences and lets here.
  void emit(const tir::Stmt& stmt) {
    if (!stmt.defined()) return;
    NestingGuard guard(depth_, stmt.get());
    switch (stmt->kind()) {
      case NodeKind::TirSeqStmt:
        for (const tir::Stmt& s : stmt.as<tir::SeqStmtNode>()->seq) emit(s);
        return;
      case NodeKind::TirFor:
        return backend().emit_for(stmt.as<tir::ForNode>());
      case NodeKind::TirWhile:
        return backend().emit_while(stmt.as<tir::WhileNode>());
      case NodeKind::TirIfThenElse:
        return backend().emit_if(stmt.as<tir::IfThenElseNode>());
      case NodeKind::TirLetStmt: {
        const auto* let = stmt.as<tir::LetStmtNode>();
        vars_[let->var.get()] = eval(let->value);
        return emit(let->body);
      }
      case NodeKind::TirBufferStore:
        return backend().emit_store(stmt.as<tir::BufferStoreNode>());
      case NodeKind::TirAllocate:
        return backend().emit_allocate(stmt.as<tir::AllocateNode>());
      case NodeKind::TirEvaluate:
        return backend().emit_evaluate(stmt.as<tir::EvaluateNode>());
      default:
        RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "' holds a "
                             << node_kind_name(stmt->kind())
                             << ", which the lowered kernel form does not have";
    }
  }

  // The value of `expr`: constants, conversions, arithmetic, comparisons, negation,
  // selects, loads, ramps and calls through the back end's hooks; variables, lets and
  // broadcasts here.
  Value eval(const tir::PrimExpr& expr) {
    RELAXC_ICHECK(expr.defined()) << "kernel '" << kernel_.name << "': a missing expression";
    NestingGuard guard(depth_, expr.get());
    Backend& b = backend();
    switch (expr->kind()) {
      case NodeKind::TirVar: {
        auto it = vars_.find(expr.as<tir::VarNode>());
        RELAXC_ICHECK(it != vars_.end()) << "kernel '" << kernel_.name << "': variable "
                                         << expr.as<tir::VarNode>()->name << " is not defined";
        return it->second;
      }
      case NodeKind::TirIntImm:
        return b.eval_int_imm(expr.as<tir::IntImmNode>());
      case NodeKind::TirFloatImm:
        return b.eval_float_imm(expr.as<tir::FloatImmNode>());
      case NodeKind::TirCast:
        return b.convert(eval(expr.as<tir::CastNode>()->value), expr->dtype);
#define RELAXC_KERNEL_BINARY(Kind, Node) \
  case NodeKind::Kind:                   \
    return b.eval_binary(NodeKind::Kind, expr.as<tir::Node>()->a, expr.as<tir::Node>()->b);
        RELAXC_KERNEL_BINARY(TirAdd, AddNode)
        RELAXC_KERNEL_BINARY(TirSub, SubNode)
        RELAXC_KERNEL_BINARY(TirMul, MulNode)
        RELAXC_KERNEL_BINARY(TirDiv, DivNode)
        RELAXC_KERNEL_BINARY(TirMod, ModNode)
        RELAXC_KERNEL_BINARY(TirFloorDiv, FloorDivNode)
        RELAXC_KERNEL_BINARY(TirFloorMod, FloorModNode)
        RELAXC_KERNEL_BINARY(TirMin, MinNode)
        RELAXC_KERNEL_BINARY(TirMax, MaxNode)
        RELAXC_KERNEL_BINARY(TirAnd, AndNode)
        RELAXC_KERNEL_BINARY(TirOr, OrNode)
#undef RELAXC_KERNEL_BINARY
#define RELAXC_KERNEL_COMPARE(Kind, Node) \
  case NodeKind::Kind:                    \
    return b.eval_compare(NodeKind::Kind, expr.as<tir::Node>()->a, expr.as<tir::Node>()->b);
        RELAXC_KERNEL_COMPARE(TirEQ, EQNode)
        RELAXC_KERNEL_COMPARE(TirNE, NENode)
        RELAXC_KERNEL_COMPARE(TirLT, LTNode)
        RELAXC_KERNEL_COMPARE(TirLE, LENode)
        RELAXC_KERNEL_COMPARE(TirGT, GTNode)
        RELAXC_KERNEL_COMPARE(TirGE, GENode)
#undef RELAXC_KERNEL_COMPARE
      case NodeKind::TirNot:
        return b.eval_not(eval(expr.as<tir::NotNode>()->a));
      case NodeKind::TirSelect:
        return b.eval_select(expr.as<tir::SelectNode>());
      case NodeKind::TirBufferLoad:
        return b.eval_load(expr.as<tir::BufferLoadNode>());
      case NodeKind::TirRamp:
        return b.eval_ramp(expr.as<tir::RampNode>());
      case NodeKind::TirBroadcast: {
        const auto* node = expr.as<tir::BroadcastNode>();
        return b.broadcast(eval(node->value), node->lanes);
      }
      case NodeKind::TirLet: {
        const auto* let = expr.as<tir::LetNode>();
        vars_[let->var.get()] = eval(let->value);
        return eval(let->body);
      }
      case NodeKind::TirCall:
        return b.eval_call(expr.as<tir::CallNode>());
      default:
        break;
    }
    RELAXC_UNREACHABLE() << "kernel '" << kernel_.name << "': a " << node_kind_name(expr->kind())
                         << " where a value is expected";
  }

  const tir::DeviceKernel& kernel_;
  std::unordered_map<const tir::VarNode*, Value> vars_;

 private:
  Backend& backend() { return static_cast<Backend&>(*this); }

  int depth_ = 0;  // of the walk, for NestingGuard
};

}  // namespace relaxc::codegen
