// The Relax builder of the parser, part two: expressions and StructInfo annotations.
//
// A call of R.<name> is an operator call when the registry knows "relax.<name>": its
// positional arguments and the keywords that name them become the call's arguments,
// the keyword the operator names for StructInfo (out_sinfo / sinfo_args) its
// sinfo_args, and the remaining keywords its attributes. The rest of R. builds leaves
// (R.const, R.shape, R.prim_value, R.str, R.dtype, R.ExternFunc). Python scalars
// become PrimValues as TVM converts them (int -> int64, float -> float64).
#include <cstring>
#include <limits>

#include "ir/text/parser_internal.h"

namespace relaxc::text {

namespace {

// StructInfo constructors and statement-only functions of R., which are no values.
bool is_struct_info_name(const std::string& name) {
  return name == "Tensor" || name == "Shape" || name == "Prim" || name == "Object" ||
         name == "Any" || name == "Tuple" || name == "Callable";
}

const std::vector<PyExprPtr>* sequence_items(const PyExpr& e) {
  if (const auto* t = e.as<PyTuple>()) return &t->items;
  if (const auto* l = e.as<PyList>()) return &l->items;
  return nullptr;
}

// The shape and flattened elements of a nested list of number literals (R.const).
struct ConstantData {
  std::vector<int64_t> shape;
  std::vector<const PyExpr*> elements;
};

void flatten_constant(const PyExpr& e, size_t depth, ConstantData& out) {
  const std::vector<PyExprPtr>* items = sequence_items(e);
  if (items == nullptr) {
    if (depth != out.shape.size()) user_error(e.span) << "R.const: the nested lists are ragged";
    out.elements.push_back(&e);
    return;
  }
  if (depth == out.shape.size()) {
    if (!out.elements.empty()) user_error(e.span) << "R.const: the nested lists are ragged";
    out.shape.push_back(static_cast<int64_t>(items->size()));
  } else if (depth > out.shape.size() || out.shape[depth] != static_cast<int64_t>(items->size())) {
    user_error(e.span) << "R.const: the nested lists are ragged";
  }
  for (const PyExprPtr& item : *items) flatten_constant(*item, depth + 1, out);
}

}  // namespace

bool RelaxParser::is_namespace(const std::string& root) const {
  return scope_.lookup(root) == nullptr;
}

PrimExprContext RelaxParser::prim_context() const {
  PrimExprContext ctx;
  ctx.int_literal = DataType::Int(64);
  ctx.strings_are_expressions = true;
  ctx.signature = in_signature_;
  return ctx;
}

// ---------------------------------------------------------------- Expressions

relax::Expr RelaxParser::expr(const PyExpr& e) {
  switch (e.kind) {
    case PyExprKind::Name:
      return name_expr(*e.as<PyName>());
    case PyExprKind::Attribute:
      return attribute_expr(*e.as<PyAttribute>());
    case PyExprKind::Call:
      return call_expr(*e.as<PyCall>());
    case PyExprKind::Tuple:
    case PyExprKind::List: {
      std::vector<relax::Expr> fields;
      for (const PyExprPtr& item : *sequence_items(e)) fields.push_back(expr(*item));
      return builder_.tuple(std::move(fields), e.span);
    }
    case PyExprKind::Subscript: {
      const auto& s = *e.as<PySubscript>();
      if (relax::Expr constant = metadata_constant(s); constant.defined()) return constant;
      relax::Expr tuple = expr(*s.value);
      if (s.indices.size() != 1) user_error(s.span) << "a tuple is indexed with one integer";
      int64_t index = expect_int(*s.indices[0], "a tuple index");
      if (index < 0 || index > std::numeric_limits<int>::max()) {
        user_error(s.indices[0]->span) << "a tuple index must be non-negative";
      }
      return builder_.tuple_get_item(tuple, static_cast<int>(index), s.span);
    }
    case PyExprKind::Int:
      return relax::make_prim_value(tir::int_imm(DataType::Int(64), e.as<PyInt>()->value, e.span),
                                    e.span);
    case PyExprKind::Float:
      return relax::make_prim_value(
          tir::float_imm(DataType::Float(64), e.as<PyFloat>()->value, e.span), e.span);
    case PyExprKind::Bool:
      return relax::make_prim_value(tir::bool_imm(e.as<PyBool>()->value, e.span), e.span);
    case PyExprKind::String:
      return relax::make_string_imm(e.as<PyString>()->value, e.span);
    case PyExprKind::Unary: {
      const auto& u = *e.as<PyUnary>();
      bool is_int = false;
      if (std::optional<double> number = number_literal(e, &is_int)) {
        tir::PrimExpr value =
            is_int ? tir::int_imm(DataType::Int(64), expect_int(e, "a number"), e.span)
                   : tir::float_imm(DataType::Float(64), *number, e.span);
        return relax::make_prim_value(value, e.span);
      }
      if (u.op == "+") return expr(*u.operand);
      return python_operator(u.op, u.span, {expr(*u.operand)});
    }
    case PyExprKind::Binary: {
      const auto& b = *e.as<PyBinary>();
      relax::Expr lhs = expr(*b.lhs);
      relax::Expr rhs = expr(*b.rhs);
      return python_operator(b.op, b.op_span, {lhs, rhs});
    }
    case PyExprKind::Compare: {
      const auto& c = *e.as<PyCompare>();
      if (c.ops.size() != 1)
        user_error(c.op_spans[1]) << "chained comparisons of Relax values are not supported";
      relax::Expr lhs = expr(*c.operands[0]);
      relax::Expr rhs = expr(*c.operands[1]);
      return python_operator(c.ops[0], c.op_spans[0], {lhs, rhs});
    }
    case PyExprKind::BoolOp: {
      const auto& b = *e.as<PyBoolOp>();
      user_error(b.op_spans.front()) << "'" << b.op << "' of Relax values is not supported";
    }
    default:
      break;
  }
  user_error(e.span) << "expected a Relax expression";
}

// Python's operators on Relax values call the operators TVM maps them to.
relax::Expr RelaxParser::python_operator(const std::string& op, Span span,
                                         std::vector<relax::Expr> args) {
  static const std::map<std::string, std::string> kBinary = {
      {"+", "add"},           {"-", "subtract"}, {"*", "multiply"},       {"/", "divide"},
      {"//", "floor_divide"}, {"**", "power"},   {"@", "matmul"},         {"<", "less"},
      {"<=", "less_equal"},   {">", "greater"},  {">=", "greater_equal"}, {"==", "equal"},
      {"!=", "not_equal"}};
  static const std::map<std::string, std::string> kUnary = {{"-", "negative"},
                                                            {"not", "logical_not"}};
  const auto& table = args.size() == 1 ? kUnary : kBinary;
  auto it = table.find(op);
  if (it == table.end() || relax::find_op("relax." + it->second) == nullptr) {
    user_error(span) << "operator '" << op << "' is not supported on Relax values";
  }
  return builder_.call_op("relax." + it->second, std::move(args), {}, {}, span);
}

relax::Expr RelaxParser::name_expr(const PyName& name) {
  const Symbol* symbol = scope_.lookup(name.id);
  if (symbol == nullptr) {
    if (module_.globals.count(name.id) != 0) {
      user_error(name.span) << "unknown name '" << name.id << "' (a function of the module is "
                            << "written " << module_.class_name << "." << name.id << ")";
    }
    user_error(name.span) << "unknown name '" << name.id << "'";
  }
  switch (symbol->kind) {
    case Symbol::Kind::RelaxValue:
      if (ended_dataflow_vars_.count(symbol->relax_value.get()) != 0) {
        user_error(name.span) << "[rule 1] DataflowVar '" << name.id
                              << "' is used outside the dataflow block that binds it; list it "
                                 "in that block's R.output to use it afterwards";
      }
      return symbol->relax_value;
    case Symbol::Kind::PrimVar:
      return relax::make_prim_value(symbol->prim_var, name.span);
    case Symbol::Kind::Buffer:
      break;
    case Symbol::Kind::Module:
      user_error(name.span) << "'" << name.id << "' is the module; its functions are written "
                            << name.id << ".name";
  }
  user_error(name.span) << "'" << name.id << "' is not a Relax value";
}

relax::GlobalVar RelaxParser::global(const PyAttribute& a) const {
  auto it = module_.globals.find(a.attr);
  if (it == module_.globals.end()) {
    user_error(a.attr_span) << "the module has no function '" << a.attr << "'";
  }
  return it->second;
}

relax::Expr RelaxParser::attribute_expr(const PyAttribute& a) {
  if (const auto* root = a.value->as<PyName>()) {
    const Symbol* symbol = scope_.lookup(root->id);
    if (symbol != nullptr && symbol->kind == Symbol::Kind::Module) return global(a);
    if (symbol == nullptr) {
      std::string name = dotted_name(a);
      if (root->id == "R" && is_struct_info_name(a.attr)) {
        user_error(a.span) << name << " is a StructInfo annotation, not a value";
      }
      if (root->id == "R" || root->id == "T")
        user_error(a.span) << "'" << name << "' is not a value";
      user_error(root->span) << "unknown name '" << root->id << "'";
    }
  }
  user_error(a.span) << "attributes of values are not supported in Relax";
}

relax::Expr RelaxParser::call_expr(const PyCall& call) {
  std::string callee = dotted_name(*call.func);
  std::string root = callee.substr(0, callee.find('.'));
  if (callee.size() > 2 && root == "R" && is_namespace("R")) {
    std::string name = callee.substr(2);
    if (const relax::OpInfo* op = relax::find_op("relax." + name)) return operator_call(call, *op);
    return builtin_call(call, name);
  }
  if (callee.size() > 2 && root == "T" && is_namespace("T")) {
    // A TensorIR value in Relax is a PrimValue (as TVM converts it).
    return relax::make_prim_value(prims_.parse(call, prim_context()), call.span);
  }
  if (!call.keywords.empty()) {
    user_error(call.keywords.front().span) << "a call of a function takes no keyword arguments";
  }
  relax::Expr func = expr(*call.func);
  std::vector<relax::Expr> args;
  for (const PyExprPtr& arg : call.args) args.push_back(expr(*arg));
  return builder_.call(func, std::move(args), {}, {}, call.span);
}

relax::Expr RelaxParser::operator_call(const PyCall& call, const relax::OpInfo& op) {
  const std::string display = "R." + relax::op_script_name(op.name);
  const std::vector<std::string>& names = op.arg_names;
  // The destination-passing calls (R.call_tir, R.call_dps_packed) take out_sinfo also as
  // their third positional argument, R.call_tir(f, args, out_sinfo, tir_vars), and a
  // single value for `args`, which becomes a tuple of one, as TVM's R.call_tir does.
  const bool destination_passing = op.sinfo_args_keyword == "out_sinfo";
  constexpr size_t kOutSinfoPosition = 2;
  std::vector<const PyExpr*> positional;
  const PyExpr* positional_sinfo = nullptr;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (destination_passing && i == kOutSinfoPosition) {
      positional_sinfo = call.args[i].get();
    } else {
      positional.push_back(call.args[i].get());
    }
  }
  // The parameters a keyword can name: a variadic operator's last one stands for the
  // trailing positional arguments.
  size_t named = op.variadic && !names.empty() ? names.size() - 1 : names.size();
  // TVM's operator functions take the attributes after the arguments, so they may be
  // given positionally too: R.repeat(x, 3, 1), R.expand_dims(x, 0).
  std::vector<const PyExpr*> positional_attrs;
  if (!op.variadic && !destination_passing && positional.size() > names.size()) {
    size_t extra = std::min(positional.size() - names.size(), op.attrs.size());
    positional_attrs.assign(positional.begin() + static_cast<long>(names.size()),
                            positional.begin() + static_cast<long>(names.size() + extra));
    positional.erase(positional.begin() + static_cast<long>(names.size()),
                     positional.begin() + static_cast<long>(names.size() + extra));
  }
  if (!op.variadic && positional.size() > names.size()) {
    std::vector<std::string> parameters = names;
    if (destination_passing) {
      parameters.insert(parameters.begin() + kOutSinfoPosition, op.sinfo_args_keyword);
    }
    for (const relax::OpAttrSpec& spec : op.attrs) parameters.push_back(spec.name);
    std::string list;
    for (const std::string& n : parameters) list += (list.empty() ? "" : ", ") + n;
    user_error(call.args[parameters.size()]->span)
        << display << " takes "
        << (static_cast<size_t>(op.num_required_args) == parameters.size() ? "" : "at most ")
        << parameters.size() << " argument" << (parameters.size() == 1 ? "" : "s")
        << (parameters.empty() ? "" : " (" + list + ")") << ", got " << call.args.size();
  }
  std::vector<const PyExpr*> slots = positional;
  std::vector<relax::StructInfo> sinfo;
  if (positional_sinfo != nullptr) sinfo = sinfo_args(*positional_sinfo);
  bool sinfo_given = false;
  std::vector<Attrs::Entry> attrs;
  auto attr_value = [&](const PyExpr& value) {
    if (const PyCall* dtype = as_call_of(value, "R.dtype")) {
      auto args = bind_arguments(*dtype, "R.dtype", {"dtype"}, 1);
      return AttrValue::data_type(parse_dtype(*args[0], true));
    }
    return parse_attr_value(value);
  };
  for (size_t i = 0; i < positional_attrs.size(); ++i) {
    attrs.emplace_back(op.attrs[i].name, attr_value(*positional_attrs[i]));
  }
  for (const PyKeyword& kw : call.keywords) {
    // TVM after 0.23 spells sinfo_args ty_args and out_sinfo out_ty; both are read.
    const std::string& keyword = op.sinfo_args_keyword;
    if (!keyword.empty() &&
        (kw.name == keyword || (keyword == "sinfo_args" && kw.name == "ty_args") ||
         (keyword == "out_sinfo" && kw.name == "out_ty"))) {
      if (positional_sinfo != nullptr || sinfo_given) {
        user_error(kw.span) << display << " got two values for argument '" << kw.name << "'";
      }
      sinfo = sinfo_args(*kw.value);
      sinfo_given = true;
      continue;
    }
    auto name_it = std::find(names.begin(), names.begin() + static_cast<long>(named), kw.name);
    if (name_it != names.begin() + static_cast<long>(named)) {
      size_t index = static_cast<size_t>(name_it - names.begin());
      if (index < slots.size() && slots[index] != nullptr) {
        user_error(kw.span) << display << " got two values for argument '" << kw.name << "'";
      }
      if (slots.size() <= index) slots.resize(index + 1, nullptr);
      slots[index] = kw.value.get();
      continue;
    }
    auto spec = std::find_if(op.attrs.begin(), op.attrs.end(),
                             [&](const relax::OpAttrSpec& s) { return s.name == kw.name; });
    if (spec == op.attrs.end()) {
      user_error(kw.span) << display << " got an unknown keyword argument '" << kw.name << "'";
    }
    attrs.emplace_back(kw.name, attr_value(*kw.value));
  }
  size_t given = 0;
  while (given < slots.size() && slots[given] != nullptr) ++given;
  size_t required = static_cast<size_t>(std::max(op.num_required_args, 0));
  if (given < slots.size() || given < required) {
    size_t missing = given;
    user_error(call.span) << display << " is missing argument '"
                          << (missing < names.size() ? names[missing] : std::to_string(missing))
                          << "'";
  }
  std::vector<relax::Expr> args;
  for (size_t i = 0; i < slots.size(); ++i) {
    // A shape argument written as a tuple or list, R.reshape(x, (n, 4)),
    // R.image.resize2d(x, (h, w)) or tir_vars=(n,), is the shape R.shape([n, 4]), as TVM's
    // operator functions convert it.
    if (i < names.size() && (names[i] == "shape" || names[i] == "size" || names[i] == "tir_vars") &&
        sequence_items(*slots[i]) != nullptr) {
      args.push_back(relax::make_shape_expr(dims(*slots[i]), slots[i]->span));
    } else {
      args.push_back(expr(*slots[i]));
    }
  }
  if (destination_passing && args.size() > 1 &&
      !args[1]->struct_info.is<relax::TupleStructInfoNode>()) {
    args[1] = builder_.tuple({args[1]}, slots[1]->span);
  }
  return builder_.call_op(op.name, std::move(args), std::move(sinfo), Attrs(std::move(attrs)),
                          call.span);
}

