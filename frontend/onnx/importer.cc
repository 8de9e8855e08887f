// The ONNX importer. The model is parsed and checked by the ONNX library; the graph's
// inputs become the parameters of `main` (dim_param dims shared shape variables), its
// initializers constants, and each node, in the graph's order, the bindings its
// converter emits into one dataflow block; the graph's outputs are the result.
#include "frontend/onnx/importer.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/shape_values.h"
#include "frontend/onnx/tensor_proto.h"
#include "ir/relax/block_builder.h"
#include "ir/relax/well_formed.h"
#include "ir/support/diagnostics.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"
#include "runtime/input_file.h"

namespace relaxc::onnx_import {
namespace {

using relax::Expr;
using relax::PrimExpr;

// The oldest opset of the default domain that the converters handle; a model of an older
// opset is first updated to it by the ONNX library's version converter.
constexpr int64_t kMinOpset = 7;

int64_t max_known_opset() {
  return onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
      .Map()
      .at(onnx::ONNX_DOMAIN)
      .second;
}

bool is_default_domain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

// `name` as an identifier, for Relax variable and shape variable names: other
// characters become '_', and a leading digit gets a '_' before it.
std::string identifier(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0) out = "_" + out;
  return out;
}

// `text` with each run of line breaks replaced by one space (the checker's messages
// spread over several lines).
std::string one_line(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != '\n') {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string message_of(const UserError& e) {
  std::string text;
  for (const Diagnostic& d : e.diagnostics()) text += (text.empty() ? "" : "; ") + d.message;
  return text;
}

// An error the importer raised, already naming the model and the node; other user errors
// raised while a node converts (the block builder's) get the node's name put before them.
class ImportError : public UserError {
 public:
  explicit ImportError(std::string message) : UserError(Span{}, std::move(message)) {}
};

class GraphImporter;

class ImportNodeContext final : public NodeContext {
 public:
  ImportNodeContext(GraphImporter& importer, const onnx::NodeProto& node, int64_t opset,
                    std::string label, Span span)
      : NodeContext(node, opset), importer_(importer), label_(std::move(label)), span_(span) {}

  size_t num_inputs() const override { return static_cast<size_t>(node().input_size()); }
  bool has_input(size_t i) const override {
    return i < num_inputs() && !node().input(static_cast<int>(i)).empty();
  }
  const Value& input(size_t i) const override;
  const HostTensor& constant_input(size_t i, const std::string& what) const override;
  std::vector<PrimExpr> shape_input(size_t i, const std::string& what) const override;

  bool has_attr(const std::string& name) const override { return find_attr(name) != nullptr; }
  int64_t attr_int(const std::string& name, std::optional<int64_t> def) const override;
  double attr_float(const std::string& name, std::optional<double> def) const override;
  std::string attr_string(const std::string& name, std::optional<std::string> def) const override;
  std::vector<int64_t> attr_ints(const std::string& name,
                                 std::optional<std::vector<int64_t>> def) const override;
  std::vector<double> attr_floats(const std::string& name,
                                  std::optional<std::vector<double>> def) const override;
  std::vector<std::string> attr_strings(const std::string& name,
                                        std::optional<std::vector<std::string>> def) const override;
  HostTensor attr_tensor(const std::string& name) const override;

  relax::BlockBuilder& builder() override;
  Span span() const override { return span_; }
  Expr emit_op(const std::string& op_name, std::vector<Expr> args, relax::Attrs attrs,
               std::vector<relax::StructInfo> sinfo_args) override;
  Value constant_value(HostTensor tensor) override {
    Expr expr = relax::make_constant(tensor);
    return Value{std::move(expr), std::move(tensor), std::nullopt};
  }
  tir::Var fresh_dim(const std::string& base) override;

  [[noreturn]] void unsupported(const std::string& message) const override {
    fail("unsupported: " + message);
  }
  [[noreturn]] void invalid(const std::string& message) const override {
    fail("invalid: " + message);
  }
  [[noreturn]] void fail(const std::string& message) const;

 private:
  const onnx::AttributeProto* find_attr(const std::string& name) const {
    for (const onnx::AttributeProto& attr : node().attribute()) {
      if (attr.name() == name) return &attr;
    }
    return nullptr;
  }
  // The attribute `name` of `type`; nullptr when absent and `has_default`.
  const onnx::AttributeProto* typed_attr(const std::string& name,
                                         onnx::AttributeProto::AttributeType type,
                                         bool has_default) const;
  std::string input_text(size_t i) const {
    return "input " + std::to_string(i) +
           (i < num_inputs() ? " '" + node().input(static_cast<int>(i)) + "'" : "");
  }

  GraphImporter& importer_;
  std::string label_;  // "node 'conv1' (Conv, opset 13)", "(Relu, opset 7 updated from 6)"
  Span span_;
};

class GraphImporter {
 public:
  // `opset` is the one the converters see: `model_opset` or, for a model of an opset
  // before kMinOpset, kMinOpset after the version converter.
  GraphImporter(const onnx::ModelProto& model, std::string name, int64_t opset, int64_t model_opset)
      : graph_(model.graph()), name_(std::move(name)), opset_(opset), model_opset_(model_opset) {}

  IRModule run();

  [[noreturn]] void fail(const std::string& message) const {
    throw ImportError(name_ + ": " + message);
  }
  // A name not given to another shape variable yet: `base`, base_1, base_2, ...
  std::string fresh_dim_name(const std::string& base);
  relax::BlockBuilder& builder() { return builder_; }
  const Value* find(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }

 private:
  std::vector<relax::Var> import_inputs();
  relax::StructInfo input_struct_info(const onnx::ValueInfoProto& input);
  void import_initializers();
  void import_node(const onnx::NodeProto& node, size_t index);
  // "node 'conv1'", or "node #4" for a node without a name.
  static std::string node_name(const onnx::NodeProto& node, size_t index);
  // "node 'conv1' (Conv, opset 13)", "node #4 (Relu, opset 7 updated from 6)".
  std::string node_label(const onnx::NodeProto& node, size_t index) const;
  // A graph output's declared element type, rank and constant dims against what the
  // converters computed: a difference is a converter's mistake or a wrong model.
  void check_declared_type(const onnx::ValueInfoProto& output,
                           const relax::TensorStructInfoNode& sinfo) const;

  const onnx::GraphProto& graph_;
  std::string name_;
  int64_t opset_;
  int64_t model_opset_;
  relax::BlockBuilder builder_;
  // The model's nodes' labels, line k + 1 for node k: the file of their spans.
  const SourceFile* node_labels_ = nullptr;
  std::map<std::string, Value> values_;         // by ONNX value name
  std::map<std::string, tir::Var> dim_params_;  // by dim_param
  std::set<std::string> dim_names_;             // of every shape variable made
};

// ---------------------------------------------------------------- ImportNodeContext

void ImportNodeContext::fail(const std::string& message) const {
  importer_.fail(label_ + ": " + message);
}

const Value& ImportNodeContext::input(size_t i) const {
  if (!has_input(i)) invalid(input_text(i) + " is missing");
  const Value* value = importer_.find(node().input(static_cast<int>(i)));
  if (value == nullptr) invalid(input_text(i) + " is not computed before the node");
  return *value;
}

const HostTensor& ImportNodeContext::constant_input(size_t i, const std::string& what) const {
  const Value& value = input(i);
  if (!value.constant) {
    unsupported("input " + std::to_string(i) + " '" + what +
                "' must be known when the model is imported (a constant, or computed from "
                "constants and shapes)");
  }
  return *value.constant;
}

std::vector<PrimExpr> ImportNodeContext::shape_input(size_t i, const std::string& what) const {
  const Value& value = input(i);
  if (value.shape_elements) return *value.shape_elements;
  const HostTensor& tensor = constant_input(i, what);
  if (tensor.shape.size() != 1 || !tensor.dtype.is_integer()) {
    invalid("input " + std::to_string(i) + " '" + what + "' must be a 1-D integer tensor, got " +
            tensor.dtype.str() + " of " + std::to_string(tensor.shape.size()) + " dimensions");
  }
  std::vector<PrimExpr> elements;
  for (int64_t k = 0; k < tensor.num_elements(); ++k) {
    elements.push_back(tir::int_imm(DataType::Int(64), tensor.element_as_int(k)));
  }
  return elements;
}

const onnx::AttributeProto* ImportNodeContext::typed_attr(const std::string& name,
                                                          onnx::AttributeProto::AttributeType type,
                                                          bool has_default) const {
  const onnx::AttributeProto* attr = find_attr(name);
  if (attr == nullptr) {
    if (has_default) return nullptr;
    invalid("attribute '" + name + "' is required");
  }
  if (attr->type() != type) {
    invalid("attribute '" + name + "' must be of type " +
            onnx::AttributeProto::AttributeType_Name(type) + ", got " +
            onnx::AttributeProto::AttributeType_Name(attr->type()));
  }
  return attr;
}

int64_t ImportNodeContext::attr_int(const std::string& name, std::optional<int64_t> def) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::INT, def.has_value());
  return attr == nullptr ? *def : attr->i();
}

