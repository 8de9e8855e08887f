// Internals of the well-formedness checker, shared by its files: the Relax checker's
// state (variable and shape-variable scopes), the diagnostic sink and the TIR check.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "ir/support/diagnostics.h"

namespace relaxc::relax::well_formed {

// Recursion into nested IR stops here (with a diagnostic), so that no input can
// exhaust the stack.
inline constexpr int kMaxNestingDepth = 512;

// Collects diagnostics, dropping exact repeats (one use reported once per place).
class Reporter {
 public:
  explicit Reporter(DiagnosticList* diagnostics) : diagnostics_(diagnostics) {}
  void error(Span span, std::string message);

 private:
  DiagnosticList* diagnostics_;
  std::set<std::tuple<const SourceFile*, uint32_t, uint32_t, std::string>> seen_;
};

// Counts recursion depth; ok() is false past kMaxNestingDepth.
class DepthGuard {
 public:
  DepthGuard(int* depth, Reporter* reporter, bool* reported, Span span);
  ~DepthGuard() { --*depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;
  bool ok() const { return ok_; }

 private:
  int* depth_;
  bool ok_;
};

// Calls visit(node) once for every node reachable from `root` through declared fields
// (RELAXC_FIELDS), `root` included. Iterative: deep IR cannot exhaust the stack.
void for_each_reachable_node(const Object* root, const std::function<void(const Object*)>& visit);

// "a Call", "an If": how a Relax expression's kind is named in messages.
std::string describe_expr_kind(const Object* expr);

// "a variable 'n'", "an Add expression": how a PrimExpr is named in messages.
std::string describe_prim_expr(const tir::PrimExpr& e);

// Walks a PrimExpr and reports what it reads: on_var(var, span) for every TIR variable
// except those bound by a Let inside it, on_load(load, span) for every buffer load
// in it. `span` is that of the innermost located node other than a variable (a
// variable's span is its declaration). Reports an integer division or remainder by the
// constant 0, a cast to or from a handle and arithmetic on booleans. Stops (and reports) past
// kMaxNestingDepth.
class PrimExprUses {
 public:
  using VarFn = std::function<void(const tir::VarNode*, Span)>;
  using LoadFn = std::function<void(const tir::BufferLoadNode*, Span)>;
  PrimExprUses(Reporter* reporter, VarFn on_var, LoadFn on_load = {})
      : reporter_(reporter), on_var_(std::move(on_var)), on_load_(std::move(on_load)) {}
  void visit(const tir::PrimExpr& e, Span span);

 private:
  void visit_rec(const tir::PrimExpr& e, Span span);
  void check_division(const tir::PrimExpr& e, Span span);
  void check_cast(const tir::PrimExpr& e, Span span);
  void check_bool_arithmetic(const tir::PrimExpr& e, Span span);
  Reporter* reporter_;
  VarFn on_var_;
  LoadFn on_load_;
  std::vector<const tir::VarNode*> let_bound_;
  int depth_ = 0;
  bool depth_reported_ = false;
};

// The TensorIR checks: variables and buffers used but not defined, block iteration
// variables without iteration values.
void check_prim_func(const std::string& name, const tir::PrimFuncNode* func, Reporter* reporter);

// What the module says about its global functions, for the Relax checks.
struct ModuleFacts {
  const IRModuleNode* module = nullptr;
  // Names of global functions that reach each other through calls (mutual recursion):
  // the pair (a, b) is present when a reaches b and b reaches a (a reaches a when it is
  // recursive).
  std::set<std::pair<std::string, std::string>> recursive_pairs;
};

// Where a StructInfo annotation sits, for messages and for which rules apply.
struct AnnotationSite {
  enum class Kind : uint8_t {
    kVariable,  // a parameter's or a binding variable's annotation (rule 10)
    kOther,     // R.match_cast's StructInfo, a return annotation, sinfo_args
  };
  std::string description;  // "the annotation of 'lv0'"
  Span span;
  Kind kind = Kind::kOther;
  // The rule to cite for a shape variable out of scope: 6 for a signature, 4 for a
  // return annotation, 0 for the rule of the StructInfo kind (14, 15, 16).
  int scope_rule = 0;
};

// The Relax checks of one module, one function at a time.
class RelaxChecker {
 public:
  RelaxChecker(const ModuleFacts* facts, Reporter* reporter) : facts_(facts), reporter_(reporter) {}
  void check_global_function(const GlobalVarNode* name, const FunctionNode* func);

 private:
  // Where an expression sits: a binding's right-hand side, an operand that normal form
  // wants to be a leaf, a callee, or the body of a SeqExpr.
  enum class Position : uint8_t { kBindingValue, kOperand, kCallee, kSeqBody };

