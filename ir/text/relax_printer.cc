// The Relax printer: StructInfo, expressions, bindings and functions as TVM 0.23 writes
// them, every binding annotated with its variable's StructInfo.
//
// A module-level function is printed after one walk over it that lists the shape
// variables it uses in order of first appearance (signature, return annotation, body):
// they are named first, at the function's outermost scope, and declared at the top of
// the body (`n = T.int64()`), so that no later name can shadow them; the same walk tells
// whether the function refers to another one (`cls = Module`). In the signature a shape
// expression that refers to a variable is written as a string ("n * 4"), as TVM does.
// An If bound to a variable prints as an if/else statement whose branches both end by
// assigning that variable.
#include "ir/text/relax_printer.h"

#include <algorithm>
#include <unordered_set>

#include "ir/relax/op_registry.h"
#include "ir/text/printer_common.h"
#include "ir/tir/functor.h"

namespace relaxc::text {

namespace {

bool refers_to_tir_var(const tir::PrimExpr& e) {
  bool found = false;
  walk(e.get(), [&](const Object* node) {
    if (node->kind() == NodeKind::TirVar) found = true;
    return !found;
  });
  return found;
}

// The number of elements of `tensor` if its storage holds them all and their type can be
// read, else -1.
int64_t readable_elements(const HostTensor& tensor) {
  DataType dtype = tensor.dtype;
  bool readable =
      dtype.lanes() == 1 &&
      ((dtype.is_integer() && (dtype.bits() == 1 || dtype.bits() == 8 || dtype.bits() == 16 ||
                               dtype.bits() == 32 || dtype.bits() == 64)) ||
       (dtype.code() == DataType::Code::Float &&
        (dtype.bits() == 16 || dtype.bits() == 32 || dtype.bits() == 64)) ||
       (dtype.is_bfloat() && dtype.bits() == 16));
  if (!readable || tensor.data == nullptr) return -1;
  int64_t count = 1;
  for (int64_t dim : tensor.shape) {
    if (dim < 0 || __builtin_mul_overflow(count, dim, &count)) return -1;
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(count, static_cast<int64_t>(dtype.bytes()), &bytes) ||
      static_cast<uint64_t>(bytes) > tensor.data->size()) {
    return -1;
  }
  return count;
}

std::string element_text(const HostTensor& tensor, int64_t i) {
  DataType dtype = tensor.dtype;
  if (dtype.is_bool()) return tensor.element_as_int(i) != 0 ? "True" : "False";
  if (dtype.is_integer()) return std::to_string(tensor.element_as_int(i));
  return format_float_of_type(tensor.element_as_double(i), dtype, FloatStyle::PythonFloat);
}

// The elements of `tensor` as nested Python lists, row-major. Iterative: a constant of
// many dimensions cannot overflow the stack.
std::string nested_elements(const HostTensor& tensor, int64_t count) {
  const std::vector<int64_t>& shape = tensor.shape;
  if (shape.empty()) return element_text(tensor, 0);
  // Dimensions after a zero-sized one hold nothing: iterate up to it, each item "[]".
  size_t outer = 0;
  while (outer < shape.size() && shape[outer] != 0) ++outer;
  if (outer == 0) return "[]";
  bool empty_items = outer < shape.size();
  int64_t items = 1;
  for (size_t d = 0; d < outer; ++d) items *= shape[d];
  if (!empty_items && items != count) return "[]";
  std::string out(outer, '[');
  std::vector<int64_t> index(outer, 0);
  for (int64_t k = 0; k < items; ++k) {
    if (k > 0) {
      size_t closed = 0;
      for (size_t d = outer; d-- > 0;) {
        if (++index[d] < shape[d]) break;
        index[d] = 0;
        ++closed;
      }
      out += std::string(closed, ']') + ", " + std::string(closed, '[');
    }
    out += empty_items ? "[]" : element_text(tensor, k);
  }
  out += std::string(outer, ']');
  return out;
}

}  // namespace

// ---------------------------------------------------------------- Names

std::string RelaxPrinter::r(const char* name) {
  ctx_.uses_relax = true;
  return std::string("R.") + name;
}

std::string RelaxPrinter::define_var(const relax::VarNode* var) {
  return ctx_.names.define(var, var->name, "lv");
}

std::string RelaxPrinter::var_name(const relax::VarNode* var) {
  if (const std::string* name = ctx_.names.find(var)) return *name;
  return ctx_.names.define(var, var->name, "lv", /*outermost=*/true);
}

// ---------------------------------------------------------------- StructInfo

std::string RelaxPrinter::shape_value(const tir::PrimExpr& e, LiteralStyle style) {
  std::string text = tir_.expr(e, style);
  return in_signature_ && refers_to_tir_var(e) ? quote(text) : text;
}

std::string RelaxPrinter::struct_info(const relax::StructInfo& sinfo) {
  if (!sinfo.defined()) return r("Object");
  NestingGuard guard(ctx_.depth, sinfo.get());
  switch (sinfo->kind()) {
    case NodeKind::ObjectStructInfo:
      return r("Object");
    case NodeKind::PrimStructInfo: {
      const auto* prim = sinfo.as<relax::PrimStructInfoNode>();
      if (prim->value.defined()) {
        return r("Prim") + "(value=" + shape_value(prim->value, LiteralStyle::RelaxValue) + ")";
      }
      return r("Prim") + "(" + quote(dtype_name(prim->dtype)) + ")";
    }
    case NodeKind::ShapeStructInfo: {
      const auto* shape = sinfo.as<relax::ShapeStructInfoNode>();
      if (shape->values.has_value()) {
        std::vector<std::string> dims;
        for (const relax::PrimExpr& dim : *shape->values) {
          dims.push_back(shape_value(dim, LiteralStyle::RelaxShape));
        }
        return r("Shape") + "([" + join(dims) + "])";
      }
      if (shape->ndim == -1) return r("Shape");
      return r("Shape") + "(ndim=" + std::to_string(shape->ndim) + ")";
    }
    case NodeKind::TensorStructInfo: {
      const auto* tensor = sinfo.as<relax::TensorStructInfoNode>();
      std::vector<std::string> args;
      if (const auto* shape = tensor->shape.as<relax::ShapeExprNode>()) {
        std::vector<std::string> dims;
        for (const relax::PrimExpr& dim : shape->values) {
          dims.push_back(shape_value(dim, LiteralStyle::RelaxShape));
        }
        args.push_back(tuple_text(dims));
      } else if (tensor->shape.defined()) {
        args.push_back(expr(tensor->shape));
      }
      if (!tensor->dtype.is_void()) args.push_back("dtype=" + quote(dtype_name(tensor->dtype)));
      if (!tensor->shape.defined() && tensor->ndim != -1) {
        args.push_back("ndim=" + std::to_string(tensor->ndim));
      }
      return args.empty() ? r("Tensor") : r("Tensor") + "(" + join(args) + ")";
    }
    case NodeKind::TupleStructInfo: {
      const auto* tuple = sinfo.as<relax::TupleStructInfoNode>();
      if (tuple->fields.empty()) return r("Tuple");
      std::vector<std::string> fields;
      for (const relax::StructInfo& field : tuple->fields) fields.push_back(struct_info(field));
      return r("Tuple") + "(" + join(fields) + ")";
    }
    case NodeKind::FuncStructInfo: {
      const auto* func = sinfo.as<relax::FuncStructInfoNode>();
      if (func->params.has_value()) {
        std::vector<std::string> params;
        for (const relax::StructInfo& param : *func->params) params.push_back(struct_info(param));
        return r("Callable") + "(" + tuple_text(params) + ", " + struct_info(func->ret) + ", " +
               (func->purity ? "True" : "False") + ")";
      }
      // An opaque function: only what differs from R.Callable's defaults (any result,
      // pure, no derivation) is written.
      std::vector<std::string> kwargs;
      if (func->ret.defined() && !func->ret.is<relax::ObjectStructInfoNode>()) {
        kwargs.push_back("ret=" + struct_info(func->ret));
      }
      if (!func->purity) kwargs.push_back("purity=False");
      if (!func->derive_func.empty()) kwargs.push_back("derive_func=" + quote(func->derive_func));
      return kwargs.empty() ? r("Callable") : r("Callable") + "(" + join(kwargs) + ")";
    }
    default:
      break;
  }
  return std::string("<") + node_kind_name(sinfo->kind()) + ">";
}

// ---------------------------------------------------------------- Expressions

std::string RelaxPrinter::constant(const relax::ConstantNode* constant) {
  const HostTensor& tensor = constant->data;
  int64_t count = readable_elements(tensor);
  if (ctx_.metadata != nullptr && (count < 0 || count > kInlineConstantElements)) {
    MetadataConstants& metadata = *ctx_.metadata;
    auto [it, added] = metadata.index.emplace(constant, metadata.tensors.size());
    if (added) metadata.tensors.push_back(tensor);
    return "metadata[\"relax.expr.Constant\"][" + std::to_string(it->second) + "]";
  }
  std::string value = count < 0 ? "None" : nested_elements(tensor, count);
  return r("const") + "(" + value + ", " + quote(dtype_name(tensor.dtype)) + ")";
}

std::string RelaxPrinter::sinfo_argument(const std::string& keyword,
                                         const std::vector<relax::StructInfo>& sinfo_args) {
  std::vector<std::string> sinfos;
  if (keyword != "out_sinfo") {
    for (const relax::StructInfo& sinfo : sinfo_args) sinfos.push_back(struct_info(sinfo));
    return keyword + "=" + tuple_text(sinfos);
  }
  // One output prints alone; a tuple of outputs as the list of its fields.
  const auto* tuple =
      sinfo_args.size() == 1 ? sinfo_args[0].as<relax::TupleStructInfoNode>() : nullptr;
  if (tuple == nullptr && sinfo_args.size() == 1) return keyword + "=" + struct_info(sinfo_args[0]);
  for (const relax::StructInfo& sinfo : tuple != nullptr ? tuple->fields : sinfo_args) {
    sinfos.push_back(struct_info(sinfo));
  }
  return keyword + "=[" + join(sinfos) + "]";
}

std::string RelaxPrinter::op_call(const relax::CallNode* node, const relax::OpNode* op) {
  const relax::OpInfo* info = relax::find_op(op->name);
  std::vector<std::string> args;
  // Arguments after the required ones are written by keyword (tir_vars=...) when the
  // operator names each of them (not the trailing arguments of a variadic one).
  size_t positional = node->args.size();
  if (info != nullptr && !info->variadic && info->num_required_args >= 0 &&
      static_cast<size_t>(info->num_required_args) < positional &&
      positional <= info->arg_names.size()) {
    positional = static_cast<size_t>(info->num_required_args);
  }
  for (size_t i = 0; i < positional; ++i) {
    // A packed function's name leads call_dps_packed / call_pure_packed as a string.
    const auto* extern_func = node->args[i].as<relax::ExternFuncNode>();
    args.push_back(i == 0 && extern_func != nullptr ? quote(extern_func->global_symbol)
                                                    : expr(node->args[i]));
  }
  // Attributes in the operator's order, then any it does not declare. An attribute the
  // call leaves out (one whose default is None) is printed as `name=None`, as TVM does.
  std::vector<const Attrs::Entry*> attrs;
  if (info != nullptr) {
    for (const relax::OpAttrSpec& spec : info->attrs) {
      const Attrs::Entry* found = nullptr;
      for (const Attrs::Entry& entry : node->attrs.entries()) {
        if (entry.first == spec.name) found = &entry;
      }
      if (found != nullptr) {
        attrs.push_back(found);
        args.push_back(found->first + "=" + format_attr_value(found->second));
      } else if (spec.default_value.is_none()) {
        args.push_back(spec.name + "=None");
      }
    }
  }
  for (const Attrs::Entry& entry : node->attrs.entries()) {
    if (std::find(attrs.begin(), attrs.end(), &entry) == attrs.end()) {
      args.push_back(entry.first + "=" + format_attr_value(entry.second));
    }
  }
  if (!node->sinfo_args.empty()) {
    bool named = info != nullptr && !info->sinfo_args_keyword.empty();
    args.push_back(
        sinfo_argument(named ? info->sinfo_args_keyword : "sinfo_args", node->sinfo_args));
  }
  for (size_t i = positional; i < node->args.size(); ++i) {
    args.push_back(info->arg_names[i] + "=" + expr(node->args[i]));
  }
  return r(relax::op_script_name(op->name).c_str()) + "(" + join(args) + ")";
}

std::string RelaxPrinter::call(const relax::CallNode* node) {
  if (const auto* op = node->op.as<relax::OpNode>()) return op_call(node, op);
  std::vector<std::string> args;
  std::string callee;
  if (const auto* extern_func = node->op.as<relax::ExternFuncNode>()) {
    callee = r("call_packed");
    args.push_back(quote(extern_func->global_symbol));
  } else {
    callee = expr(node->op);
  }
  for (const relax::Expr& arg : node->args) args.push_back(expr(arg));
  for (const Attrs::Entry& entry : node->attrs.entries()) {
    args.push_back(entry.first + "=" + format_attr_value(entry.second));
  }
  if (!node->sinfo_args.empty()) args.push_back(sinfo_argument("sinfo_args", node->sinfo_args));
  return callee + "(" + join(args) + ")";
}

std::string RelaxPrinter::expr(const relax::Expr& e) {
  if (!e.defined()) return "None";
  NestingGuard guard(ctx_.depth, e.get());
  switch (e->kind()) {
    case NodeKind::RelaxVar:
    case NodeKind::RelaxDataflowVar:
      return var_name(e.as<relax::VarNode>());
    case NodeKind::RelaxGlobalVar:
      return "cls." + e.as<relax::GlobalVarNode>()->name;
    case NodeKind::RelaxConstant:
      return constant(e.as<relax::ConstantNode>());
    case NodeKind::RelaxTuple: {
      std::vector<std::string> fields;
      for (const relax::Expr& field : e.as<relax::TupleNode>()->fields) {
        fields.push_back(expr(field));
      }
      return tuple_text(fields);
    }
    case NodeKind::RelaxTupleGetItem: {
      const auto* item = e.as<relax::TupleGetItemNode>();
      return expr(item->tuple) + "[" + std::to_string(item->index) + "]";
    }
    case NodeKind::RelaxShapeExpr: {
      std::vector<std::string> dims;
      for (const relax::PrimExpr& dim : e.as<relax::ShapeExprNode>()->values) {
        dims.push_back(shape_value(dim, LiteralStyle::RelaxShape));
      }
      return r("shape") + "([" + join(dims) + "])";
    }
    case NodeKind::RelaxPrimValue:
      return r("prim_value") + "(" +
             tir_.expr(e.as<relax::PrimValueNode>()->value, LiteralStyle::RelaxValue) + ")";
    case NodeKind::RelaxStringImm:
      return r("str") + "(" + quote(e.as<relax::StringImmNode>()->value) + ")";
    case NodeKind::RelaxDataTypeImm:
      return r("dtype") + "(" + quote(dtype_name(e.as<relax::DataTypeImmNode>()->value)) + ")";
    case NodeKind::RelaxExternFunc:
      return r("ExternFunc") + "(" + quote(e.as<relax::ExternFuncNode>()->global_symbol) + ")";
    case NodeKind::RelaxCall:
      return call(e.as<relax::CallNode>());
    case NodeKind::RelaxOp:
      return r(relax::op_script_name(e.as<relax::OpNode>()->name).c_str());
    default:
      break;
  }
  // An If, SeqExpr or Function nested inside an expression: the IR is not normalized,
  // and the text format has no inline form for it.
  return std::string("<") + node_kind_name(e->kind()) + ">";
}

// ---------------------------------------------------------------- Bindings

std::string RelaxPrinter::seq_bindings(const relax::Expr& e, int indent, std::string& out) {
  if (const auto* seq = e.as<relax::SeqExprNode>()) {
    for (const relax::BindingBlock& block : seq->blocks) {
      if (block.defined()) binding_block(block.get(), indent, out);
    }
    return expr(seq->body);
  }
  return expr(e);
}

void RelaxPrinter::binding_block(const relax::BindingBlockNode* block, int indent,
                                 std::string& out) {
  if (!block->is_dataflow()) {
    for (const relax::Binding& b : block->bindings) {
      if (b.defined()) binding(b.get(), indent, out);
    }
    return;
  }
  emit_line(out, indent, "with " + r("dataflow") + "():");
  std::vector<std::string> outputs;
  for (const relax::Binding& b : block->bindings) {
    if (!b.defined()) continue;
    binding(b.get(), indent + 1, out);
    if (b->var.defined() && !b->var.is<relax::DataflowVarNode>())
      outputs.push_back(var_name(b->var.get()));
  }
  emit_line(out, indent + 1, r("output") + "(" + join(outputs) + ")");
}

void RelaxPrinter::binding(const relax::BindingNode* b, int indent, std::string& out) {
  NestingGuard guard(ctx_.depth, b);
  if (!b->var.defined()) {
    emit_line(out, indent, expr(b->value));
    return;
  }
  const relax::VarNode* var = b->var.get();
  if (b->kind() == NodeKind::RelaxMatchCast) {
    const auto* cast = static_cast<const relax::MatchCastNode*>(b);
    std::string value = expr(cast->value);
    std::string target = struct_info(cast->struct_info);
    std::string lhs = annotated_target(var);
    emit_line(out, indent, lhs + " = " + r("match_cast") + "(" + value + ", " + target + ")");
    return;
  }
  if (const auto* node = b->value.as<relax::IfNode>()) {
    std::string annotation = var->struct_info.defined() ? struct_info(var->struct_info) : "";
    std::string name = define_var(var);
    if_statement(node, name, annotation, indent, out);
    return;
  }
  if (const auto* func = b->value.as<relax::FunctionNode>()) {
    // Named before its body is printed: a local function may call itself.
    std::string name = define_var(var);
    function_def(func, name, /*top_level=*/false, indent, out);
    out += "\n";  // TVM leaves a blank line after a function definition
    return;
  }
  std::string value = expr(b->value);
  emit_line(out, indent, annotated_target(var) + " = " + value);
}

std::string RelaxPrinter::annotated_target(const relax::VarNode* var) {
  std::string annotation = var->struct_info.defined() ? struct_info(var->struct_info) : "";
  std::string name = define_var(var);
  return annotation.empty() ? name : name + ": " + annotation;
}

void RelaxPrinter::if_statement(const relax::IfNode* node, const std::string& target,
                                const std::string& annotation, int indent, std::string& out) {
  emit_line(out, indent, "if " + expr(node->cond) + ":");
  auto branch = [&](const relax::Expr& e) {
    NameScope scope(ctx_.names);
    std::string value = seq_bindings(e, indent + 1, out);
    if (target.empty()) {
      emit_line(out, indent + 1, value);
    } else {
      std::string lhs = annotation.empty() ? target : target + ": " + annotation;
      emit_line(out, indent + 1, lhs + " = " + value);
    }
  };
  branch(node->true_branch);
  emit_line(out, indent, "else:");
  branch(node->false_branch);
}

void RelaxPrinter::statement_form(const relax::Expr& e, int indent, std::string& out) {
  if (const auto* node = e.as<relax::IfNode>()) {
    if_statement(node, std::string(), std::string(), indent, out);
    return;
  }
  emit_line(out, indent, seq_bindings(e, indent, out));
}

// ---------------------------------------------------------------- Functions

void RelaxPrinter::function(const relax::FunctionNode* func, const std::string& name, int indent,
                            std::string& out) {
  function_def(func, name, /*top_level=*/true, indent, out);
}

void RelaxPrinter::function_def(const relax::FunctionNode* func, const std::string& name,
                                bool top_level, int indent, std::string& out) {
  NameScope scope(ctx_.names);
  std::vector<const tir::VarNode*> shape_vars;
  bool refers_to_module = false;
  if (top_level) {
    std::unordered_set<const Object*> listed;
    auto visit = [&](const Object* node) {
      if (node->kind() == NodeKind::TirVar && listed.insert(node).second) {
        shape_vars.push_back(static_cast<const tir::VarNode*>(node));
      }
      refers_to_module = refers_to_module || node->kind() == NodeKind::RelaxGlobalVar;
      return true;
    };
    for (const relax::Var& param : func->params) walk(param.get(), visit);
    walk(func->ret_struct_info.get(), visit);
    walk(func->body.get(), visit);
    for (const tir::VarNode* var : shape_vars) {
      ctx_.names.define(var, var->name, "v", /*outermost=*/true);
    }
  }

  std::vector<std::string> flags;
  if (!func->is_pure) flags.push_back("pure=False");
  const AttrValue* symbol = func->attrs.find("global_symbol");
  if (top_level && symbol == nullptr) flags.push_back("private=True");
  emit_line(out, indent, "@" + r("function") + (flags.empty() ? "" : "(" + join(flags) + ")"));

  in_signature_ = top_level;
  std::vector<std::string> params;
  for (const relax::Var& param : func->params) {
    if (!param.defined()) continue;
    std::string param_name = define_var(param.get());
    params.push_back(param_name + ": " + struct_info(param->struct_info));
  }
  std::string ret;
  if (func->ret_struct_info.defined()) ret = " -> " + struct_info(func->ret_struct_info);
  in_signature_ = false;
  emit_line(out, indent, "def " + name + "(" + join(params) + ")" + ret + ":");

  int inner = indent + 1;
  Attrs attrs = func->attrs;
  if (symbol != nullptr && symbol->kind == AttrValue::Kind::String && symbol->s == name) {
    attrs = attrs.without("global_symbol");
  }
  if (!attrs.empty()) emit_line(out, inner, r("func_attr") + "(" + format_attr_dict(attrs) + ")");
  for (const tir::VarNode* var : shape_vars) {
    emit_line(out, inner, *ctx_.names.find(var) + " = " + tir_.var_declaration(var));
  }
  if (refers_to_module) emit_line(out, inner, "cls = Module");
  std::string value = seq_bindings(func->body, inner, out);
  emit_line(out, inner, "return " + value);
}

}  // namespace relaxc::text
