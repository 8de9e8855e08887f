// TensorIR statements, buffers, blocks and PrimFunc.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/support/attrs.h"
#include "ir/tir/expr.h"

namespace relaxc::tir {

struct StmtNode : Object {
  Span span;
  static bool is_kind(NodeKind k) { return k > NodeKind::TirExprEnd && k < NodeKind::TirStmtEnd; }
};
using Stmt = Ref<StmtNode>;

// [min, min + extent).
struct RangeNode : Object {
  PrimExpr min, extent;
  RELAXC_NODE_KIND(TirRange)
  RELAXC_FIELDS(&RangeNode::min, &RangeNode::extent)
};
using Range = Ref<RangeNode>;

// A multi-dimensional array: `data` is the handle variable of its storage.
// Strides are empty for a compact row-major buffer. Scope is "global", "shared",
// "local" (or "global" for function parameters).
struct BufferNode : Object {
  std::string name;
  Var data;
  DataType dtype;
  std::vector<PrimExpr> shape;
  std::vector<PrimExpr> strides;
  PrimExpr elem_offset;  // null means 0
  std::string scope = "global";
  Span span;
  RELAXC_NODE_KIND(TirBuffer)
  RELAXC_FIELDS(&BufferNode::data, &BufferNode::dtype, &BufferNode::shape, &BufferNode::strides,
                &BufferNode::elem_offset, &BufferNode::scope)
};

enum class IterKind : uint8_t { Spatial, Reduce, Scan, Opaque };
const char* iter_kind_name(IterKind kind);  // "spatial", "reduce", "scan", "opaque"

// A block iteration variable over `dom`.
struct IterVarNode : Object {
  Var var;
  Range dom;
  IterKind kind = IterKind::Spatial;
  RELAXC_NODE_KIND(TirIterVar)
  RELAXC_FIELDS(&IterVarNode::var, &IterVarNode::dom, &IterVarNode::kind)
};
using IterVar = Ref<IterVarNode>;

struct BufferRegionNode : Object {
  Buffer buffer;
  std::vector<Range> region;
  RELAXC_NODE_KIND(TirBufferRegion)
  RELAXC_FIELDS(&BufferRegionNode::buffer, &BufferRegionNode::region)
};
using BufferRegion = Ref<BufferRegionNode>;

// `buffer` is a view of the region `source` (T.match_buffer inside a block).
struct MatchBufferRegionNode : Object {
  Buffer buffer;
  BufferRegion source;
  RELAXC_NODE_KIND(TirMatchBufferRegion)
  RELAXC_FIELDS(&MatchBufferRegionNode::buffer, &MatchBufferRegionNode::source)
};
using MatchBufferRegion = Ref<MatchBufferRegionNode>;

struct BufferStoreNode : StmtNode {
  Buffer buffer;
  PrimExpr value;
  std::vector<PrimExpr> indices;
  RELAXC_NODE_KIND(TirBufferStore)
  RELAXC_FIELDS(&BufferStoreNode::buffer, &BufferStoreNode::value, &BufferStoreNode::indices)
};

struct EvaluateNode : StmtNode {
  PrimExpr value;
  RELAXC_NODE_KIND(TirEvaluate)
  RELAXC_FIELDS(&EvaluateNode::value)
};

struct LetStmtNode : StmtNode {
  Var var;
  PrimExpr value;
  Stmt body;
  RELAXC_NODE_KIND(TirLetStmt)
  RELAXC_FIELDS(&LetStmtNode::var, &LetStmtNode::value, &LetStmtNode::body)
};

struct IfThenElseNode : StmtNode {
  PrimExpr condition;
  Stmt then_case;
  Stmt else_case;  // may be null
  RELAXC_NODE_KIND(TirIfThenElse)
  RELAXC_FIELDS(&IfThenElseNode::condition, &IfThenElseNode::then_case, &IfThenElseNode::else_case)
};

enum class ForKind : uint8_t { Serial, Parallel, Vectorized, Unrolled, ThreadBinding };
const char* for_kind_name(ForKind kind);  // "serial", "parallel", ...

// for loop_var in [min, min + extent). A ThreadBinding loop names its thread axis
// in thread_tag ("blockIdx.x", "threadIdx.y", ...).
struct ForNode : StmtNode {
  Var loop_var;
  PrimExpr min, extent;
  ForKind kind = ForKind::Serial;
  std::string thread_tag;
  Stmt body;
  Attrs annotations;
  RELAXC_NODE_KIND(TirFor)
  RELAXC_FIELDS(&ForNode::loop_var, &ForNode::min, &ForNode::extent, &ForNode::kind,
                &ForNode::thread_tag, &ForNode::body, &ForNode::annotations)
};
using For = Ref<ForNode>;

struct WhileNode : StmtNode {
  PrimExpr condition;
  Stmt body;
  RELAXC_NODE_KIND(TirWhile)
  RELAXC_FIELDS(&WhileNode::condition, &WhileNode::body)
};

struct SeqStmtNode : StmtNode {
  std::vector<Stmt> seq;
  RELAXC_NODE_KIND(TirSeqStmt)
  RELAXC_FIELDS(&SeqStmtNode::seq)
};

// Allocates storage for `buffer` (in its scope) for the duration of `body`. Appears
// after blocks are lowered; before that, blocks' alloc_buffers allocate.
struct AllocateNode : StmtNode {
  Buffer buffer;
  Stmt body;
  RELAXC_NODE_KIND(TirAllocate)
  RELAXC_FIELDS(&AllocateNode::buffer, &AllocateNode::body)
};

// A block: an isolated unit of computation over its iteration variables, with the
// regions it reads and writes declared, an optional reduction init, and the buffers
// it allocates.
struct BlockNode : StmtNode {
  std::string name;
  std::vector<IterVar> iter_vars;
  std::vector<BufferRegion> reads, writes;
  Stmt init;  // may be null
  Stmt body;
  std::vector<Buffer> alloc_buffers;
  std::vector<MatchBufferRegion> match_buffers;
  Attrs annotations;
  RELAXC_NODE_KIND(TirBlock)
  RELAXC_FIELDS(&BlockNode::name, &BlockNode::iter_vars, &BlockNode::reads, &BlockNode::writes,
                &BlockNode::init, &BlockNode::body, &BlockNode::alloc_buffers,
                &BlockNode::match_buffers, &BlockNode::annotations)
};
using Block = Ref<BlockNode>;

// Executes `block` with its iteration variables bound to `iter_values`, if predicate.
struct BlockRealizeNode : StmtNode {
  std::vector<PrimExpr> iter_values;
  PrimExpr predicate;
  Block block;
  RELAXC_NODE_KIND(TirBlockRealize)
  RELAXC_FIELDS(&BlockRealizeNode::iter_values, &BlockRealizeNode::predicate,
                &BlockRealizeNode::block)
};
using BlockRealize = Ref<BlockRealizeNode>;

// A TensorIR function. Parameters are scalars or handles; buffer_map gives the
// buffer that each handle parameter is viewed as (T.match_buffer / T.Buffer).
struct PrimFuncNode : Object {
  std::vector<Var> params;
  std::vector<std::pair<Var, Buffer>> buffer_map;
  Stmt body;
  Attrs attrs;
  Span span;
  RELAXC_NODE_KIND(TirPrimFunc)
  RELAXC_FIELDS(&PrimFuncNode::params, &PrimFuncNode::buffer_map, &PrimFuncNode::body,
                &PrimFuncNode::attrs)

