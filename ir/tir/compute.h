// The compute builder: TensorIR PrimFuncs from tensor expressions (TVM's te idea).
//
//   ComputeBuilder b;
//   Tensor x = b.input("x", {n, 4}, DataType::Float(32));
//   Tensor y = b.compute("T_exp", x.shape(), x.dtype(),
//                        [&](const std::vector<Var>& i) { return exp(x(i)); });
//   PrimFunc f = b.build({y}, OpPattern::ElemWise).func;
//
// Each stage is one block in a perfect loop nest over its shape (spatial iterators,
// then the reduction's): a `reduce` stage has `T.init` and reduction iterators, so
// schedules see it as a reduction. Blocks list the regions they read and write
// (tir::complete_block_regions; reads under a guard cut to the buffer). The function takes the
// inputs, then the outputs (destination passing); other stages become buffers of the
// root block. Symbolic dimensions stay symbolic: a variable that is a dimension of a
// parameter's buffer is bound by it, any other becomes a trailing int64 scalar parameter
// (the call's tir_vars).
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/tir/stmt.h"

namespace relaxc::tir {

// How a PrimFunc's outputs depend on its inputs, for fusion (TVM's OpPatternKind and
// its numbering; the PrimFunc attribute "op_pattern").
enum class OpPattern : int {
  ElemWise = 0,         // out[i] = f(in[i]) on one shape
  Broadcast = 1,        // out[i] = f(in[g(i)]) where g drops or repeats axes
  Injective = 2,        // each output element a function of some input elements
  CommReduce = 3,       // a commutative reduction
  OutEWiseFusable = 4,  // matmul, conv: an elementwise epilogue may fuse into it
  Tuple = 7,
  Opaque = 8,
};
// "elemwise", "broadcast", ...
const char* op_pattern_name(OpPattern pattern);

// A tensor of a compute definition: an input (a parameter of the function) or a stage.
struct Tensor {
  Buffer buffer;

  // The element at `indices` (one per dimension).
  PrimExpr operator()(std::vector<PrimExpr> indices) const;
  PrimExpr operator()(const std::vector<Var>& indices) const;
  PrimExpr operator()(std::initializer_list<PrimExpr> indices) const;  // x({i[0], r[0]})
  const std::vector<PrimExpr>& shape() const { return buffer->shape; }
  DataType dtype() const { return buffer->dtype; }
  int ndim() const { return static_cast<int>(buffer->shape.size()); }
};

// On bool, Sum is "any" (or) and Prod "all" (and): booleans have no arithmetic.
enum class ReduceKind { Sum, Prod, Max, Min };
// The identity of a reduction (0, 1, the least or the greatest value of dtype).
PrimExpr reduce_identity(ReduceKind kind, DataType dtype);

// The value of `tensor` at `indices` where `condition` holds, else `otherwise`, without
// reading out of bounds where it does not (tir.if_then_else): padding, gathers.
PrimExpr load_if(const PrimExpr& condition, const Tensor& tensor, std::vector<PrimExpr> indices,
                 const PrimExpr& otherwise);

class ComputeBuilder {
 public:
  using SpatialBody = std::function<PrimExpr(const std::vector<Var>& i)>;
  using ReduceBody = std::function<PrimExpr(const std::vector<Var>& i, const std::vector<Var>& r)>;

  ComputeBuilder();

  // The caller's expression (a shape, a scalar) in the function's variables: what a
  // legalization compares with the shapes of the builder's tensors.
  PrimExpr import(const PrimExpr& expr);
  std::vector<PrimExpr> import(const std::vector<PrimExpr>& exprs);

  // A parameter of the function: a buffer of `shape` and `dtype`.
  Tensor input(const std::string& name, std::vector<PrimExpr> shape, DataType dtype);
  // out[i] = body(i) for every index i of `shape`.
  Tensor compute(const std::string& name, std::vector<PrimExpr> shape, DataType dtype,
                 const SpatialBody& body);
  // out[i] = the `kind` reduction of body(i, r) over every r in `reduce_extents`.
  Tensor reduce(const std::string& name, std::vector<PrimExpr> shape, DataType dtype,
                ReduceKind kind, std::vector<PrimExpr> reduce_extents, const ReduceBody& body);

  struct Result {
    PrimFunc func;
    // The variables of the inputs' and outputs' shapes (and of the bodies) that no
    // parameter buffer's dimension binds: the function's trailing scalar parameters,
    // in order. Given as the variables the builder was handed, not the function's own.
    std::vector<Var> scalar_params;
  };
  // The function computing `outputs` (stages of this builder), with the attribute
  // op_pattern = `pattern`. The function has fresh variables: the same builder may be
  // used for no other function.
  Result build(const std::vector<Tensor>& outputs, OpPattern pattern) const;

 private:
  struct Renaming;

  Tensor add_stage(const std::string& name, std::vector<PrimExpr> shape, DataType dtype,
                   std::optional<ReduceKind> kind, std::vector<PrimExpr> reduce_extents,
                   const ReduceBody& body);

  std::shared_ptr<Renaming> renaming_;
  std::vector<Buffer> inputs_;
  std::vector<Buffer> stages_;     // in definition order
  std::vector<Stmt> stage_nests_;  // the loop nest of each stage
};

}  // namespace relaxc::tir