double ImportNodeContext::attr_float(const std::string& name, std::optional<double> def) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::FLOAT, def.has_value());
  return attr == nullptr ? *def : attr->f();
}

std::string ImportNodeContext::attr_string(const std::string& name,
                                           std::optional<std::string> def) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::STRING, def.has_value());
  return attr == nullptr ? *def : attr->s();
}

std::vector<int64_t> ImportNodeContext::attr_ints(const std::string& name,
                                                  std::optional<std::vector<int64_t>> def) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::INTS, def.has_value());
  if (attr == nullptr) return *def;
  return {attr->ints().begin(), attr->ints().end()};
}

std::vector<double> ImportNodeContext::attr_floats(const std::string& name,
                                                   std::optional<std::vector<double>> def) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::FLOATS, def.has_value());
  if (attr == nullptr) return *def;
  return {attr->floats().begin(), attr->floats().end()};
}

std::vector<std::string> ImportNodeContext::attr_strings(
    const std::string& name, std::optional<std::vector<std::string>> def) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::STRINGS, def.has_value());
  if (attr == nullptr) return *def;
  return {attr->strings().begin(), attr->strings().end()};
}

HostTensor ImportNodeContext::attr_tensor(const std::string& name) const {
  const auto* attr = typed_attr(name, onnx::AttributeProto::TENSOR, false);
  try {
    return host_tensor_of(attr->t());
  } catch (const TensorProtoError& e) {
    std::string message = "attribute '" + name + "': the tensor " + e.message;
    if (e.unsupported) unsupported(message);
    invalid(message);
  }
}