// One StructInfo, or a list / tuple of them (out_sinfo=[A, B] is one per output).
std::vector<relax::StructInfo> RelaxParser::sinfo_args(const PyExpr& e) {
  std::vector<relax::StructInfo> out;
  const std::vector<PyExprPtr>* items = sequence_items(e);
  if (items == nullptr) {
    out.push_back(struct_info(e));
    return out;
  }
  for (const PyExprPtr& item : *items) out.push_back(struct_info(*item));
  return out;
}

relax::Expr RelaxParser::builtin_call(const PyCall& call, const std::string& name) {
  const std::string display = "R." + name;
  if (name == "const") return constant(call);
  if (name == "shape") {
    auto args = bind_arguments(call, display, {"values"}, 1);
    return relax::make_shape_expr(dims(*args[0]), call.span);
  }
  if (name == "prim_value") {
    auto args = bind_arguments(call, display, {"value"}, 1);
    tir::PrimExpr value = prims_.parse(*args[0], prim_context());
    return relax::make_prim_value(value, call.span);
  }
  if (name == "str") {
    auto args = bind_arguments(call, display, {"value"}, 1);
    return relax::make_string_imm(expect_string(*args[0], "the value of R.str"), call.span);
  }
  if (name == "dtype") {
    auto args = bind_arguments(call, display, {"dtype"}, 1);
    return relax::make_data_type_imm(parse_dtype(*args[0], /*allow_void=*/true), call.span);
  }
  if (name == "ExternFunc") {
    auto args = bind_arguments(call, display, {"global_symbol"}, 1);
    return relax::make_extern_func(expect_string(*args[0], "the name of R.ExternFunc"), {},
                                   call.span);
  }
  if (name == "tuple") {
    if (!call.keywords.empty())
      user_error(call.keywords.front().span) << "R.tuple takes no keywords";
    std::vector<relax::Expr> fields;
    for (const PyExprPtr& arg : call.args) fields.push_back(expr(*arg));
    return builder_.tuple(std::move(fields), call.span);
  }
  if (is_struct_info_name(name)) {
    user_error(call.span) << display << " is a StructInfo annotation, not a value";
  }
  if (name == "match_cast") {
    user_error(call.span) << "R.match_cast must be the value of a binding: y = R.match_cast(x, SI)";
  }
  if (name == "output" || name == "func_attr" || name == "dataflow" || name == "function") {
    user_error(call.span) << display << " is not a value";
  }
  user_error(call.func->span) << "unknown operator '" << display << "'";
}

