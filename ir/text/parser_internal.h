// What the parts of the text-format parser share: the name scopes, argument binding
// for the T./R. functions, literal helpers, and the PrimExpr builder that both
// TensorIR bodies and Relax shapes use. Internal to ir/text.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "ir/relax/block_builder.h"
#include "ir/relax/op_registry.h"
#include "ir/text/parser.h"
#include "ir/text/python_ast.h"

namespace relaxc::text {

// ---------------------------------------------------------------- Names

// What a name stands for while a function body is built.
struct Symbol {
  enum class Kind : uint8_t { PrimVar, Buffer, RelaxValue, Module };
  Kind kind = Kind::PrimVar;
  tir::Var prim_var;
  tir::Buffer buffer;
  relax::Expr relax_value;  // a Var, DataflowVar, or the Var of a local function

  static Symbol of_prim_var(tir::Var v);
  static Symbol of_buffer(tir::Buffer b);
  static Symbol of_relax(relax::Expr e);
  static Symbol of_module();
};

// Nested frames of names; an inner frame hides outer names of the same spelling.
class Scope {
 public:
  Scope() { push(); }
  void push() { frames_.emplace_back(); }
  void pop() { frames_.pop_back(); }
  void define(const std::string& name, Symbol symbol) { frames_.back()[name] = std::move(symbol); }
  const Symbol* lookup(const std::string& name) const;

 private:
  std::vector<std::unordered_map<std::string, Symbol>> frames_;
};

// Pushes a frame for its lifetime.
class ScopeFrame {
 public:
  explicit ScopeFrame(Scope& scope) : scope_(scope) { scope_.push(); }
  ~ScopeFrame() { scope_.pop(); }
  ScopeFrame(const ScopeFrame&) = delete;
  ScopeFrame& operator=(const ScopeFrame&) = delete;

 private:
  Scope& scope_;
};

// The module being parsed, as function bodies see it.
// The constants that `metadata["relax.expr.Constant"][i]` refers to, loaded on first use.
struct MetadataTable {
  MetadataLoader load;  // null: references are refused
  std::optional<std::vector<HostTensor>> tensors;
  // One node per index, as the printer writes one index per node.
  std::map<int64_t, relax::Expr> nodes;
};

struct ModuleContext {
  std::string class_name;                           // "Module"
  std::map<std::string, relax::GlobalVar> globals;  // every function of the module
  MetadataTable* metadata = nullptr;
};

// ---------------------------------------------------------------- Calls

// Binds a call's arguments to the parameters `names` of `callee` ("T.axis.spatial",
// for messages): positional arguments first, then keywords. The first `required`
// parameters must be given. Returns one entry per name, nullptr where absent. Too many
// arguments, an unknown or repeated keyword, or a missing argument is a UserError.
std::vector<const PyExpr*> bind_arguments(const PyCall& call, const std::string& callee,
                                          const std::vector<std::string>& names, size_t required);

// The keyword argument `name` of `call`, or nullptr.
const PyExpr* keyword_argument(const PyCall& call, const std::string& name);

// The call `e` if it calls the dotted name `callee` ("T.int64"), else nullptr.
const PyCall* as_call_of(const PyExpr& e, const std::string& callee);
// The dotted name that `e` calls ("R.add"), or "" if `e` is no call of a dotted name.
std::string called_name(const PyExpr& e);

// The (name, value) pairs of a parallel assignment `n, m = T.int64(), T.int64()` (as TVM
// declares several shape variables on one line); empty if `a` is not one: its target is
// not a tuple of names, or its value not a tuple of as many items.
std::vector<std::pair<const PyName*, const PyExpr*>> parallel_assignment(const PyAssign& a);

// The indices of a buffer subscript: none for `A[()]` (how TVM writes a 0-d buffer's only
// element), else one per item of `A[i, j]`.
std::vector<const PyExpr*> buffer_indices(const PySubscript& s);

// ---------------------------------------------------------------- Literals

// A data type given as a string ("float32"); `allow_void` accepts "" (unknown).
DataType parse_dtype(const PyExpr& e, bool allow_void = false);
// The value of a string literal; UserError naming `what` otherwise.
std::string expect_string(const PyExpr& e, const std::string& what);
// An integer literal (possibly negated); UserError naming `what` otherwise.
int64_t expect_int(const PyExpr& e, const std::string& what);
// A bool literal; UserError naming `what` otherwise.
bool expect_bool(const PyExpr& e, const std::string& what);
// A number literal, possibly negated, as a double; nullopt if `e` is not one.
std::optional<double> number_literal(const PyExpr& e, bool* is_int);

// An attribute value: a literal (None, bool, int, float, string, possibly typed as
// T.int32(4) or T.float32(0.5)) or a list/tuple of them.
AttrValue parse_attr_value(const PyExpr& e);
// {"key": value, ...} with string keys, sorted by key (function and block attributes).
Attrs parse_attr_dict(const PyExpr& e);

// ---------------------------------------------------------------- PrimExprs

// How to read PrimExprs in one place of the program.
struct PrimExprContext {
  // The type of a bare integer literal: int32 in TensorIR, int64 in Relax shapes.
  DataType int_literal = DataType::Int(32);
  // In Relax, a string holds an expression ("n * 4")...
  bool strings_are_expressions = false;
  // ...and in a Relax signature, a name in such a string that is not in scope declares
  // a new int64 shape variable.
  bool signature = false;
  // Set while the inside of a string is read.
  bool inside_string = false;
};

// Builds PrimExprs from Python expressions: names from `scope`, literals typed per the
// context, operators, buffer loads, and the T. functions (typed literals, casts,
// select, ramp, broadcast, let, min/max, division forms, intrinsics).
class PrimExprParser {
 public:
  explicit PrimExprParser(Scope& scope) : scope_(scope) {}

