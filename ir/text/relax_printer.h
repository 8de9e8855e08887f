// The Relax half of the printer: StructInfo, expressions, bindings and functions in
// TVMScript's `R.` dialect (docs/text_format.md).
#pragma once

#include <string>
#include <vector>

#include "ir/relax/expr.h"
#include "ir/text/tir_printer.h"

namespace relaxc::text {

class RelaxPrinter {
 public:
  RelaxPrinter(PrintContext& ctx, TirPrinter& tir) : ctx_(ctx), tir_(tir) {}

  // A module-level function: decorator, signature (shape variables as strings), then
  // `R.func_attr`, the declarations of the shape variables it uses, `cls = Module` if it
  // refers to another function, and its body.
  void function(const relax::FunctionNode* func, const std::string& name, int indent,
                std::string& out);

  std::string struct_info(const relax::StructInfo& sinfo);
  // A leaf expression or call, as it appears on the right of a binding.
  std::string expr(const relax::Expr& e);
  void binding(const relax::BindingNode* binding, int indent, std::string& out);
  void binding_block(const relax::BindingBlockNode* block, int indent, std::string& out);
  // An If or SeqExpr on its own (print_node): statements, the value last.
  void statement_form(const relax::Expr& e, int indent, std::string& out);

 private:
  std::string r(const char* name);
  std::string var_name(const relax::VarNode* var);
  std::string define_var(const relax::VarNode* var);
  // `name: SI` for the variable a binding defines (its StructInfo printed first).
  std::string annotated_target(const relax::VarNode* var);

  // `@R.function def name(...):` and its body; a nested one names no module-level
  // declarations and writes its shape variables by name.
  void function_def(const relax::FunctionNode* func, const std::string& name, bool top_level,
                    int indent, std::string& out);
  void if_statement(const relax::IfNode* node, const std::string& target,
                    const std::string& annotation, int indent, std::string& out);
  // The bindings of a SeqExpr (or nothing for another expression); returns the value.
  std::string seq_bindings(const relax::Expr& e, int indent, std::string& out);

  // A shape dimension or PrimStructInfo value; in a module-level signature, one that
  // refers to a shape variable is written as a string ("n * 4").
  std::string shape_value(const tir::PrimExpr& e, LiteralStyle style);
  std::string call(const relax::CallNode* call);
  // A call of a registered operator: R.name(positional, attributes, StructInfo arguments,
  // optional arguments by keyword).
  std::string op_call(const relax::CallNode* call, const relax::OpNode* op);
  // `out_sinfo=SI` / `out_sinfo=[SI, SI]` or `sinfo_args=(SI,)`.
  std::string sinfo_argument(const std::string& keyword,
                             const std::vector<relax::StructInfo>& sinfo_args);
  std::string constant(const relax::ConstantNode* constant);

  PrintContext& ctx_;
  TirPrinter& tir_;
  bool in_signature_ = false;
};

}  // namespace relaxc::text