relax::BlockBuilder& ImportNodeContext::builder() { return importer_.builder(); }

tir::Var ImportNodeContext::fresh_dim(const std::string& base) {
  return tir::var(importer_.fresh_dim_name(identifier(base)));
}

Expr ImportNodeContext::emit_op(const std::string& op_name, std::vector<Expr> args,
                                relax::Attrs attrs, std::vector<relax::StructInfo> sinfo_args) {
  relax::BlockBuilder& bb = builder();
  // Bindings are named after the node's first output (the printer makes them unique).
  std::string hint = node().output_size() > 0 ? identifier(node().output(0)) : "v";
  try {
    Expr call =
        bb.call_op(op_name, std::move(args), std::move(sinfo_args), std::move(attrs), span_);
    return bb.emit(call, hint, relax::VarKind::DataflowVar, {}, span_);
  } catch (const ImportError&) {
    throw;
  } catch (const UserError& e) {
    fail(message_of(e));
  }
}

// ---------------------------------------------------------------- GraphImporter

std::string GraphImporter::fresh_dim_name(const std::string& base) {
  std::string name = base;
  for (int k = 1; dim_names_.contains(name); ++k) name = base + "_" + std::to_string(k);
  dim_names_.insert(name);
  return name;
}

relax::StructInfo GraphImporter::input_struct_info(const onnx::ValueInfoProto& input) {
  const std::string what = "graph input '" + input.name() + "'";
  if (!input.type().has_tensor_type()) {
    fail(
        what +
        ": unsupported: not a tensor; sequence, map, optional and sparse inputs are not supported");
  }
  const onnx::TypeProto::Tensor& type = input.type().tensor_type();
  std::optional<DataType> dtype = dtype_of(type.elem_type());
  if (!dtype) {
    fail(what + ": unsupported: element type " + onnx_type_name(type.elem_type()) +
         ", which relaxc has no tensors of");
  }
  if (!type.has_shape()) return relax::tensor_sinfo_ndim(-1, *dtype);
  std::vector<PrimExpr> dims;
  for (int axis = 0; axis < type.shape().dim_size(); ++axis) {
    const onnx::TensorShapeProto::Dimension& dim = type.shape().dim(axis);
    if (dim.has_dim_value()) {
      if (dim.dim_value() < 0) {
        fail(what + " has a negative dimension " + std::to_string(dim.dim_value()) + " at axis " +
             std::to_string(axis));
      }
      dims.push_back(tir::int_imm(DataType::Int(64), dim.dim_value()));
    } else if (dim.has_dim_param() && !dim.dim_param().empty()) {
      // One shape variable per dim_param: inputs that name `batch` share it, and a run
      // checks that their sizes agree.
      auto [it, added] = dim_params_.emplace(dim.dim_param(), tir::Var());
      if (added) it->second = tir::var(fresh_dim_name(identifier(dim.dim_param())));
      dims.push_back(it->second);
    } else {
      dims.push_back(
          tir::var(fresh_dim_name(identifier(input.name()) + "_dim" + std::to_string(axis))));
    }
  }
  return relax::tensor_sinfo(std::move(dims), *dtype);
}