  tir::PrimExpr parse(const PyExpr& e, const PrimExprContext& ctx = {});
  // A buffer named by `e` (a name bound to a buffer); UserError otherwise.
  tir::Buffer buffer(const PyExpr& e) const;
  // A region: A[i, 0:4] (a point or a slice per dimension) or A (the whole buffer).
  tir::BufferRegion region(const PyExpr& e);

 private:
  tir::PrimExpr parse_name(const PyName& name, const PrimExprContext& ctx);
  tir::PrimExpr parse_string(const PyString& s, const PrimExprContext& ctx);
  tir::PrimExpr parse_unary(const PyUnary& u, const PrimExprContext& ctx);
  tir::PrimExpr parse_binary(const PyBinary& b, const PrimExprContext& ctx);
  tir::PrimExpr parse_compare(const PyCompare& c, const PrimExprContext& ctx);
  tir::PrimExpr parse_load(const PySubscript& s, const PrimExprContext& ctx);
  tir::PrimExpr parse_call(const PyCall& call, const PrimExprContext& ctx);
  tir::PrimExpr limit_value(const PyCall& call, bool greatest);
  tir::PrimExpr parse_intrinsic(const PyCall& call, const std::string& script_name,
                                const PrimExprContext& ctx);

  Scope& scope_;
};

// Whether the integer `value` is a value of `dtype` (any value is one of a float type).
bool literal_fits(int64_t value, DataType dtype);
// A literal converted to `dtype` (the type of the other operand or of the buffer it is
// stored in) when its value is one of `dtype`; anything else is returned as it is.
tir::PrimExpr convert_literal(const tir::PrimExpr& e, DataType dtype);
// Brings the operands of `op` to one type by converting a literal; a UserError at `span`
// if they still differ.
void match_operand_types(tir::PrimExpr& a, tir::PrimExpr& b, const std::string& op, Span span);

// ---------------------------------------------------------------- Functions

// What a function's decorator says: @T.prim_func(private=True), @R.function(pure=False).
struct DecoratorFlags {
  bool is_private = false;
  bool pure = true;
};
// The dotted name of a definition's decorator ("R.function" for @R.function(...)), or ""
// when it has none.
std::string decorator_name(const PyFunctionDef& def);
// The flags of the one decorator of `def`, which names `name`. Only R.function takes
// `pure`, only T.prim_func `s_tir`; `check_well_formed` and `s_tir` are accepted and
// have no effect (checking is a separate step here; both block spellings are read).
DecoratorFlags parse_decorator(const PyFunctionDef& def, const std::string& name);

// Builds a TensorIR function from its definition (decorated with T.prim_func); it
// gets the attribute `global_symbol` unless the decorator says private=True.
tir::PrimFunc parse_prim_func(const PyFunctionDef& def);

// Builds Relax functions through one BlockBuilder, so that every expression gets its
// StructInfo as it is built and functions can call each other (relax_parser.cc:
// functions and statements; relax_expr_parser.cc: expressions and StructInfo).
class RelaxParser {
 public:
  RelaxParser(const ModuleContext& module, relax::BlockBuilder& builder);

