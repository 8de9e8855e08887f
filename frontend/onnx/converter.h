// The contract between the ONNX importer (importer.cc) and the operator converters
// (one file per family of ONNX operators, each registering its converters in a
// ConverterTable). A converter turns one ONNX node into Relax bindings through the
// importer's BlockBuilder and returns one Value per node output.
//
// Values carry what the importer knows at import time besides the Relax expression:
// the contents of constants (initializers, Constant nodes, results folded because every
// input was known), and the elements of shape tensors (Shape of a tensor with symbolic
// dims and what Gather / Concat / Slice / Unsqueeze / arithmetic make of it). Converters
// of shape-taking operators (Reshape, Expand, ConstantOfShape, Range, Slice, Tile, Pad,
// Resize, ...) read those so that a model with a dynamic batch or sequence length becomes
// symbolic shapes, not data-dependent ones. An operand known only at run time becomes
// new shape variables (R.tensor_to_shape and R.match_cast: run_time_dims, shape_values.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/relax/block_builder.h"
#include "ir/relax/expr.h"
#include "ir/support/host_tensor.h"

namespace onnx {
class NodeProto;
}

// Operator call attributes are relaxc::Attrs (ir/support/attrs.h); the declarations below
// name them relax::Attrs, as the Relax operators' calls hold them.
namespace relaxc::relax {
using relaxc::Attrs;
}

namespace relaxc::onnx_import {

struct Value {
  // Always defined: a Relax expression with StructInfo (a tensor; a tuple only where an
  // ONNX output is a sequence, which the importer refuses today).
  relax::Expr expr;
  // The tensor's contents, when known at import time.
  std::optional<HostTensor> constant;
  // For a 1-D int64 tensor whose elements are known as integer expressions (possibly
  // symbolic: `n`, `n * 4`), those elements. Set by Shape and kept by the converters of
  // the operators that compute on shapes.
  std::optional<std::vector<relax::PrimExpr>> shape_elements;
};

class NodeContext {
 public:
  virtual ~NodeContext() = default;

  const onnx::NodeProto& node() const { return node_; }
  // The opset of the node's domain (the default domain "" or "ai.onnx").
  int64_t opset() const { return opset_; }

  // Inputs. ONNX omits an optional input by giving it the empty name, or by giving
  // fewer inputs; has_input is false for both.
  virtual size_t num_inputs() const = 0;
  virtual bool has_input(size_t i) const = 0;
  // The input's Value; an error naming the node and the input when it is absent.
  virtual const Value& input(size_t i) const = 0;
  const relax::Expr& tensor(size_t i) const { return input(i).expr; }
  // The input's contents, which the operator needs at import time (Reshape's shape
  // before opset 5 was an attribute, after it an input); an error naming the node and
  // the input when they are not known ("input 1 'shape' must be a constant or computed
  // from shapes").
  virtual const HostTensor& constant_input(size_t i, const std::string& what) const = 0;
  // A 1-D int64 input as integer expressions (from shape_elements or a constant); the
  // same error as constant_input when neither is known.
  virtual std::vector<relax::PrimExpr> shape_input(size_t i, const std::string& what) const = 0;

  // Attributes, with the default used when the node does not give the attribute. A
  // missing required attribute, or one of another type, is an error naming the node and
  // the attribute.
  virtual bool has_attr(const std::string& name) const = 0;
  virtual int64_t attr_int(const std::string& name, std::optional<int64_t> def = {}) const = 0;
  virtual double attr_float(const std::string& name, std::optional<double> def = {}) const = 0;
  virtual std::string attr_string(const std::string& name,
                                  std::optional<std::string> def = {}) const = 0;
  virtual std::vector<int64_t> attr_ints(const std::string& name,
                                         std::optional<std::vector<int64_t>> def = {}) const = 0;
  virtual std::vector<double> attr_floats(const std::string& name,
                                          std::optional<std::vector<double>> def = {}) const = 0;
  virtual std::vector<std::string> attr_strings(
      const std::string& name, std::optional<std::vector<std::string>> def = {}) const = 0;
  virtual HostTensor attr_tensor(const std::string& name) const = 0;

  // Building. emit_op binds a call of a registered Relax operator ("relax.add") with
  // its attributes and returns the bound variable; a shape or dtype error of the
  // operator is reported as an error of this node.
  virtual relax::BlockBuilder& builder() = 0;
  // The node's place, for the bindings made for it (the VM names it in run-time errors):
  // a line of the model's file of node labels (SourceFile::labels).
  virtual Span span() const = 0;
  virtual relax::Expr emit_op(const std::string& op_name, std::vector<relax::Expr> args,
                              relax::Attrs attrs = {},
                              std::vector<relax::StructInfo> sinfo_args = {}) = 0;
  // A constant Relax expression of `tensor`.
  virtual Value constant_value(HostTensor tensor) = 0;
  // A new shape variable for a dim known only at run time, named `base` made an
  // identifier (with a suffix when another shape variable has that name).
  virtual tir::Var fresh_dim(const std::string& base) = 0;

  // Errors, all of the form "NODE: message" where NODE names the node, its op type and
  // opset (`node 'Conv_3' (Conv, opset 13)`). `unsupported` is for what ONNX allows and
  // relaxc cannot express (the node-test runner counts those separately); `invalid`
  // for what the ONNX specification forbids.
  [[noreturn]] virtual void unsupported(const std::string& message) const = 0;
  [[noreturn]] virtual void invalid(const std::string& message) const = 0;

 protected:
  NodeContext(const onnx::NodeProto& node, int64_t opset) : node_(node), opset_(opset) {}

 private:
  const onnx::NodeProto& node_;
  int64_t opset_;
};

// One Value per node output, in order (an output the graph does not use may still be
// given; the importer ignores it).
using Converter = std::function<std::vector<Value>(NodeContext&)>;

// Converters by ONNX op type (default domain) and the first opset each handles; the
// importer picks the one with the largest since_version not above the model's opset.
class ConverterTable {
 public:
  void add(const std::string& op_type, int64_t since_version, Converter convert);
  // The converter for `op_type` at `opset`, or nullptr.
  const Converter* find(const std::string& op_type, int64_t opset) const;
  std::vector<std::string> op_types() const;

 private:
  std::map<std::string, std::map<int64_t, Converter>> table_;
};

// The families, one file each (ops_<family>.cc); converters.cc builds the table from
// them in this order.
void register_core_converters(ConverterTable& table);         // Constant, Identity, Dropout
void register_elementwise_converters(ConverterTable& table);  // math, activations, compare, logic, Cast, Clip, Where
void register_nn_converters(ConverterTable& table);           // Gemm, MatMul, Einsum, Conv, pooling, norms, Softmax
void register_reduce_converters(ConverterTable& table);       // Reduce*, ArgMax/ArgMin, TopK, CumSum
void register_shape_converters(ConverterTable& table);        // Shape, Size, Reshape, ..., Concat, Slice, Expand, Range
void register_index_converters(ConverterTable& table);        // Gather*, Scatter*, ReverseSequence, OneHot, Resize, DepthToSpace, Trilu
void register_data_dependent_converters(ConverterTable& table);  // NonZero, Compress, Unique
void register_loss_converters(ConverterTable& table);         // NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void register_rnn_converters(ConverterTable& table);          // RNN, GRU, LSTM
void register_signal_converters(ConverterTable& table);       // HannWindow, HammingWindow, BlackmanWindow

// Every family's converters.
const ConverterTable& converter_table();

}  // namespace relaxc::onnx_import