  // The buffer bound to parameter `param`, or null.
  Buffer buffer_of(const Var& param) const;
};
using PrimFunc = Ref<PrimFuncNode>;

// --- Constructors.
Range range(PrimExpr min, PrimExpr extent);
// A buffer whose data is a fresh handle var named after it.
Buffer buffer(std::string name, DataType dtype, std::vector<PrimExpr> shape,
              std::string scope = "global", Span span = {});
Stmt buffer_store(Buffer buffer, PrimExpr value, std::vector<PrimExpr> indices, Span span = {});
Stmt evaluate(PrimExpr value, Span span = {});
Stmt let_stmt(Var var, PrimExpr value, Stmt body, Span span = {});
Stmt if_then_else(PrimExpr condition, Stmt then_case, Stmt else_case = {}, Span span = {});
Stmt for_loop(Var loop_var, PrimExpr min, PrimExpr extent, ForKind kind, Stmt body,
              std::string thread_tag = {}, Attrs annotations = {}, Span span = {});
Stmt while_loop(PrimExpr condition, Stmt body, Span span = {});
// One statement if `seq` has one, else a SeqStmt (nested SeqStmts are flattened).
Stmt seq_stmt(std::vector<Stmt> seq, Span span = {});
Stmt allocate(Buffer buffer, Stmt body, Span span = {});
BlockRealize block_realize(std::vector<PrimExpr> iter_values, PrimExpr predicate, Block block,
                           Span span = {});

}  // namespace relaxc::tir
