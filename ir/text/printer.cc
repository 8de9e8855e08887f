// The printer of the text format: modules and single nodes (TVMScript, as TVM 0.23
// writes it). The TensorIR and Relax halves live in tir_printer.cc and relax_printer.cc.
#include "ir/text/printer.h"

#include "ir/text/printer_common.h"
#include "ir/text/relax_printer.h"
#include "ir/text/tir_printer.h"

namespace relaxc::text {

namespace {

// The name a function printed on its own goes by: its global symbol, else "main" (as
// TVM names a function outside a module).
std::string standalone_name(const Attrs& attrs) {
  const AttrValue* symbol = attrs.find("global_symbol");
  return symbol != nullptr && symbol->kind == AttrValue::Kind::String && !symbol->s.empty()
             ? symbol->s
             : "main";
}

bool in_range(NodeKind kind, NodeKind after, NodeKind end) { return kind > after && kind < end; }

std::string without_final_newline(std::string text) {
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

}  // namespace

std::string print_module(const IRModule& module) { return print_module(module, nullptr); }

std::string print_module(const IRModule& module, MetadataConstants* metadata) {
  if (!module.defined()) return "None";
  std::string body;
  bool uses_tir = false;
  bool uses_relax = false;
  if (!module->attrs.empty()) {
    emit_line(body, 1, "I.module_attrs(" + format_attr_dict(module->attrs) + ")");
  }
  bool any_function = false;
  for (const auto& [global, func] : module->functions) {
    if (!global.defined() || !func.defined()) continue;
    // As in TVM, a blank line follows each function (the last one's is dropped).
    if (any_function) body += "\n";
    any_function = true;
    // Each function has its own names: functions refer to one another as cls.name.
    PrintContext ctx;
    ctx.metadata = metadata;
    TirPrinter tir(ctx);
    RelaxPrinter relax(ctx, tir);
    if (const auto* prim_func = func.as<tir::PrimFuncNode>()) {
      tir.prim_func(prim_func, global->name, 1, body);
    } else if (const auto* relax_func = func.as<relax::FunctionNode>()) {
      relax.function(relax_func, global->name, 1, body);
    }
    uses_tir = uses_tir || ctx.uses_tir;
    uses_relax = uses_relax || ctx.uses_relax;
  }
  if (body.empty()) emit_line(body, 1, "pass");

  std::string out = "# from tvm.script import ir as I\n";
  if (uses_tir) out += "# from tvm.script import tir as T\n";
  if (uses_relax) out += "# from tvm.script import relax as R\n";
  out += "\n@I.ir_module\nclass Module:\n";
  out += body;
  return out;
}

std::string print_node(const Ref<Object>& node) {
  if (!node.defined()) return "None";
  NodeKind kind = node->kind();
  if (kind == NodeKind::IRModule) return print_module(node.cast<IRModuleNode>());

  PrintContext ctx;
  TirPrinter tir(ctx);
  RelaxPrinter relax(ctx, tir);
  std::string out;
  if (in_range(kind, NodeKind::Invalid, NodeKind::TirExprEnd)) {
    return tir.expr(node.cast<tir::PrimExprNode>());
  }
  if (in_range(kind, NodeKind::TirExprEnd, NodeKind::TirStmtEnd)) {
    tir.body(node.cast<tir::StmtNode>(), 0, out);
    return without_final_newline(out);
  }
  if (in_range(kind, NodeKind::TirOtherEnd, NodeKind::StructInfoEnd)) {
    return relax.struct_info(node.cast<relax::StructInfoNode>());
  }
  switch (kind) {
    case NodeKind::TirRange:
      return tir.range(node.as<tir::RangeNode>());
    case NodeKind::TirIterVar:
      return tir.iter_var(node.as<tir::IterVarNode>());
    case NodeKind::TirBuffer:
      return tir.buffer_annotation(node.as<tir::BufferNode>());
    case NodeKind::TirBufferRegion:
      return tir.buffer_region(node.as<tir::BufferRegionNode>());
    case NodeKind::TirMatchBufferRegion:
      return tir.match_buffer(node.as<tir::MatchBufferRegionNode>());
    case NodeKind::TirPrimFunc: {
      const auto* func = node.as<tir::PrimFuncNode>();
      tir.prim_func(func, standalone_name(func->attrs), 0, out);
      return without_final_newline(out);
    }
    case NodeKind::RelaxFunction: {
      const auto* func = node.as<relax::FunctionNode>();
      relax.function(func, standalone_name(func->attrs), 0, out);
      return without_final_newline(out);
    }
    case NodeKind::RelaxIf:
    case NodeKind::RelaxSeqExpr:
      relax.statement_form(node.cast<relax::ExprNode>(), 0, out);
      return without_final_newline(out);
    case NodeKind::RelaxVarBinding:
    case NodeKind::RelaxMatchCast:
      relax.binding(node.as<relax::BindingNode>(), 0, out);
      return without_final_newline(out);
    case NodeKind::RelaxBindingBlock:
    case NodeKind::RelaxDataflowBlock:
      relax.binding_block(node.as<relax::BindingBlockNode>(), 0, out);
      return without_final_newline(out);
    default:
      break;
  }
  if (in_range(kind, NodeKind::StructInfoEnd, NodeKind::RelaxExprEnd)) {
    return relax.expr(node.cast<relax::ExprNode>());
  }
  return std::string("<") + node_kind_name(kind) + ">";
}

}  // namespace relaxc::text
