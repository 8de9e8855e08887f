// fold-constant: kernel calls whose inputs are all constants are evaluated at compile
// time and replaced by their results.
//
// Algorithm (after TVM's FoldConstant): an ExprMutator walks each Relax function in
// binding order and remembers the variables bound to constants (R.const, metadata
// constants, tuples of them and their items, and the results it folds itself). A
// binding whose value is R.call_tir(f, (args...), out_sinfo[, tir_vars]) is folded when
// f is a PrimFunc of the module, every argument is a known constant, the tir_vars and
// the output shapes are integers: the TensorIR interpreter (ir/tir/interpreter.h) runs
// f on copies of the constants and the binding becomes R.const of the output (a tuple
// of constants for several outputs). After legalize-ops every operator is such a call,
// so constant subgraphs fold in one walk, each folded result feeding the next; calls
// without tensor inputs (zeros, full, arange) fold too, up to 1024 elements (larger ones
// are cheap to compute at run time and would only grow the executable). A shape-only
// computation folds as well: R.shape_of of a tensor whose shape is static becomes that
// shape, R.shape([...]).
//
// Values are exact: only dtypes the interpreter holds exactly are folded (float16,
// float32, 8- to 32-bit integers, bool; 64-bit integers while every value stays within
// 2^53, which the interpreter checks on every store). Compile time stays small: a call
// whose loops run over 10^6 iterations (counted from the constant extents before it
// runs, else by the interpreter as it runs), or whose output passes 16 MiB, is left as
// it is, and so is one the interpreter refuses (an out-of-bounds access): the kernel
// then runs, and fails, as it would have. A PrimFunc already scheduled for a GPU
// (thread-bound loops) is left too: its threads may meet at barriers, and the
// interpreter runs them one after another.
#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "ir/tir/functor.h"
#include "ir/tir/interpreter.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

constexpr int64_t kMaxSteps = 8'000'000;
constexpr int64_t kMaxOutputBytes = int64_t{16} << 20;
constexpr int64_t kMaxCreatedElements = 1024;
constexpr int64_t kMaxExactInteger = int64_t{1} << 53;

bool exact_dtype(DataType t) {
  if (t.lanes() != 1) return false;
  if (t.is_bool()) return true;
  if (t.is_float()) return !t.is_bfloat() && (t.bits() == 16 || t.bits() == 32);
  return t.is_integer() && t.bits() <= 64;
}

// The constant's elements as a host array, or nothing if a value would not be exact.
std::optional<tir::HostArray> to_array(const HostTensor& tensor) {
  if (!exact_dtype(tensor.dtype)) return std::nullopt;
  tir::HostArray array{tensor.dtype, tensor.shape, {}};
  array.data.resize(static_cast<size_t>(tensor.num_elements()));
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    if (tensor.dtype.is_integer() && tensor.dtype.bits() == 64) {
      int64_t v = tensor.element_as_int(i);
      if (v > kMaxExactInteger || v < -kMaxExactInteger) return std::nullopt;
    }
    array.data[static_cast<size_t>(i)] = tensor.element_as_double(i);
  }
  return array;
}

// The static shape and dtype of a call_tir output, within the size limits.
std::optional<tir::HostArray> output_array(const StructInfo& sinfo) {
  const auto* tensor = sinfo.as<TensorStructInfoNode>();
  if (tensor == nullptr || !exact_dtype(tensor->dtype)) return std::nullopt;
  const std::vector<PrimExpr>* dims = tensor->shape_values();
  if (dims == nullptr) return std::nullopt;
  std::vector<int64_t> shape;
  int64_t bytes = tensor->dtype.bytes();
  for (const PrimExpr& dim : *dims) {
    const auto* value = dim.as<tir::IntImmNode>();
    if (value == nullptr || value->value < 0) return std::nullopt;
    shape.push_back(value->value);
    if (value->value != 0 && bytes > kMaxOutputBytes / value->value) return std::nullopt;
    bytes *= value->value;
  }
  return tir::zeros(tensor->dtype, std::move(shape));
}