  enum class VarUse : uint8_t {
    kOk,
    kCapturedDataflowVar,   // rule 11
    kOutsideDataflowBlock,  // rule 1
    kSelfReference,         // rule 2
    kOutOfScope,            // rule 2
    kBeforeBinding,         // rule 3
    kNeverBound,            // rule 2
  };
  enum class ShapeVarUse : uint8_t { kOk, kScopeEnded, kNotBound };

  struct VarState {
    bool in_scope = false;
    bool dataflow_block_ended = false;
    int function_depth = 0;
  };
  struct FunctionContext {
    std::string name;  // "function 'main'", "the local function 'f'"
    bool is_pure = true;
    bool force_pure = false;
    const VarNode* self = nullptr;  // a local function's own variable
  };

  // ---- well_formed_relax.cc: scopes, bindings, expressions, normal form.
  void check_function(const FunctionNode* func, Span span, const std::string& name,
                      const VarNode* self);
  void check_params(const FunctionNode* func, Span span, const std::string& name);
  // `owner` names the SeqExpr ("the body of function 'f'"), `result_site` its body.
  void check_seq_expr(const SeqExprNode* seq, Span span, const std::string& owner,
                      const std::string& result_site);
  void check_block_layout(const SeqExprNode* seq, Span span, const std::string& owner);
  void check_block(const BindingBlockNode* block);
  void check_binding(const BindingNode* binding);
  void check_expr(const Expr& expr, Position position, Span span);
  void check_non_leaf_position(const ExprNode* expr, Position position, Span span);
  void check_call(const CallNode* call, Span span);
  void check_call_effects(const CallNode* call, Span span);
  void check_branch(const Expr& branch, Span span, const std::string& where);
  void check_var_use(const VarNode* var, Span span);
  void check_global_use(const GlobalVarNode* gv, Span span);
  void check_shape_expr_uses(const tir::PrimExpr& e, Span span, const std::string& what);
  void define_var(const VarNode* var, Span span, bool is_param);
  VarUse classify_var_use(const VarNode* var) const;
  void push_var_frame();
  void pop_var_frame();
  std::string callee_name(const Expr& op) const;
  // Whether calling `op` is known to be impure.
  bool callee_is_impure(const Expr& op) const;

  // ---- well_formed_struct_info.cc: annotations and shape variables.
  void check_struct_info(const StructInfo& sinfo, const AnnotationSite& site);
  void check_struct_info_rec(const StructInfo& sinfo, const AnnotationSite& site);
  void check_tensor_struct_info(const TensorStructInfoNode* tensor, const AnnotationSite& site);
  void check_shape_struct_info(const ShapeStructInfoNode* shape, const AnnotationSite& site);
  void check_prim_struct_info(const PrimStructInfoNode* prim, const AnnotationSite& site);
  void check_func_struct_info(const FuncStructInfoNode* func, const AnnotationSite& site);
  void check_annotation_dtype(DataType dtype, const AnnotationSite& site);
  void check_annotation_shape_vars(const tir::PrimExpr& e, const AnnotationSite& site,
                                   int kind_rule);
  // Binds the shape variables that `sinfo` has in binding positions (a dimension, a
  // shape value or a prim value that is a variable alone) and are not yet in scope.
  void define_binding_positions(const StructInfo& sinfo, int depth = 0);
  void define_shape_var(const tir::VarNode* var);
  ShapeVarUse classify_shape_var_use(const tir::VarNode* var) const;
  void push_shape_frame();
  void pop_shape_frame();

  void error(Span span, std::string message) { reporter_->error(span, std::move(message)); }

  const ModuleFacts* facts_;
  Reporter* reporter_;

  // Per global function.
  std::string global_name_;
  std::unordered_set<const VarNode*> bound_in_function_;  // every Var any binding defines
  std::unordered_map<const VarNode*, VarState> vars_;
  std::vector<std::vector<const VarNode*>> var_frames_;
  size_t seq_frame_ = 0;  // the frame of the innermost SeqExpr
  // Every shape variable bound so far, and whether it is still in scope.
  std::unordered_map<const tir::VarNode*, bool> shape_vars_;
  std::vector<std::vector<const tir::VarNode*>> shape_frames_;
  // A shape variable out of scope is reported once: the StructInfo derived from its
  // first use repeats it in later annotations.
  std::unordered_set<const tir::VarNode*> reported_shape_vars_;
  // Negative dimensions reported: StructInfo derived from an annotation shares its
  // dimensions, and one mistake is reported once, where it is first seen.
  std::unordered_set<const tir::PrimExprNode*> reported_negative_dims_;
  std::vector<FunctionContext> functions_;
  bool in_dataflow_ = false;
  const VarNode* binding_var_ = nullptr;  // the variable of the binding being checked
  bool binding_is_function_ = false;      // ... whose value is a local function
  std::string site_;                      // "the binding of 'lv0'", for messages
  int depth_ = 0;
  bool depth_reported_ = false;

  // Across the module: a Var is bound once in the whole program.
  std::unordered_set<const VarNode*> bound_in_module_;
};

}  // namespace relaxc::relax::well_formed