std::vector<relax::Var> GraphImporter::import_inputs() {
  std::set<std::string> initializers;
  for (const onnx::TensorProto& init : graph_.initializer()) initializers.insert(init.name());
  std::vector<relax::Var> params;
  for (const onnx::ValueInfoProto& input : graph_.input()) {
    // An input with an initializer is a weight with a default: relaxc keeps the default.
    if (initializers.contains(input.name())) continue;
    relax::Var param = relax::make_var(identifier(input.name()), input_struct_info(input));
    values_[input.name()] = Value{param, std::nullopt, std::nullopt};
    params.push_back(param);
  }
  return params;
}

void GraphImporter::import_initializers() {
  if (graph_.sparse_initializer_size() > 0) {
    fail("sparse initializer '" + graph_.sparse_initializer(0).values().name() +
         "': sparse tensors are not supported");
  }
  for (const onnx::TensorProto& init : graph_.initializer()) {
    try {
      HostTensor tensor = host_tensor_of(init);
      Expr expr = relax::make_constant(tensor);
      values_[init.name()] = Value{std::move(expr), std::move(tensor), std::nullopt};
    } catch (const TensorProtoError& e) {
      fail("initializer '" + init.name() + "': " + (e.unsupported ? "unsupported: " : "") +
           "the tensor " + e.message);
    }
  }
}

void GraphImporter::check_declared_type(const onnx::ValueInfoProto& output,
                                        const relax::TensorStructInfoNode& sinfo) const {
  if (!output.type().has_tensor_type()) return;
  const onnx::TypeProto::Tensor& declared = output.type().tensor_type();
  std::optional<DataType> dtype = dtype_of(declared.elem_type());
  if (dtype && !sinfo.dtype.is_void() && *dtype != sinfo.dtype) {
    fail("graph output '" + output.name() + "' is declared " +
         onnx_type_name(declared.elem_type()) + " but computed as " + sinfo.dtype.str());
  }
  if (declared.has_shape() && sinfo.ndim >= 0 && declared.shape().dim_size() != sinfo.ndim) {
    fail("graph output '" + output.name() + "' is declared of rank " +
         std::to_string(declared.shape().dim_size()) + " but computed of rank " +
         std::to_string(sinfo.ndim));
  }
  const std::vector<PrimExpr>* dims = sinfo.shape_values();
  if (!declared.has_shape() || dims == nullptr) return;
  for (int axis = 0; axis < declared.shape().dim_size(); ++axis) {
    const auto* computed = (*dims)[static_cast<size_t>(axis)].as<tir::IntImmNode>();
    const onnx::TensorShapeProto::Dimension& dim = declared.shape().dim(axis);
    if (computed != nullptr && dim.has_dim_value() && dim.dim_value() != computed->value) {
      fail("graph output '" + output.name() + "' is declared with dimension " +
           std::to_string(axis) + " of " + std::to_string(dim.dim_value()) + " but computed with " +
           std::to_string(computed->value));
    }
  }
}

std::string GraphImporter::node_name(const onnx::NodeProto& node, size_t index) {
  return node.name().empty() ? "node #" + std::to_string(index) : "node '" + node.name() + "'";
}

std::string GraphImporter::node_label(const onnx::NodeProto& node, size_t index) const {
  return node_name(node, index) + " (" + node.op_type() + ", opset " + std::to_string(opset_) +
         (model_opset_ != opset_ ? " updated from " + std::to_string(model_opset_) : "") + ")";
}