// The loop iterations `stmt` runs at most, saturated at kMaxSteps + 1, or nothing when a
// loop's extent is not a constant (a shape variable, a while loop).
std::optional<int64_t> loop_iterations(const tir::Stmt& stmt) {
  auto sum = [](std::optional<int64_t> a, std::optional<int64_t> b) -> std::optional<int64_t> {
    if (!a || !b) return std::nullopt;
    return std::min(*a + *b, kMaxSteps + 1);
  };
  if (!stmt.defined()) return 0;
  if (const auto* loop = stmt.as<tir::ForNode>()) {
    const auto* extent = loop->extent.as<tir::IntImmNode>();
    std::optional<int64_t> body = loop_iterations(loop->body);
    if (extent == nullptr || !body) return std::nullopt;
    if (extent->value <= 0) return 0;
    int64_t per_iteration = *body + 1;
    if (extent->value > (kMaxSteps + 1) / per_iteration) return kMaxSteps + 1;
    return extent->value * per_iteration;
  }
  if (const auto* seq = stmt.as<tir::SeqStmtNode>()) {
    std::optional<int64_t> total = 0;
    for (const tir::Stmt& s : seq->seq) total = sum(total, loop_iterations(s));
    return total;
  }
  if (const auto* realize = stmt.as<tir::BlockRealizeNode>()) {
    return loop_iterations(realize->block);
  }
  if (const auto* block = stmt.as<tir::BlockNode>()) {
    return sum(loop_iterations(block->init), loop_iterations(block->body));
  }
  if (const auto* branch = stmt.as<tir::IfThenElseNode>()) {
    return sum(loop_iterations(branch->then_case), loop_iterations(branch->else_case));
  }
  if (const auto* let = stmt.as<tir::LetStmtNode>()) return loop_iterations(let->body);
  if (const auto* allocate = stmt.as<tir::AllocateNode>()) return loop_iterations(allocate->body);
  if (stmt.is<tir::WhileNode>()) return std::nullopt;
  return 0;
}

bool has_thread_bindings(const tir::PrimFuncNode& func) {
  bool found = false;
  tir::post_order_visit(func.body, [&](const Ref<Object>& node) {
    const auto* loop = node.as<tir::ForNode>();
    if (loop != nullptr && loop->kind == tir::ForKind::ThreadBinding) found = true;
  });
  return found;
}

class ConstantFolder final : public ExprMutator {
 public:
  using ExprMutator::ExprMutator;

 private:
  void visit_var_binding(const VarBindingNode* binding, const Binding& self) override {
    Expr folded = fold(binding->value);
    if (folded.defined()) {
      builder_.emit_binding(make_var_binding(binding->var, folded, binding->span));
      known_[binding->var.get()] = folded;
      return;
    }
    ExprMutator::visit_var_binding(binding, self);
    if (Expr value = known_value(binding->value); value.defined()) {
      known_[binding->var.get()] = value;
    }
  }

  // The constant (or tuple of constants) `expr` is known to be, or null.
  Expr known_value(const Expr& expr) const {
    if (expr.is<ConstantNode>()) return expr;
    if (const auto* var = expr.as<VarNode>()) {
      auto it = known_.find(var);
      return it != known_.end() ? it->second : Expr();
    }
    if (const auto* tuple = expr.as<TupleNode>()) {
      for (const Expr& field : tuple->fields) {
        if (!known_value(field).defined()) return {};
      }
      return expr;
    }
    if (const auto* item = expr.as<TupleGetItemNode>()) {
      const auto* tuple = known_value(item->tuple).as<TupleNode>();
      if (tuple == nullptr || item->index < 0 ||
          item->index >= static_cast<int>(tuple->fields.size())) {
        return {};
      }
      return known_value(tuple->fields[item->index]);
    }
    return {};
  }