relax::Expr RelaxParser::constant(const PyCall& call) {
  auto args = bind_arguments(call, "R.const", {"value", "dtype"}, 1);
  ConstantData data;
  flatten_constant(*args[0], 0, data);
  bool all_int = true, all_bool = true;
  for (const PyExpr* element : data.elements) {
    bool is_int = false;
    if (element->as<PyBool>()) {
      all_int = false;
      continue;
    }
    all_bool = false;
    if (!number_literal(*element, &is_int)) {
      user_error(element->span) << "R.const takes numbers or nested lists of numbers";
    }
    all_int = all_int && is_int;
  }
  if (data.elements.empty()) all_bool = false;
  // Without a dtype, Python ints make int32 and floats float32, as TVM's relax.const.
  DataType dtype = all_bool ? DataType::Bool() : all_int ? DataType::Int(32) : DataType::Float(32);
  if (args[1] != nullptr && !args[1]->as<PyNone>()) dtype = parse_dtype(*args[1]);
  if (!dtype.is_scalar() || dtype.is_handle() || (dtype.bits() % 8 != 0 && !dtype.is_bool())) {
    user_error(args[1] != nullptr ? args[1]->span : call.span)
        << "R.const does not support data type " << dtype.str();
  }
  HostTensor tensor;
  if (dtype.is_float()) {
    std::vector<double> values;
    for (const PyExpr* element : data.elements) {
      bool is_int = false;
      if (const auto* b = element->as<PyBool>()) {
        values.push_back(b->value ? 1.0 : 0.0);
      } else {
        values.push_back(*number_literal(*element, &is_int));
      }
    }
    tensor = HostTensor::from_doubles(dtype, data.shape, values);
  } else {
    // Integers are stored directly (a double would round values past 2^53).
    auto bytes = std::make_shared<std::vector<uint8_t>>(data.elements.size() * dtype.bytes());
    for (size_t i = 0; i < data.elements.size(); ++i) {
      const PyExpr& element = *data.elements[i];
      int64_t v = 0;
      if (const auto* b = element.as<PyBool>()) {
        v = b->value ? 1 : 0;
      } else {
        v = expect_int(element, "an element of an integer R.const");
      }
      int bits = dtype.is_bool() ? 1 : dtype.bits();
      bool fits = dtype.is_int() ? bits == 64 || (v >= -(int64_t{1} << (bits - 1)) &&
                                                  v < (int64_t{1} << (bits - 1)))
                                 : v >= 0 && (bits == 64 || v < (int64_t{1} << bits));
      if (!fits) user_error(element.span) << "value " << v << " does not fit in " << dtype.str();
      std::memcpy(bytes->data() + i * dtype.bytes(), &v, dtype.bytes());  // little-endian
    }
    tensor.dtype = dtype;
    tensor.shape = data.shape;
    tensor.data = std::move(bytes);
  }
  return relax::make_constant(std::move(tensor), call.span);
}

