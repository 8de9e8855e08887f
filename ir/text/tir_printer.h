// The TensorIR half of the printer: PrimExprs, statements, blocks and PrimFuncs in
// TVMScript's `T.` dialect (docs/text_format.md).
#pragma once

#include <string>
#include <vector>

#include "ir/text/printer.h"
#include "ir/text/printer_names.h"
#include "ir/tir/stmt.h"

namespace relaxc::text {

// What the TensorIR and Relax printers share while printing one function (or one
// node): the name table, the nesting depth, and which dialect prefixes the text uses
// (for the module's `# from tvm.script import ...` lines).
struct PrintContext {
  NameTable names;
  int depth = 0;
  bool uses_tir = false;
  bool uses_relax = false;
  // Where large constants go when the module is printed with a side file (see
  // print_module); null: every constant is printed inline.
  MetadataConstants* metadata = nullptr;
};

// How integer literals are written: TensorIR's rule (int32 bare, `T.int64(4)` for
// other types), the one of Relax shapes (int64 bare, `T.int32(4)` for other types), or
// the one of Relax values (R.prim_value, R.Prim(value=...)): every literal typed, since
// a bare one reads as int64 there but int64 prints typed, as TVM writes it.
enum class LiteralStyle { Tir, RelaxShape, RelaxValue };

class TirPrinter {
 public:
  explicit TirPrinter(PrintContext& ctx) : ctx_(ctx) {}

  // A PrimExpr with Python precedence and minimal parentheses.
  std::string expr(const tir::PrimExpr& e, LiteralStyle style = LiteralStyle::Tir);
  // `stmt` as the statements of a body at `indent` ("pass" if it has none).
  void body(const tir::Stmt& stmt, int indent, std::string& out);
  // `@T.prim_func def name(...):` and its body.
  void prim_func(const tir::PrimFuncNode* func, const std::string& name, int indent,
                 std::string& out);

  // `T.int64()`, `T.int64(is_size_var=True)`: the declaration of a free variable.
  std::string var_declaration(const tir::VarNode* var);
  // `T.int32`, `T.handle`: a scalar parameter's annotation.
  std::string type_annotation(DataType dtype);

  // Single nodes, for print_node.
  std::string buffer_annotation(const tir::BufferNode* buffer);    // A: T.Buffer((4,), "int8")
  std::string buffer_region(const tir::BufferRegionNode* region);  // A[vi, 0:64]
  std::string range(const tir::RangeNode* range);                  // 0:64
  std::string iter_var(const tir::IterVarNode* iter_var);          // vi = T.axis.spatial(64)
  std::string match_buffer(const tir::MatchBufferRegionNode* match);

 private:
  // A printed expression and its Python precedence (higher binds tighter).
  struct Doc {
    std::string text;
    int precedence;
  };

  Doc print(const tir::PrimExpr& e);
  Doc int_literal(DataType dtype, int64_t value);
  Doc binary(const tir::PrimExpr& a, const tir::PrimExpr& b, const char* op, int precedence);
  Doc call(const tir::CallNode* call);
  // `min + extent`, folded when both are constants (as TVM's operator+ does).
  Doc end_of(const tir::PrimExpr& min, const tir::PrimExpr& extent);
  std::string t(const char* name);

  std::string var_name(const tir::VarNode* var);
  std::string buffer_name(const tir::BufferNode* buffer);
  std::string define_buffer(const tir::BufferNode* buffer);
  std::string define_var(const tir::VarNode* var);
  // Positional and keyword arguments that declare a buffer: shape, dtype, strides, ...
  std::string buffer_arguments(const tir::BufferNode* buffer, std::vector<std::string> leading);

  // Prints `stmt`; `last` when nothing follows it in its body, so that a LetStmt or
  // Allocate may be written as an assignment scoping over the rest.
  void stmt(const tir::Stmt& stmt, int indent, bool last, std::string& out);
  // One statement other than a sequence (LetStmt and Allocate in their `with` form).
  void single_stmt(const tir::Stmt& stmt, int indent, std::string& out);
  void for_loop(const tir::ForNode* loop, int indent, std::string& out);
  void block(const tir::BlockNode* block, const tir::BlockRealizeNode* realize, int indent,
             std::string& out);
  void iter_vars(const tir::BlockNode* block, const tir::BlockRealizeNode* realize, int indent,
                 std::string& out);
  bool remappable(const tir::IterVarNode* iter_var, const tir::PrimExpr& binding);
  std::string domain(const tir::RangeNode* dom);

  PrintContext& ctx_;
  LiteralStyle style_ = LiteralStyle::Tir;
  // Loops enclosing the statement being printed, for T.axis.remap.
  std::vector<const tir::ForNode*> loops_;
};

}  // namespace relaxc::text