  // The FuncStructInfo of a @R.function's signature (for calls before it is built).
  relax::StructInfo signature(const PyFunctionDef& def);
  // The whole function, with the attribute `global_symbol` unless it is private.
  relax::Function function(const PyFunctionDef& def);

 private:
  // How the statements being read are bound.
  struct BlockState {
    bool dataflow = false;
    // In a dataflow block: the statements whose binding R.output lists (bound to Vars).
    std::unordered_set<const PyStmt*> outputs;
  };
  // The result of an if/else branch: the name it assigns last and the value.
  struct BranchResult {
    std::string name;
    Span name_span;
    relax::Expr value;
    const PyExpr* annotation = nullptr;
  };

  // ---- Functions and statements (relax_parser.cc).
  struct Signature {
    std::vector<relax::Var> params;
    relax::StructInfo ret;  // null without a return annotation
  };
  Signature parse_signature(const PyFunctionDef& def);
  relax::Function build_function(const PyFunctionDef& def, const DecoratorFlags& flags,
                                 bool is_global, const relax::Var& self);
  void declare_shape_vars(const PyBody& body);
  void parse_statement(const PyStmt& s, BlockState& state);
  void parse_assign(const PyAssign& a, BlockState& state);
  bool parse_declaration(const PyName& name, const PyExpr& value);
  void parse_expr_statement(const PyExprStmt& s, const BlockState& state);
  void parse_dataflow(const PyWith& w, const BlockState& state);
  std::string parse_if(const PyIf& s, const BlockState& state);
  BranchResult parse_branch(const PyBody& body, Span span);
  void parse_local_function(const PyFunctionDef& def, const BlockState& state);
  relax::VarKind var_kind(const PyStmt& s, const BlockState& state) const;

  // ---- Expressions and StructInfo (relax_expr_parser.cc).
  relax::Expr expr(const PyExpr& e);
  relax::Expr name_expr(const PyName& name);
  relax::Expr attribute_expr(const PyAttribute& a);
  relax::Expr call_expr(const PyCall& call);
  relax::Expr operator_call(const PyCall& call, const relax::OpInfo& op);
  relax::Expr builtin_call(const PyCall& call, const std::string& name);
  relax::Expr python_operator(const std::string& op, Span span, std::vector<relax::Expr> args);
  relax::Expr constant(const PyCall& call);
  // metadata["relax.expr.Constant"][i] when `s` is that reference, else null.
  relax::Expr metadata_constant(const PySubscript& s);
  relax::GlobalVar global(const PyAttribute& a) const;
  std::vector<relax::StructInfo> sinfo_args(const PyExpr& e);
  relax::StructInfo struct_info(const PyExpr& e);
  relax::StructInfo tensor_struct_info(const PyCall& call);
  std::vector<tir::PrimExpr> dims(const PyExpr& e);
  tir::PrimExpr dim(const PyExpr& e);
  PrimExprContext prim_context() const;
  // R.match_cast(value, SI): the StructInfo, with `*value` set to the value argument.
  relax::StructInfo match_cast_args(const PyCall& call, const PyExpr** value);
  // Whether `name` is free to mean the T. or R. namespace (no local shadows it).
  bool is_namespace(const std::string& root) const;

  const ModuleContext& module_;
  relax::BlockBuilder& builder_;
  Scope scope_;
  PrimExprParser prims_;
  // While a signature is read, strings in it declare shape variables.
  bool in_signature_ = false;
  // The DataflowVars of the dataflow blocks that have ended. A use of one is refused here
  // (spec rule 1): consecutive dataflow blocks are merged into one as they are built, so
  // the checker could no longer see that the use is in another block.
  std::unordered_set<const relax::ExprNode*> ended_dataflow_vars_;
};

}  // namespace relaxc::text