relax::Expr RelaxParser::metadata_constant(const PySubscript& s) {
  const auto* table = s.value->as<PySubscript>();
  const auto* root = table != nullptr ? table->value->as<PyName>() : nullptr;
  if (root == nullptr || root->id != "metadata" || !is_namespace("metadata")) return {};
  const auto* key = table->indices.size() == 1 ? table->indices[0]->as<PyString>() : nullptr;
  if (key == nullptr || key->value != "relax.expr.Constant" || s.indices.size() != 1) {
    user_error(s.span) << "expected metadata[\"relax.expr.Constant\"][i]";
  }
  const int64_t index = expect_int(*s.indices[0], "a metadata index");
  MetadataTable& metadata = *module_.metadata;
  if (!metadata.load) {
    user_error(s.span) << "metadata[\"relax.expr.Constant\"][" << index
                       << "] refers to a weights side file, which is read only for a module "
                          "read from a file (model.py's is model.safetensors)";
  }
  if (!metadata.tensors) metadata.tensors = metadata.load();
  if (index < 0 || static_cast<uint64_t>(index) >= metadata.tensors->size()) {
    user_error(s.indices[0]->span)
        << "metadata[\"relax.expr.Constant\"][" << index << "]: the weights side file holds "
        << metadata.tensors->size() << " constants";
  }
  relax::Expr& node = metadata.nodes[index];
  if (!node.defined()) {
    node = relax::make_constant((*metadata.tensors)[static_cast<size_t>(index)], s.span);
  }
  return node;
}

