// The one list of IR node kinds. The NodeKind enum, kind dispatch (node_dispatch.h)
// and every generic algorithm over nodes are generated from these X-macros.
#pragma once

#include <cstdint>

// X(Kind, Type): Kind names the enum value, Type the node struct.
#define RELAXC_TIR_EXPR_NODES(X)      \
  X(TirVar, tir::VarNode)             \
  X(TirIntImm, tir::IntImmNode)       \
  X(TirFloatImm, tir::FloatImmNode)   \
  X(TirStringImm, tir::StringImmNode) \
  X(TirCast, tir::CastNode)           \
  X(TirAdd, tir::AddNode)             \
  X(TirSub, tir::SubNode)             \
  X(TirMul, tir::MulNode)             \
  X(TirDiv, tir::DivNode)             \
  X(TirMod, tir::ModNode)             \
  X(TirFloorDiv, tir::FloorDivNode)   \
  X(TirFloorMod, tir::FloorModNode)   \
  X(TirMin, tir::MinNode)             \
  X(TirMax, tir::MaxNode)             \
  X(TirEQ, tir::EQNode)               \
  X(TirNE, tir::NENode)               \
  X(TirLT, tir::LTNode)               \
  X(TirLE, tir::LENode)               \
  X(TirGT, tir::GTNode)               \
  X(TirGE, tir::GENode)               \
  X(TirAnd, tir::AndNode)             \
  X(TirOr, tir::OrNode)               \
  X(TirNot, tir::NotNode)             \
  X(TirSelect, tir::SelectNode)       \
  X(TirBufferLoad, tir::BufferLoadNode) \
  X(TirRamp, tir::RampNode)           \
  X(TirBroadcast, tir::BroadcastNode) \
  X(TirLet, tir::LetNode)             \
  X(TirCall, tir::CallNode)

#define RELAXC_TIR_STMT_NODES(X)          \
  X(TirBufferStore, tir::BufferStoreNode) \
  X(TirEvaluate, tir::EvaluateNode)       \
  X(TirLetStmt, tir::LetStmtNode)         \
  X(TirIfThenElse, tir::IfThenElseNode)   \
  X(TirFor, tir::ForNode)                 \
  X(TirWhile, tir::WhileNode)             \
  X(TirSeqStmt, tir::SeqStmtNode)         \
  X(TirAllocate, tir::AllocateNode)       \
  X(TirBlock, tir::BlockNode)             \
  X(TirBlockRealize, tir::BlockRealizeNode)

#define RELAXC_TIR_OTHER_NODES(X)                     \
  X(TirRange, tir::RangeNode)                         \
  X(TirIterVar, tir::IterVarNode)                     \
  X(TirBuffer, tir::BufferNode)                       \
  X(TirBufferRegion, tir::BufferRegionNode)           \
  X(TirMatchBufferRegion, tir::MatchBufferRegionNode) \
  X(TirPrimFunc, tir::PrimFuncNode)

#define RELAXC_STRUCT_INFO_NODES(X)                  \
  X(ObjectStructInfo, relax::ObjectStructInfoNode)   \
  X(PrimStructInfo, relax::PrimStructInfoNode)       \
  X(ShapeStructInfo, relax::ShapeStructInfoNode)     \
  X(TensorStructInfo, relax::TensorStructInfoNode)   \
  X(TupleStructInfo, relax::TupleStructInfoNode)     \
  X(FuncStructInfo, relax::FuncStructInfoNode)

#define RELAXC_RELAX_EXPR_NODES(X)              \
  X(RelaxConstant, relax::ConstantNode)         \
  X(RelaxVar, relax::VarNode)                   \
  X(RelaxDataflowVar, relax::DataflowVarNode)   \
  X(RelaxGlobalVar, relax::GlobalVarNode)       \
  X(RelaxTuple, relax::TupleNode)               \
  X(RelaxSeqExpr, relax::SeqExprNode)           \
  X(RelaxPrimValue, relax::PrimValueNode)       \
  X(RelaxStringImm, relax::StringImmNode)       \
  X(RelaxDataTypeImm, relax::DataTypeImmNode)   \
  X(RelaxFunction, relax::FunctionNode)         \
  X(RelaxIf, relax::IfNode)                     \
  X(RelaxExternFunc, relax::ExternFuncNode)     \
  X(RelaxCall, relax::CallNode)                 \
  X(RelaxShapeExpr, relax::ShapeExprNode)       \
  X(RelaxTupleGetItem, relax::TupleGetItemNode) \
  X(RelaxOp, relax::OpNode)

#define RELAXC_RELAX_OTHER_NODES(X)               \
  X(RelaxVarBinding, relax::VarBindingNode)       \
  X(RelaxMatchCast, relax::MatchCastNode)         \
  X(RelaxBindingBlock, relax::BindingBlockNode)   \
  X(RelaxDataflowBlock, relax::DataflowBlockNode) \
  X(IRModule, IRModuleNode)

#define RELAXC_ALL_NODES(X)     \
  RELAXC_TIR_EXPR_NODES(X)      \
  RELAXC_TIR_STMT_NODES(X)      \
  RELAXC_TIR_OTHER_NODES(X)     \
  RELAXC_STRUCT_INFO_NODES(X)   \
  RELAXC_RELAX_EXPR_NODES(X)    \
  RELAXC_RELAX_OTHER_NODES(X)

namespace relaxc {

#define RELAXC_KIND_ENUM(Kind, Type) Kind,
// Group markers (...End) close each group so that a base class can test a range.
enum class NodeKind : uint16_t {
  Invalid,
  RELAXC_TIR_EXPR_NODES(RELAXC_KIND_ENUM) TirExprEnd,
  RELAXC_TIR_STMT_NODES(RELAXC_KIND_ENUM) TirStmtEnd,
  RELAXC_TIR_OTHER_NODES(RELAXC_KIND_ENUM) TirOtherEnd,
  RELAXC_STRUCT_INFO_NODES(RELAXC_KIND_ENUM) StructInfoEnd,
  RELAXC_RELAX_EXPR_NODES(RELAXC_KIND_ENUM) RelaxExprEnd,
  RELAXC_RELAX_OTHER_NODES(RELAXC_KIND_ENUM) RelaxOtherEnd,
};
#undef RELAXC_KIND_ENUM

// The name of a kind, for internal error messages ("TirAdd").
const char* node_kind_name(NodeKind kind);

}  // namespace relaxc