void GraphImporter::import_node(const onnx::NodeProto& node, size_t index) {
  if (!is_default_domain(node.domain())) {
    fail(node_name(node, index) + " (" + node.op_type() + ", domain '" + node.domain() +
         "'): unsupported: operators of domain '" + node.domain() +
         "'; relaxc imports the default ONNX domain only");
  }
  std::string label = node_label(node, index);
  const Converter* convert = converter_table().find(node.op_type(), opset_);
  ImportNodeContext ctx(*this, node, opset_, label,
                        Span{node_labels_, static_cast<uint32_t>(index + 1), 1});
  std::vector<Value> outputs;
  try {
    // What the graph computes on shapes (Shape, Gather, Concat, arithmetic, ...) is
    // computed here first, so that the shapes it makes stay symbolic (shape_values.h).
    std::optional<std::vector<Value>> folded = fold_on_shapes(ctx);
    if (!folded && convert == nullptr) {
      fail(label + ": unsupported: no converter for " + node.op_type() + " at opset " +
           std::to_string(opset_));
    }
    outputs = folded ? std::move(*folded) : (*convert)(ctx);
  } catch (const ImportError&) {
    throw;
  } catch (const UserError& e) {
    ctx.fail(message_of(e));
  }
  for (int i = 0; i < node.output_size(); ++i) {
    const std::string& name = node.output(i);
    if (name.empty()) continue;
    if (static_cast<size_t>(i) >= outputs.size()) {
      ctx.unsupported("output " + std::to_string(i) + " '" + name + "' is not computed");
    }
    RELAXC_ICHECK(outputs[i].expr.defined()) << label << ": output " << i << " has no expression";
    values_[name] = std::move(outputs[i]);
  }
}