relax::StructInfo RelaxParser::match_cast_args(const PyCall& call, const PyExpr** value) {
  auto args = bind_arguments(call, "R.match_cast", {"value", "struct_info"}, 2);
  *value = args[0];
  return struct_info(*args[1]);
}

// ---------------------------------------------------------------- StructInfo

tir::PrimExpr RelaxParser::dim(const PyExpr& e) {
  tir::PrimExpr d = prims_.parse(e, prim_context());
  if (!d->dtype.is_integer() || d->dtype.is_bool() || !d->dtype.is_scalar()) {
    user_error(e.span) << "a shape dimension must be an integer, got " << d->dtype.str();
  }
  // Relax shapes are int64 (as in TVM): the shape functions and every operator's
  // inference compute in int64, where an int32 variable would meet int64 constants.
  if (d->dtype != DataType::Int(64) && !d.is<tir::IntImmNode>()) {
    user_error(e.span) << "a shape dimension must be int64, got " << d->dtype.str()
                       << "; declare its variables as T.int64()";
  }
  return d;
}

std::vector<tir::PrimExpr> RelaxParser::dims(const PyExpr& e) {
  const std::vector<PyExprPtr>* items = sequence_items(e);
  if (items == nullptr) user_error(e.span) << "expected a list of dimensions such as [n, 4]";
  std::vector<tir::PrimExpr> out;
  for (const PyExprPtr& item : *items) out.push_back(dim(*item));
  return out;
}

