// BlockBuilder, the normalizer: the only way Relax bindings and non-leaf expressions
// are made. Every expression it returns has its StructInfo and is in the spec's normal
// form: non-leaf arguments are bound to variables in the current block, function
// bodies and If branches are SeqExprs, blocks are consolidated.
#pragma once

#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/module.h"
#include "ir/relax/expr.h"

namespace relaxc::relax {

enum class VarKind { Var, DataflowVar };

class BlockBuilder {
 public:
  // `module` is what calls of GlobalVars resolve against (for their StructInfo).
  explicit BlockBuilder(IRModule module = {});
  ~BlockBuilder();
  BlockBuilder(const BlockBuilder&) = delete;
  BlockBuilder& operator=(const BlockBuilder&) = delete;

  const IRModule& module() const;
  // Sets the StructInfo that calls of `gv` see (for functions not yet in module()).
  void declare_global(const GlobalVar& gv, StructInfo sinfo);
  // The StructInfo of a call target `gv`, or null if unknown.
  StructInfo global_struct_info(const std::string& name) const;

  // ---- Scopes. A SeqExpr (function body, If branch) is built in a scope: open it,
  // emit into blocks, close it with its body expression.
  void begin_scope();
  // Opens the scope of a function body: the shape variables of `params`' StructInfo
  // are defined in it (so that StructInfo leaving the scope keeps them).
  void begin_scope(const std::vector<Var>& params);
  // Closes the innermost scope; returns SeqExpr(blocks, body) where body is a leaf
  // (a non-leaf body is bound to a variable in a final block).
  Expr end_scope(Expr body, Span span = {});

  // Opens a block in the current scope. Emitting with no open block opens a plain one.
  void begin_block(bool dataflow);
  // Closes the current block (empty blocks are dropped, neighbours of one kind merged).
  void end_block();
  bool in_dataflow_block() const;

  // ---- Bindings in the current block.
  // Binds `value` to a new variable of `kind` (a DataflowVar only inside a dataflow
  // block). With an annotation, the value's StructInfo must fit it (UserError
  // otherwise: a static mismatch, or a value less specific than the annotation, which
  // needs R.match_cast); the variable then carries the annotation.
  Var emit(Expr value, std::string name_hint = {}, VarKind kind = VarKind::Var,
           StructInfo annotation = {}, Span span = {});
  // Binds `value` to a new variable after checking it against `sinfo` at run time;
  // new shape variables in `sinfo` become bound.
  Var emit_match_cast(Expr value, StructInfo sinfo, std::string name_hint = {},
                      VarKind kind = VarKind::Var, Span span = {});
  // Re-emits an existing binding (for passes that keep variables as they are).
  void emit_binding(const Binding& binding);

  // ---- Non-leaf expressions, with inferred StructInfo. Non-leaf arguments are bound
  // to variables in the current block first.
  Expr call(Expr op, std::vector<Expr> args, std::vector<StructInfo> sinfo_args = {},
            Attrs attrs = {}, Span span = {});
  // A call of the registered operator `op_name` ("relax.add"); attributes are checked
  // against the operator's schema and put in its order, with defaults filled in.
  Expr call_op(const std::string& op_name, std::vector<Expr> args,
               std::vector<StructInfo> sinfo_args = {}, Attrs attrs = {}, Span span = {});
  Expr tuple(std::vector<Expr> fields, Span span = {});
  Expr tuple_get_item(Expr tuple, int index, Span span = {});
  // Branches are SeqExprs from end_scope (or leaves, which get wrapped).
  Expr if_then_else(Expr cond, Expr true_branch, Expr false_branch, Span span = {});
  // `body` is a SeqExpr from end_scope; with ret_struct_info given, the body's
  // StructInfo must fit it.
  Function function(std::vector<Var> params, Expr body, StructInfo ret_struct_info = {},
                    bool is_pure = true, Attrs attrs = {}, Span span = {});

  // Re-infers StructInfo for `expr` whose children are normalized (a node a pass
  // rebuilt with new children) and puts it in normal form.
  Expr normalize(Expr expr);

  // The analyzer that compares dimensions (operators' inference uses it).
  arith::Analyzer& analyzer() const;

 private:
  struct Impl;
  Impl* impl_;
};

// Normalizes every Relax function of `module` (the pass registered as "normalize").
IRModule normalize_module(const IRModule& module);

}  // namespace relaxc::relax