IRModule GraphImporter::run() {
  std::vector<relax::Var> params = import_inputs();
  import_initializers();
  if (graph_.output_size() == 0) fail("the graph has no outputs");
  std::string labels;
  for (int i = 0; i < graph_.node_size(); ++i) {
    std::string label = node_label(graph_.node(i), static_cast<size_t>(i));
    std::replace_if(
        label.begin(), label.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    labels += label + "\n";
  }
  node_labels_ = SourceFile::add(name_, std::move(labels), /*labels=*/true);
  builder_.begin_scope(params);
  builder_.begin_block(/*dataflow=*/true);
  for (int i = 0; i < graph_.node_size(); ++i) import_node(graph_.node(i), static_cast<size_t>(i));
  std::vector<Expr> results;
  std::vector<AttrValue> names;
  for (const onnx::ValueInfoProto& output : graph_.output()) {
    const Value* value = find(output.name());
    if (value == nullptr) fail("graph output '" + output.name() + "' is computed by no node");
    const auto* sinfo = value->expr->struct_info.as<relax::TensorStructInfoNode>();
    if (sinfo == nullptr) fail("graph output '" + output.name() + "' is not a tensor");
    check_declared_type(output, *sinfo);
    results.push_back(builder_.emit(value->expr, identifier(output.name())));
    names.push_back(AttrValue::string(output.name()));
  }
  builder_.end_block();
  Expr body = results.size() == 1 ? results[0] : builder_.tuple(results);
  Expr seq = builder_.end_scope(body);
  Attrs attrs({{"global_symbol", AttrValue::string("main")},
               {kOutputNamesAttr, AttrValue::list_of(std::move(names))}});
  relax::Function main = builder_.function(params, seq, {}, true, attrs);
  IRModule module = make_module({{relax::make_global_var("main"), main}});
  // The converters build through the normalizer; what it cannot see is a converter's bug.
  DiagnosticList diagnostics = relax::check_well_formed(module);
  RELAXC_ICHECK(!diagnostics.has_errors()) << "the imported module is not well formed:\n"
                                           << diagnostics.render();
  return module;
}

[[noreturn]] void model_error(const std::string& name, const std::string& message) {
  throw ImportError(name + ": " + message);
}

// The opset of the default domain that the model imports, if it imports one.
std::optional<int64_t> default_opset(const onnx::ModelProto& model) {
  std::optional<int64_t> opset;
  for (const onnx::OperatorSetIdProto& import : model.opset_import()) {
    if (is_default_domain(import.domain())) opset = import.version();
  }
  return opset;
}

// The rank of each value whose type the (shape-inferred) graph declares.
std::map<std::string, int> declared_ranks(const onnx::GraphProto& graph) {
  std::map<std::string, int> ranks;
  auto add = [&](const onnx::ValueInfoProto& info) {
    if (info.type().has_tensor_type() && info.type().tensor_type().has_shape()) {
      ranks[info.name()] = info.type().tensor_type().shape().dim_size();
    }
  };
  for (const onnx::ValueInfoProto& info : graph.input()) add(info);
  for (const onnx::ValueInfoProto& info : graph.value_info()) add(info);
  for (const onnx::ValueInfoProto& info : graph.output()) add(info);
  for (const onnx::TensorProto& init : graph.initializer()) ranks[init.name()] = init.dims_size();
  return ranks;
}

bool is_conv_or_pool(const std::string& op) {
  return op == "Conv" || op == "MaxPool" || op == "AveragePool" || op == "LpPool";
}

// What is wrong with the ranks of a Conv or pooling node, if anything: input 0 (X) of
// rank 3 or more, a Conv's input 1 (W) of X's rank, and per-spatial-dim attributes of
// as many entries as X has spatial dims (pads twice as many). A rank or an attribute
// not known is not checked. `input_name` names input 0 or 1 in the message.
std::optional<std::string> conv_pool_rank_problem(
    const std::string& op, std::optional<int> x_rank, std::optional<int> w_rank,
    const std::function<std::optional<int>(const std::string&)>& attr_size,
    const std::function<std::string(int)>& input_name) {
  if (!x_rank) return std::nullopt;
  if (*x_rank < 3) {
    return "input 0 " + input_name(0) + " has rank " + std::to_string(*x_rank) +
           "; it must be (N, C, D1, ...), of rank 3 or more";
  }
  if (op == "Conv" && w_rank && *w_rank != *x_rank) {
    return "input 1 " + input_name(1) + " has rank " + std::to_string(*w_rank) +
           "; it must have the rank of input 0 " + input_name(0) + ", " + std::to_string(*x_rank);
  }
  int spatial = *x_rank - 2;
  for (const char* attr : {"kernel_shape", "strides", "dilations", "pads"}) {
    int expected = std::string(attr) == "pads" ? 2 * spatial : spatial;
    std::optional<int> size = attr_size(attr);
    if (size && *size != expected) {
      return "attribute '" + std::string(attr) + "' has " + std::to_string(*size) +
             " entries; input 0 " + input_name(0) + " has " + std::to_string(spatial) +
             " spatial dims, so it needs " + std::to_string(expected);
    }
  }
  return std::nullopt;
}

// libonnx 1.12's shape inference of the old Conv and pooling operators indexes the
// input's dims by the kernel's without checking the ranks (it segfaulted on a rank-2
// input of a Conv, found by fuzz_onnx; the rank may be one that inference itself gives
// an intermediate value). This registry hands InferShapes the library's schemas, those
// operators' with an inference function that refuses wrong ranks before the library's
// runs; the importer then names the node from the inferred ranks.
class ConvPoolRankCheckingRegistry final : public onnx::ISchemaRegistry {
 public:
  const onnx::OpSchema* GetSchema(const std::string& key, const int max_inclusive_version,
                                  const std::string& domain) const override {
    const onnx::OpSchema* schema =
        onnx::OpSchemaRegistry::Instance()->GetSchema(key, max_inclusive_version, domain);
    if (schema == nullptr || !is_default_domain(domain) || !is_conv_or_pool(key)) return schema;
    auto [it, inserted] = checked_.try_emplace(schema, *schema);
    if (inserted) {
      onnx::InferenceFunction library = schema->GetTypeAndShapeInferenceFunction();
      it->second.TypeAndShapeInferenceFunction([this, key, library](onnx::InferenceContext& ctx) {
        auto rank_of = [&](size_t input) -> std::optional<int> {
          if (input >= ctx.getNumInputs()) return std::nullopt;
          const onnx::TypeProto* type = ctx.getInputType(input);
          if (type == nullptr || !type->has_tensor_type() || !type->tensor_type().has_shape()) {
            return std::nullopt;
          }
          return type->tensor_type().shape().dim_size();
        };
        auto attr_size = [&](const std::string& attr_name) -> std::optional<int> {
          const onnx::AttributeProto* attr = ctx.getAttribute(attr_name);
          if (attr == nullptr) return std::nullopt;
          return attr->ints_size();
        };
        if (std::optional<std::string> problem = conv_pool_rank_problem(
                key, rank_of(0), rank_of(1), attr_size,
                [](int input) { return std::string(input == 0 ? "X" : "W"); })) {
          if (!refusal_) refusal_ = key + ": " + *problem;
          fail_shape_inference(*problem);
        }
        if (library) library(ctx);
      });
    }
    return &it->second;
  }
  // Why inference refused the first node it refused, if it refused one.
  const std::optional<std::string>& refusal() const { return refusal_; }

 private:
  mutable std::map<const onnx::OpSchema*, onnx::OpSchema> checked_;
  mutable std::optional<std::string> refusal_;
};

// A checked model of an opset before kMinOpset, converted to kMinOpset by the ONNX
// library's version converter (which rewrites, say, Add's 'broadcast' attribute into an
// Unsqueeze); an error when it has no adapter for one of the model's operators.
onnx::ModelProto updated_model(const onnx::ModelProto& model, const std::string& name,
                               int64_t opset) {
  auto fail = [&](const std::string& why) {
    model_error(name, "unsupported: opset " + std::to_string(opset) +
                          " of the default ONNX domain: the ONNX version converter cannot "
                          "update the model to opset " +
                          std::to_string(kMinOpset) + ", the oldest relaxc imports: " + why);
  };
  // The converter's graph import dereferences what the checker lets through at these
  // opsets: a graph output that nothing defines (it crashed on one, found by fuzz_onnx),
  // and subgraphs, which it imports with the same code.
  const onnx::GraphProto& graph = model.graph();
  std::set<std::string> defined;
  for (const onnx::ValueInfoProto& input : graph.input()) defined.insert(input.name());
  for (const onnx::TensorProto& init : graph.initializer()) defined.insert(init.name());
  for (const onnx::NodeProto& node : graph.node()) {
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (attr.has_g() || attr.graphs_size() > 0) {
        fail("node '" + node.name() + "' (" + node.op_type() + ") has a subgraph (attribute '" +
             attr.name() + "'), which relaxc does not update");
      }
    }
    defined.insert(node.output().begin(), node.output().end());
  }
  for (const onnx::ValueInfoProto& output : graph.output()) {
    if (!defined.contains(output.name())) {
      model_error(name, "graph output '" + output.name() + "' is computed by no node");
    }
  }
  // The adapters read the ranks of the values, which old models rarely declare.
  onnx::ModelProto inferred = model;
  const ConvPoolRankCheckingRegistry registry;
  try {
    onnx::shape_inference::InferShapes(inferred, &registry);
  } catch (const std::exception& e) {
    // Shape inference throws where the declared shapes contradict the operators'.
    model_error(name, "invalid: ONNX's shape inference rejects the model: " + one_line(e.what()));
  }
  // The registry kept the library from the Conv and pooling nodes of wrong ranks; the
  // ranks that the model declares or inference gives name the first of them.
  std::map<std::string, int> inferred_ranks = declared_ranks(inferred.graph());
  for (int i = 0; i < inferred.graph().node_size(); ++i) {
    const onnx::NodeProto& node = inferred.graph().node(i);
    if (!is_conv_or_pool(node.op_type())) continue;
    auto rank_of = [&](int input) -> std::optional<int> {
      if (input >= node.input_size()) return std::nullopt;
      auto it = inferred_ranks.find(node.input(input));
      if (it == inferred_ranks.end()) return std::nullopt;
      return it->second;
    };
    auto attr_size = [&](const std::string& attr_name) -> std::optional<int> {
      for (const onnx::AttributeProto& attr : node.attribute()) {
        if (attr.name() == attr_name) return attr.ints_size();
      }
      return std::nullopt;
    };
    std::optional<std::string> problem =
        conv_pool_rank_problem(node.op_type(), rank_of(0), rank_of(1), attr_size,
                               [&](int input) { return "'" + node.input(input) + "'"; });
    if (problem) {
      model_error(
          name, "invalid: node " +
                    (node.name().empty() ? "#" + std::to_string(i) : "'" + node.name() + "'") +
                    " (" + node.op_type() + ", opset " + std::to_string(opset) + "): " + *problem);
    }
  }
  if (registry.refusal()) {
    model_error(name, "invalid: ONNX's shape inference refused a Conv or pooling node: " +
                          *registry.refusal());
  }
  // libonnx 1.12's adapter of the binary operators' 'broadcast' and 'axis' attributes
  // aligns the second input with the first's axes from 'axis' only when 'axis' is 0 or
  // already puts it last, and only when it knows both ranks; otherwise at the last axes,
  // which would be a silently wrong result.
  std::map<std::string, int> ranks = declared_ranks(inferred.graph());
  for (int i = 0; i < inferred.graph().node_size(); ++i) {
    const onnx::NodeProto& node = inferred.graph().node(i);
    int64_t broadcast = 0;
    const onnx::AttributeProto* axis = nullptr;
    for (const onnx::AttributeProto& attr : node.attribute()) {
      if (attr.name() == "broadcast") broadcast = attr.i();
      if (attr.name() == "axis") axis = &attr;
    }
    if (broadcast == 0 || axis == nullptr || node.input_size() != 2) continue;
    std::string label =
        "node " + (node.name().empty() ? "#" + std::to_string(i) : "'" + node.name() + "'") + " (" +
        node.op_type() + ") broadcasts input 1 from axis " + std::to_string(axis->i());
    auto a = ranks.find(node.input(0));
    auto b = ranks.find(node.input(1));
    if (a == ranks.end() || b == ranks.end()) {
      fail(label + " and the ranks of its inputs are not known");
    }
    if (axis->i() != 0 && axis->i() != a->second - b->second) {
      fail(label + ", which the converter of libonnx 1.12 aligns with the last axes instead");
    }
  }
  onnx::ModelProto updated;
  try {
    updated = onnx::version_conversion::ConvertVersion(inferred, static_cast<int>(kMinOpset));
  } catch (const std::exception& e) {
    // The converter's failed assertions read "FILE:LINE: FUNCTION: Assertion `...` failed:
    // WHY"; the user needs WHY.
    std::string what = one_line(e.what());
    const std::string marker = "failed: ";
    size_t at = what.find(marker);
    fail(at == std::string::npos ? what : what.substr(at + marker.size()));
  }
  // The converter returns a model it cannot read unchanged, with a warning on stderr.
  if (default_opset(updated) != kMinOpset) fail("it cannot read the model");
  // Its adapter of Reshape's 'shape' attribute (an input from opset 5) makes a Constant
  // of the shape without the tensor's dims: a 0-d tensor holding several values.
  for (onnx::NodeProto& node : *updated.mutable_graph()->mutable_node()) {
    if (node.op_type() != "Constant") continue;
    for (onnx::AttributeProto& attr : *node.mutable_attribute()) {
      if (attr.name() != "value" || !attr.has_t()) continue;
      onnx::TensorProto& t = *attr.mutable_t();
      if (t.dims_size() == 0 && t.int64_data_size() > 1) t.add_dims(t.int64_data_size());
    }
  }
  try {
    onnx::checker::check_model(updated);
  } catch (const std::exception& e) {
    fail("the ONNX checker rejects the converted model: " + one_line(e.what()));
  }
  return updated;
}

}  // namespace