relax::StructInfo RelaxParser::struct_info(const PyExpr& e) {
  const auto* call = e.as<PyCall>();
  std::string name = dotted_name(call != nullptr ? *call->func : e);
  std::string kind = name.rfind("R.", 0) == 0 && is_namespace("R") ? name.substr(2) : "";
  if (kind == "Any") kind = "Object";  // TVM after 0.23 spells R.Object R.Any
  if (!is_struct_info_name(kind)) {
    user_error(e.span) << "expected a StructInfo annotation such as R.Tensor((n, 4), "
                          "dtype=\"float32\")";
  }
  if (call == nullptr) {
    if (kind == "Object") return relax::object_sinfo(e.span);
    if (kind == "Tensor") return relax::tensor_sinfo_ndim(-1, DataType::Void(), e.span);
    if (kind == "Shape") return relax::shape_sinfo_ndim(-1, e.span);
    if (kind == "Tuple") return relax::tuple_sinfo({}, e.span);
    user_error(e.span) << name << " needs arguments";
  }
  if (kind == "Object") {
    bind_arguments(*call, name, {}, 0);
    return relax::object_sinfo(e.span);
  }
  if (kind == "Tensor") return tensor_struct_info(*call);
  if (kind == "Tuple") {
    if (!call->keywords.empty())
      user_error(call->keywords.front().span) << "R.Tuple takes no keywords";
    // R.Tuple([A, B]) is R.Tuple(A, B), as TVM reads it.
    const std::vector<PyExprPtr>* items = &call->args;
    if (call->args.size() == 1 && call->args[0]->as<PyList>())
      items = sequence_items(*call->args[0]);
    std::vector<relax::StructInfo> fields;
    for (const PyExprPtr& arg : *items) fields.push_back(struct_info(*arg));
    return relax::tuple_sinfo(std::move(fields), e.span);
  }
  if (kind == "Prim") {
    auto args = bind_arguments(*call, name, {"dtype", "value"}, 0);
    if (args[0] == nullptr && args[1] == nullptr)
      user_error(e.span) << "R.Prim needs a dtype or a value";
    DataType dtype = args[0] != nullptr ? parse_dtype(*args[0]) : DataType::Void();
    tir::PrimExpr value;
    if (args[1] != nullptr) {
      value = prims_.parse(*args[1], prim_context());
      if (args[0] != nullptr) value = convert_literal(value, dtype);
      if (args[0] != nullptr && value->dtype != dtype) {
        user_error(args[1]->span) << "the value has type " << value->dtype.str() << ", not "
                                  << dtype.str();
      }
      dtype = value->dtype;
    }
    return relax::prim_sinfo(dtype, value, e.span);
  }
  if (kind == "Shape") {
    auto args = bind_arguments(*call, name, {"values", "ndim"}, 0);
    int64_t ndim = args[1] != nullptr ? expect_int(*args[1], "ndim") : -1;
    if (ndim < -1 || ndim > 1024)
      user_error(args[1]->span) << "ndim must be -1 (unknown) or a rank";
    if (args[0] == nullptr || args[0]->as<PyNone>()) {
      return relax::shape_sinfo_ndim(static_cast<int>(ndim), e.span);
    }
    std::vector<tir::PrimExpr> values = dims(*args[0]);
    if (ndim != -1 && ndim != static_cast<int64_t>(values.size())) {
      user_error(args[1]->span) << "ndim=" << ndim << " disagrees with the " << values.size()
                                << " values given";
    }
    return relax::shape_sinfo(std::move(values), e.span);
  }
  // Callable
  auto args = bind_arguments(*call, name, {"params", "ret", "purity", "derive_func"}, 0);
  if (args[3] != nullptr) user_error(args[3]->span) << "derive_func is not supported";
  bool purity = args[2] != nullptr ? expect_bool(*args[2], "purity") : true;
  relax::StructInfo ret = args[1] != nullptr ? struct_info(*args[1]) : relax::object_sinfo();
  if (args[0] == nullptr || args[0]->as<PyNone>()) {
    return relax::opaque_func_sinfo(ret, purity, {}, e.span);
  }
  const std::vector<PyExprPtr>* items = sequence_items(*args[0]);
  if (items == nullptr) user_error(args[0]->span) << "the parameters of R.Callable are a tuple";
  std::vector<relax::StructInfo> params;
  for (const PyExprPtr& item : *items) params.push_back(struct_info(*item));
  return relax::func_sinfo(std::move(params), ret, purity, e.span);
}