  // The constant result of a call_tir of constants or of a shape_of, or null.
  Expr fold(const Expr& value) {
    const auto* call = value.as<CallNode>();
    if (call != nullptr && call->op.same_as(ops::shape_of())) return static_shape(*call);
    if (call == nullptr || !call->op.same_as(ops::call_tir())) return {};
    const auto* callee = call->args[0].as<GlobalVarNode>();
    tir::PrimFunc func = builder_.module()->prim_func(callee->name);
    const auto* inputs = call->args[1].as<TupleNode>();
    if (!func.defined() || inputs == nullptr || has_thread_bindings(*func)) return {};
    std::optional<int64_t> iterations = loop_iterations(func->body);
    if (iterations && *iterations > kMaxSteps) return {};

    std::vector<tir::HostArray> arrays;
    for (const Expr& input : inputs->fields) {
      const auto* constant = known_value(input).as<ConstantNode>();
      std::optional<tir::HostArray> array =
          constant != nullptr ? to_array(constant->data) : std::nullopt;
      if (!array) return {};
      arrays.push_back(std::move(*array));
    }
    size_t num_inputs = arrays.size();
    for (const StructInfo& sinfo : call->sinfo_args) {
      std::optional<tir::HostArray> array = output_array(sinfo);
      if (!array) return {};
      if (num_inputs == 0 && array->size() > kMaxCreatedElements) return {};
      arrays.push_back(std::move(*array));
    }
    std::optional<std::map<std::string, int64_t>> scalars = scalar_arguments(*call, *func);
    if (!scalars) return {};

    std::vector<tir::HostArray*> buffers;
    for (tir::HostArray& array : arrays) buffers.push_back(&array);
    try {
      tir::interpret(func, buffers, *scalars, kMaxSteps);
    } catch (const tir::InterpretError&) {
      return {};
    }

    std::vector<Expr> results;
    for (size_t i = num_inputs; i < arrays.size(); ++i) {
      const tir::HostArray& out = arrays[i];
      results.push_back(
          make_constant(HostTensor::from_doubles(out.dtype, out.shape, out.data), call->span));
    }
    if (results.size() == 1) return results[0];
    return builder_.tuple(std::move(results), call->span);
  }

  // R.shape([...]) of shape_of's tensor if its dimensions are all integers, or null.
  static Expr static_shape(const CallNode& call) {
    const auto* tensor = call.args[0]->struct_info.as<TensorStructInfoNode>();
    const std::vector<PrimExpr>* dims = tensor != nullptr ? tensor->shape_values() : nullptr;
    if (dims == nullptr) return {};
    for (const PrimExpr& dim : *dims) {
      if (!dim.is<tir::IntImmNode>()) return {};
    }
    return make_shape_expr(*dims, call.span);
  }

  // The values of the PrimFunc's scalar parameters, from the call's tir_vars.
  static std::optional<std::map<std::string, int64_t>> scalar_arguments(
      const CallNode& call, const tir::PrimFuncNode& f) {
    std::vector<PrimExpr> values;
    if (call.args.size() > 2) {
      const auto* shape = call.args[2].as<ShapeExprNode>();
      if (shape == nullptr) return std::nullopt;
      values = shape->values;
    }
    std::map<std::string, int64_t> scalars;
    size_t next = 0;
    for (const tir::Var& param : f.params) {
      if (f.buffer_of(param).defined()) continue;
      const auto* value = next < values.size() ? values[next++].as<tir::IntImmNode>() : nullptr;
      if (value == nullptr) return std::nullopt;
      scalars[param->name] = value->value;
    }
    return scalars;
  }

  // Variables known to hold a constant or a tuple of constants.
  std::unordered_map<const VarNode*, Expr> known_;
};

}  // namespace

IRModule fold_constant(const IRModule& module) {
  ConstantFolder folder(module);
  return map_relax_functions(module, [&](const Function& f) { return folder.visit_expr(f); });
}

}  // namespace relaxc::relax