bool is_onnx_path(const std::string& path) { return path.size() > 5 && path.ends_with(".onnx"); }

IRModule import_model(std::span<const uint8_t> bytes, const std::string& name) {
  auto fail = [&name](const std::string& message) { model_error(name, message); };
  if (bytes.size() > kMaxModelBytes) {
    fail("larger than the limit of " + std::to_string(kMaxModelBytes) + " bytes for a model");
  }
  onnx::ModelProto model;
  if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    fail("not an ONNX model: the file cannot be parsed as a ModelProto (truncated or corrupt)");
  }
  std::optional<int64_t> imported = default_opset(model);
  const int64_t newest = max_known_opset();
  if (!imported) {
    std::string domains;
    for (const onnx::OperatorSetIdProto& import : model.opset_import()) {
      domains += (domains.empty() ? " (it imports " : ", ") + ("'" + import.domain() + "' opset ") +
                 std::to_string(import.version());
    }
    fail("unsupported: the model imports no opset of the default ONNX domain" +
         (domains.empty() ? std::string() : domains + "; relaxc imports the default domain only)"));
  }
  int64_t opset = *imported;
  if (opset < 1 || opset > newest) {
    fail("unsupported: opset " + std::to_string(opset) +
         " of the default ONNX domain: relaxc imports opsets 1 to " + std::to_string(newest) +
         (opset > newest ? " (the newest the installed ONNX library knows)" : ""));
  }
  // Before the checker, which would only say that the external file is missing.
  for (const onnx::TensorProto& init : model.graph().initializer()) {
    if (init.data_location() == onnx::TensorProto::EXTERNAL) {
      try {
        host_tensor_of(init);
      } catch (const TensorProtoError& e) {
        fail("initializer '" + init.name() + "': unsupported: the tensor " + e.message);
      }
    }
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception& e) {
    fail("the ONNX checker rejects the model: " + one_line(e.what()));
  }
  if (opset < kMinOpset) {
    model = updated_model(model, name, opset);
    return GraphImporter(model, name, kMinOpset, opset).run();
  }
  return GraphImporter(model, name, opset, opset).run();
}

IRModule import_model_file(const std::string& path) {
  std::vector<uint8_t> bytes = runtime::read_input_file(path, kMaxModelBytes);
  return import_model(bytes, path == "-" ? std::string(runtime::kStdinName) : path);
}

std::vector<std::string> output_names(const IRModule& module) {
  relax::Function main = module->relax_function("main");
  if (!main.defined()) return {};
  const AttrValue* names = main->attrs.find(kOutputNamesAttr);
  if (names == nullptr) return {};
  std::vector<std::string> out;
  for (const AttrValue& name : names->list) out.push_back(name.s);
  return out;
}

}  // namespace relaxc::onnx_import