relax::StructInfo RelaxParser::tensor_struct_info(const PyCall& call) {
  auto args = bind_arguments(call, "R.Tensor", {"shape", "dtype", "vdevice", "ndim"}, 0);
  if (args[2] != nullptr && !args[2]->as<PyNone>()) {
    user_error(args[2]->span) << "virtual devices (vdevice) are not supported";
  }
  const PyExpr* shape = args[0] != nullptr && !args[0]->as<PyNone>() ? args[0] : nullptr;
  const PyExpr* dtype_arg = args[1];
  // R.Tensor("float32") names the dtype alone.
  if (shape != nullptr && shape->as<PyString>() && dtype_arg == nullptr && !call.args.empty() &&
      shape == call.args[0].get()) {
    dtype_arg = shape;
    shape = nullptr;
  }
  DataType dtype = dtype_arg != nullptr && !dtype_arg->as<PyNone>()
                       ? parse_dtype(*dtype_arg, /*allow_void=*/true)
                       : DataType::Void();
  int64_t ndim = args[3] != nullptr ? expect_int(*args[3], "ndim") : -1;
  if (ndim < -1 || ndim > 1024) user_error(args[3]->span) << "ndim must be -1 (unknown) or a rank";
  if (shape == nullptr) return relax::tensor_sinfo_ndim(static_cast<int>(ndim), dtype, call.span);
  if (sequence_items(*shape) != nullptr) {
    std::vector<tir::PrimExpr> values = dims(*shape);
    if (ndim != -1 && ndim != static_cast<int64_t>(values.size())) {
      user_error(args[3]->span) << "ndim=" << ndim << " disagrees with the shape's "
                                << values.size() << " dimension(s)";
    }
    return relax::tensor_sinfo(std::move(values), dtype, call.span);
  }
  // A shape given by a variable: R.Tensor(s, dtype="float32").
  const auto* shape_name = shape->as<PyName>();
  relax::Expr shape_value = shape_name != nullptr ? name_expr(*shape_name) : relax::Expr();
  const auto* shape_sinfo = shape_value.is<relax::VarNode>()
                                ? shape_value->struct_info.as<relax::ShapeStructInfoNode>()
                                : nullptr;
  if (shape_sinfo == nullptr) {
    user_error(shape->span) << "the shape of R.Tensor must be a tuple of dimensions or a "
                               "variable bound to a shape";
  }
  if (ndim != -1 && shape_sinfo->ndim != -1 && ndim != shape_sinfo->ndim) {
    user_error(args[3]->span) << "ndim=" << ndim << " disagrees with the shape's "
                              << shape_sinfo->ndim << " dimension(s)";
  }
  return relax::tensor_sinfo_shape(shape_value, dtype, call.span);
}

}  // namespace relaxc::text
