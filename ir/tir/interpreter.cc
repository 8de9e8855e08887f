// The TensorIR interpreter: runs a PrimFunc on host arrays (tests' reference for
// schedules and lowerings, and fold-constant's evaluator).
//
// A tree walk over the function body with an environment of variable values and a map
// from each buffer's data variable to its storage. A variable keeps its slot in the
// environment once bound, and the values a scope's bindings hide wait on a stack, so
// that the steps of a loop nest allocate nothing (fold-constant folds tensors of
// millions of elements this way). Values are int64 (integers, wrapped
// to their dtype's width) or double (rounded to float32 / float16 after every
// operation, so results match what a device computes in those types). Everything a
// program could do wrong is checked and thrown as InterpretError: out-of-bounds
// accesses, block iteration values outside their domains (a missing tail guard), loop
// extents over 1e8, more steps than the caller allows, reads of unbound variables,
// division by zero, a 64-bit integer stored beyond 2^53 (storage holds doubles, which
// would round it).
#include "ir/tir/interpreter.h"

#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include "ir/node_dispatch.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"

namespace relaxc::tir {
namespace {

constexpr int64_t kMaxLoopExtent = 100'000'000;
// Storage holds doubles: integers up to 2^53 in magnitude are exact.
constexpr int64_t kMaxExactInteger = int64_t{1} << 53;

struct Value {
  DataType dtype;
  int64_t i = 0;
  double f = 0.0;

  bool is_float() const { return dtype.is_float(); }
  double as_double() const { return is_float() ? f : static_cast<double>(i); }
  bool truthy() const { return is_float() ? f != 0.0 : i != 0; }
};

[[noreturn]] void fail(const std::string& message) { throw InterpretError(message); }

// `v` wrapped to the width of the integer type `t`.
int64_t wrap_int(int64_t v, DataType t) {
  if (t.is_bool()) return v != 0 ? 1 : 0;
  if (t.bits() >= 64) return v;
  uint64_t mask = (uint64_t{1} << t.bits()) - 1;
  uint64_t low = static_cast<uint64_t>(v) & mask;
  if (t.is_uint()) return static_cast<int64_t>(low);
  uint64_t sign = uint64_t{1} << (t.bits() - 1);
  return static_cast<int64_t>((low ^ sign) - sign);
}

// `v` rounded to the float type `t`.
double round_float(double v, DataType t) {
  if (t.bits() == 32) return static_cast<double>(static_cast<float>(v));
  if (t.bits() == 16 && !t.is_bfloat()) return round_to_fp16(v);
  return v;
}

Value make_int(DataType t, int64_t v) { return Value{t, wrap_int(v, t), 0.0}; }
Value make_float(DataType t, double v) { return Value{t, 0, round_float(v, t)}; }
Value make_value(DataType t, double v) {
  if (t.is_float()) return make_float(t, v);
  if (std::isnan(v) || v >= 9.3e18 || v <= -9.3e18) {
    fail("the value " + std::to_string(v) + " does not fit the integer type " + t.str());
  }
  return make_int(t, static_cast<int64_t>(v));
}

int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

using UnaryMath = double (*)(double);
const std::unordered_map<std::string, UnaryMath>& unary_math() {
  static const std::unordered_map<std::string, UnaryMath> table = {
      {"tir.exp", [](double x) { return std::exp(x); }},
      {"tir.exp2", [](double x) { return std::exp2(x); }},
      {"tir.exp10", [](double x) { return std::pow(10.0, x); }},
      {"tir.log", [](double x) { return std::log(x); }},
      {"tir.log2", [](double x) { return std::log2(x); }},
      {"tir.log10", [](double x) { return std::log10(x); }},
      {"tir.log1p", [](double x) { return std::log1p(x); }},
      {"tir.sqrt", [](double x) { return std::sqrt(x); }},
      {"tir.rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"tir.tanh", [](double x) { return std::tanh(x); }},
      {"tir.sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
      {"tir.sin", [](double x) { return std::sin(x); }},
      {"tir.cos", [](double x) { return std::cos(x); }},
      {"tir.tan", [](double x) { return std::tan(x); }},
      {"tir.erf", [](double x) { return std::erf(x); }},
      {"tir.asin", [](double x) { return std::asin(x); }},
      {"tir.acos", [](double x) { return std::acos(x); }},
      {"tir.atan", [](double x) { return std::atan(x); }},
      {"tir.sinh", [](double x) { return std::sinh(x); }},
      {"tir.cosh", [](double x) { return std::cosh(x); }},
      {"tir.asinh", [](double x) { return std::asinh(x); }},
      {"tir.acosh", [](double x) { return std::acosh(x); }},
      {"tir.atanh", [](double x) { return std::atanh(x); }},
      {"tir.fabs", [](double x) { return std::fabs(x); }},
      {"tir.floor", [](double x) { return std::floor(x); }},
      {"tir.ceil", [](double x) { return std::ceil(x); }},
      {"tir.round", [](double x) { return std::nearbyint(x); }},
      {"tir.trunc", [](double x) { return std::trunc(x); }},
      {"tir.nearbyint", [](double x) { return std::nearbyint(x); }},
  };
  return table;
}

// The storage behind one data variable: a host array's elements or an allocation.
struct Storage {
  std::vector<double>* data = nullptr;
  std::vector<double> owned;
};

class Interpreter {
 public:
  explicit Interpreter(int64_t max_steps) : max_steps_(max_steps) {}

  void bind_var(const Var& v, Value value) { env_[v.get()] = {value, true}; }
  void bind_storage(const Var& data, std::vector<double>* elements) {
    auto storage = std::make_unique<Storage>();
    storage->data = elements;
    storages_[data.get()] = storage.get();
    owned_.push_back(std::move(storage));
  }
  bool is_bound(const Var& v) const {
    auto it = env_.find(v.get());
    return it != env_.end() && it->second.bound;
  }

  Value eval(const PrimExpr& e) {
    NestingGuard guard(depth_, e.get());
    return dispatch(e.get(), [&](const auto* node) { return eval_node(node); });
  }

  void exec(const Stmt& s) {
    if (!s.defined()) return;
    NestingGuard guard(depth_, s.get());
    dispatch(s.get(), [&](const auto* node) { exec_node(node); });
  }

  int64_t eval_int(const PrimExpr& e) {
    Value v = eval(e);
    if (v.is_float()) fail("expected an integer, got the float " + text::print_node(e));
    return v.i;
  }

 private:
  // A variable's value, while it is bound. A slot stays in the map once made (unbinding
  // clears `bound`), so that binding a variable again allocates nothing.
  struct Slot {
    Value value;
    bool bound = false;
  };
  struct SavedSlot {
    Slot* slot;
    Slot previous;
  };

  // Bindings for a scope (a loop's or a let's variable, a block's iteration variables),
  // undone in reverse order when it ends; the previous values wait on the interpreter's
  // stack, which keeps its capacity.
  class ScopedBindings {
   public:
    explicit ScopedBindings(Interpreter& interp) : interp_(interp), mark_(interp.saved_.size()) {}
    ~ScopedBindings() {
      while (interp_.saved_.size() > mark_) {
        SavedSlot& saved = interp_.saved_.back();
        *saved.slot = saved.previous;
        interp_.saved_.pop_back();
      }
    }
    ScopedBindings(const ScopedBindings&) = delete;
    ScopedBindings& operator=(const ScopedBindings&) = delete;

    // The variable's slot, bound to `value` (a loop rebinds it through the slot).
    Slot& bind(const VarNode* v, Value value) {
      Slot& slot = interp_.env_[v];  // unordered_map nodes stay put: the slot stays valid
      interp_.saved_.push_back({&slot, slot});
      slot = {value, true};
      return slot;
    }

   private:
    Interpreter& interp_;
    size_t mark_;
  };

  // Storage allocated for a buffer for the duration of a scope (a block or Allocate).
  class ScopedAllocation {
   public:
    ScopedAllocation(Interpreter& interp, const Buffer& buffer) : interp_(interp) {
      int64_t count = 1;
      for (const PrimExpr& d : buffer->shape) {
        int64_t extent = interp.eval_int(d);
        if (extent < 0 || extent > kMaxLoopExtent) {
          fail("buffer '" + buffer->name + "' has the bad extent " + std::to_string(extent));
        }
        count *= extent;
        if (count > kMaxLoopExtent) fail("buffer '" + buffer->name + "' is too large");
      }
      // NaN (or a marker integer) makes a read before any write visible in the results.
      double fill = buffer->dtype.is_float() ? std::nan("") : -7777777.0;
      storage_.owned.assign(static_cast<size_t>(count), fill);
      storage_.data = &storage_.owned;
      data_ = buffer->data.get();
      auto it = interp.storages_.find(data_);
      if (it != interp.storages_.end()) previous_ = it->second;
      interp.storages_[data_] = &storage_;
    }
    ~ScopedAllocation() {
      if (previous_ != nullptr) {
        interp_.storages_[data_] = previous_;
      } else {
        interp_.storages_.erase(data_);
      }
    }
    ScopedAllocation(const ScopedAllocation&) = delete;
    ScopedAllocation& operator=(const ScopedAllocation&) = delete;

   private:
    Interpreter& interp_;
    Storage storage_;
    const VarNode* data_ = nullptr;
    Storage* previous_ = nullptr;
  };

  void count_iteration() {
    if (++iterations_ > max_steps_) {
      fail("the program runs too long (over " + std::to_string(max_steps_) + " steps)");
    }
  }

  // The element of `buffer` at `indices`, bounds-checked.
  double& element(const Buffer& buffer, const std::vector<PrimExpr>& indices) {
    auto it = storages_.find(buffer->data.get());
    if (it == storages_.end()) fail("buffer '" + buffer->name + "' is used outside its allocation");
    std::vector<double>& data = *it->second->data;
    if (indices.size() != buffer->shape.size() &&
        (buffer->strides.empty() || indices.size() != buffer->strides.size())) {
      fail("buffer '" + buffer->name + "' has " + std::to_string(buffer->shape.size()) +
           " dimensions, accessed with " + std::to_string(indices.size()) + " indices");
    }
    // Only for a message: the indices again (evaluating them has no side effects).
    auto describe = [&] {
      std::string text = buffer->name + "[";
      for (size_t d = 0; d < indices.size(); ++d) {
        text += (d > 0 ? ", " : "") + std::to_string(eval_int(indices[d]));
      }
      return text + "]";
    };
    int64_t flat = buffer->elem_offset.defined() ? eval_int(buffer->elem_offset) : 0;
    if (!buffer->strides.empty()) {
      for (size_t d = 0; d < indices.size(); ++d) {
        flat += eval_int(indices[d]) * eval_int(buffer->strides[d]);
      }
    } else {
      // Row-major: flat = ((i0 * e1 + i1) * e2 + i2) ..., each index checked.
      int64_t row_major = 0;
      for (size_t d = 0; d < indices.size(); ++d) {
        int64_t index = eval_int(indices[d]);
        int64_t extent = eval_int(buffer->shape[d]);
        if (index < 0 || index >= extent) {
          fail("out-of-bounds access " + describe() + ": dimension " + std::to_string(d) +
               " has extent " + std::to_string(extent));
        }
        row_major = row_major * extent + index;
      }
      flat += row_major;
    }
    if (flat < 0 || flat >= static_cast<int64_t>(data.size())) {
      fail("out-of-bounds access " + describe() + ": element " + std::to_string(flat) +
           " of an allocation of " + std::to_string(data.size()));
    }
    return data[static_cast<size_t>(flat)];
  }

  // --- Expressions.
  Value eval_node(const VarNode* node) {
    auto it = env_.find(node);
    if (it == env_.end() || !it->second.bound) {
      fail("variable '" + node->name + "' is used without a value");
    }
    return it->second.value;
  }
  Value eval_node(const IntImmNode* node) { return make_int(node->dtype, node->value); }
  Value eval_node(const FloatImmNode* node) { return make_float(node->dtype, node->value); }
  Value eval_node(const StringImmNode* node) { return Value{node->dtype, 0, 0.0}; }
  Value eval_node(const CastNode* node) {
    return make_value(node->dtype, eval(node->value).as_double());
  }
  template <NodeKind K>
  Value eval_node(const BinaryNode<K>* node) {
    if constexpr (K == NodeKind::TirAnd || K == NodeKind::TirOr) {
      // Short-circuit, as a guard `i < n and A[i] > 0` needs.
      bool a = eval(node->a).truthy();
      if (K == NodeKind::TirAnd && !a) return make_int(node->dtype, 0);
      if (K == NodeKind::TirOr && a) return make_int(node->dtype, 1);
      return make_int(node->dtype, eval(node->b).truthy() ? 1 : 0);
    } else {
      Value a = eval(node->a);
      Value b = eval(node->b);
      return a.is_float() || b.is_float()
                 ? float_binary<K>(node->dtype, a.as_double(), b.as_double())
                 : int_binary<K>(node->dtype, a.i, b.i);
    }
  }
  template <NodeKind K>
  Value int_binary(DataType t, int64_t a, int64_t b) {
    bool is_division = K == NodeKind::TirDiv || K == NodeKind::TirMod ||
                       K == NodeKind::TirFloorDiv || K == NodeKind::TirFloorMod;
    if (is_division && b == 0) fail("integer division by zero");
    // Unsigned 64-bit arithmetic wraps instead of overflowing (undefined in signed).
    auto ua = static_cast<uint64_t>(a);
    auto ub = static_cast<uint64_t>(b);
    switch (K) {
      case NodeKind::TirAdd:
        return make_int(t, static_cast<int64_t>(ua + ub));
      case NodeKind::TirSub:
        return make_int(t, static_cast<int64_t>(ua - ub));
      case NodeKind::TirMul:
        return make_int(t, static_cast<int64_t>(ua * ub));
      case NodeKind::TirDiv:
        return make_int(t, a / b);
      case NodeKind::TirMod:
        return make_int(t, a % b);
      case NodeKind::TirFloorDiv:
        return make_int(t, floor_div(a, b));
      case NodeKind::TirFloorMod:
        return make_int(t, a - floor_div(a, b) * b);
      case NodeKind::TirMin:
        return make_int(t, std::min(a, b));
      case NodeKind::TirMax:
        return make_int(t, std::max(a, b));
      case NodeKind::TirEQ:
        return make_int(t, a == b);
      case NodeKind::TirNE:
        return make_int(t, a != b);
      case NodeKind::TirLT:
        return make_int(t, a < b);
      case NodeKind::TirLE:
        return make_int(t, a <= b);
      case NodeKind::TirGT:
        return make_int(t, a > b);
      case NodeKind::TirGE:
        return make_int(t, a >= b);
      default:
        RELAXC_UNREACHABLE() << "not an integer binary operator";
    }
  }
  template <NodeKind K>
  Value float_binary(DataType t, double a, double b) {
    switch (K) {
      case NodeKind::TirAdd:
        return make_float(t, a + b);
      case NodeKind::TirSub:
        return make_float(t, a - b);
      case NodeKind::TirMul:
        return make_float(t, a * b);
      case NodeKind::TirDiv:
        return make_float(t, a / b);
      case NodeKind::TirMod:
        return make_float(t, std::fmod(a, b));
      case NodeKind::TirFloorDiv:
        return make_float(t, std::floor(a / b));
      case NodeKind::TirFloorMod:
        return make_float(t, a - std::floor(a / b) * b);
      case NodeKind::TirMin:
        return make_float(t, std::fmin(a, b));
      case NodeKind::TirMax:
        return make_float(t, std::fmax(a, b));
      case NodeKind::TirEQ:
        return make_int(t, a == b);
      case NodeKind::TirNE:
        return make_int(t, a != b);
      case NodeKind::TirLT:
        return make_int(t, a < b);
      case NodeKind::TirLE:
        return make_int(t, a <= b);
      case NodeKind::TirGT:
        return make_int(t, a > b);
      case NodeKind::TirGE:
        return make_int(t, a >= b);
      default:
        RELAXC_UNREACHABLE() << "not a float binary operator";
    }
  }
  Value eval_node(const NotNode* node) { return make_int(node->dtype, !eval(node->a).truthy()); }
  Value eval_node(const SelectNode* node) {
    // Both sides are evaluated, as Select's semantics say: a guarded load must use
    // if_then_else.
    bool c = eval(node->condition).truthy();
    Value a = eval(node->true_value);
    Value b = eval(node->false_value);
    return c ? a : b;
  }
  Value eval_node(const BufferLoadNode* node) {
    return make_value(node->buffer->dtype, element(node->buffer, node->indices));
  }
  Value eval_node(const RampNode* /*node*/) {
    fail("the interpreter runs scalar code only (T.Ramp)");
  }
  Value eval_node(const BroadcastNode* /*node*/) {
    fail("the interpreter runs scalar code only (T.Broadcast)");
  }
  Value eval_node(const LetNode* node) {
    ScopedBindings scope(*this);
    scope.bind(node->var.get(), eval(node->value));
    return eval(node->body);
  }
  Value eval_node(const CallNode* node) {
    const std::string& op = node->op;
    if (op == "tir.tvm_storage_sync") return Value{node->dtype, 0, 0.0};
    if (op == "tir.if_then_else") {
      return eval(node->args.at(0)).truthy() ? eval(node->args.at(1)) : eval(node->args.at(2));
    }
    auto it = unary_math().find(op);
    if (it != unary_math().end() && node->args.size() == 1) {
      return make_float(node->dtype, it->second(eval(node->args[0]).as_double()));
    }
    if ((op == "tir.pow" || op == "tir.fmod") && node->args.size() == 2) {
      double a = eval(node->args[0]).as_double();
      double b = eval(node->args[1]).as_double();
      return make_float(node->dtype, op == "tir.pow" ? std::pow(a, b) : std::fmod(a, b));
    }
    if (op == "tir.likely") return eval(node->args.at(0));
    if (op == "tir.bitwise_not") {
      int64_t a = eval(node->args.at(0)).i;
      return make_int(node->dtype, node->dtype.is_bool() ? !a : ~a);
    }
    if (op.rfind("tir.bitwise_", 0) == 0 || op.rfind("tir.shift_", 0) == 0) {
      int64_t a = eval(node->args.at(0)).i, b = eval(node->args.at(1)).i;
      // Values of unsigned types are held zero-extended, so >> on them is logical.
      int64_t result = op == "tir.bitwise_and"   ? a & b
                       : op == "tir.bitwise_or"  ? a | b
                       : op == "tir.bitwise_xor" ? a ^ b
                       : op == "tir.shift_left"
                           ? static_cast<int64_t>(static_cast<uint64_t>(a) << b)
                           : a >> b;
      return make_int(node->dtype, result);
    }
    if ((op == "tir.isnan" || op == "tir.isinf") && node->args.size() == 1) {
      double a = eval(node->args[0]).as_double();
      return make_int(node->dtype, op == "tir.isnan" ? std::isnan(a) : std::isinf(a));
    }
    fail("the interpreter does not run the intrinsic '" + op + "'");
  }
  // Statement kinds reached through dispatch on an expression cannot happen; these
  // overloads keep the generic dispatch total.
  template <typename T>
  Value eval_node(const T* node) {
    fail(std::string("not an expression: ") + node_kind_name(node->Object::kind()));
  }

  // --- Statements.
  void exec_node(const BufferStoreNode* node) {
    Value value = eval(node->value);
    double& slot = element(node->buffer, node->indices);
    Value stored = make_value(node->buffer->dtype, value.as_double());
    if (!stored.is_float() && (stored.i > kMaxExactInteger || stored.i < -kMaxExactInteger)) {
      fail("the value " + std::to_string(stored.i) + " stored into '" + node->buffer->name +
           "' is beyond 2^53, which the interpreter's storage cannot hold exactly");
    }
    slot = stored.as_double();
  }
  void exec_node(const EvaluateNode* node) { eval(node->value); }
  void exec_node(const LetStmtNode* node) {
    ScopedBindings scope(*this);
    scope.bind(node->var.get(), eval(node->value));
    exec(node->body);
  }
  void exec_node(const IfThenElseNode* node) {
    if (eval(node->condition).truthy()) {
      exec(node->then_case);
    } else {
      exec(node->else_case);
    }
  }
  void exec_node(const ForNode* node) {
    int64_t min = eval_int(node->min);
    int64_t extent = eval_int(node->extent);
    if (extent > kMaxLoopExtent) {
      fail("loop '" + node->loop_var->name + "' has the extent " + std::to_string(extent) +
           ", over the interpreter's limit of 1e8");
    }
    if (extent <= 0) return;
    ScopedBindings scope(*this);
    Slot& slot = scope.bind(node->loop_var.get(), make_int(node->loop_var->dtype, min));
    for (int64_t i = 0; i < extent; ++i) {
      count_iteration();
      slot.value = make_int(node->loop_var->dtype, min + i);
      exec(node->body);
    }
  }
  void exec_node(const WhileNode* node) {
    for (int64_t i = 0; eval(node->condition).truthy(); ++i) {
      if (i >= kMaxLoopExtent) fail("a while loop ran over 1e8 iterations");
      count_iteration();
      exec(node->body);
    }
  }
  void exec_node(const SeqStmtNode* node) {
    for (const Stmt& s : node->seq) exec(s);
  }
  void exec_node(const AllocateNode* node) {
    ScopedAllocation allocation(*this, node->buffer);
    exec(node->body);
  }
  void exec_node(const BlockNode* node) {
    if (!node->iter_vars.empty()) fail("block '" + node->name + "' is not inside a realize");
    run_block(*node, true);
  }
  void exec_node(const BlockRealizeNode* node) {
    const BlockNode& block = *node->block;
    if (node->predicate.defined() && !eval(node->predicate).truthy()) return;
    if (node->iter_values.size() != block.iter_vars.size()) {
      fail("block '" + block.name + "' binds " + std::to_string(node->iter_values.size()) +
           " values to " + std::to_string(block.iter_vars.size()) + " iteration variables");
    }
    ScopedBindings scope(*this);
    bool first_reduction_step = true;
    for (size_t i = 0; i < block.iter_vars.size(); ++i) {
      const IterVarNode& iv = *block.iter_vars[i];
      int64_t value = eval_int(node->iter_values[i]);
      int64_t min = eval_int(iv.dom->min);
      int64_t extent = eval_int(iv.dom->extent);
      if (value < min || value >= min + extent) {
        fail("block '" + block.name + "': iteration variable '" + iv.var->name +
             "' = " + std::to_string(value) + " is outside its domain [" + std::to_string(min) +
             ", " + std::to_string(min + extent) + ")");
      }
      if (iv.kind != IterKind::Spatial && value != min) first_reduction_step = false;
      scope.bind(iv.var.get(), make_int(iv.var->dtype, value));
    }
    run_block(block, first_reduction_step);
  }
  void run_block(const BlockNode& block, bool run_init) {
    if (!block.match_buffers.empty()) {
      fail("block '" + block.name + "': the interpreter does not run T.match_buffer in blocks");
    }
    std::vector<std::unique_ptr<ScopedAllocation>> allocations;
    for (const Buffer& b : block.alloc_buffers) {
      allocations.push_back(std::make_unique<ScopedAllocation>(*this, b));
    }
    if (run_init && block.init.defined()) exec(block.init);
    exec(block.body);
  }
  template <typename T>
  void exec_node(const T* node) {
    fail(std::string("not a statement: ") + node_kind_name(node->Object::kind()));
  }

  std::unordered_map<const VarNode*, Slot> env_;
  std::vector<SavedSlot> saved_;
  std::unordered_map<const VarNode*, Storage*> storages_;
  std::vector<std::unique_ptr<Storage>> owned_;
  int depth_ = 0;
  int64_t iterations_ = 0;
  int64_t max_steps_;
};

// Binds the symbolic dimensions of `buffer`'s shape from `array`'s shape, then checks
// that every dimension agrees.
void bind_buffer_shape(Interpreter& interp, const Buffer& buffer, const HostArray& array) {
  if (array.dtype != buffer->dtype) {
    fail("buffer '" + buffer->name + "' holds " + buffer->dtype.str() + ", the array " +
         array.dtype.str());
  }
  if (array.shape.size() != buffer->shape.size()) {
    fail("buffer '" + buffer->name + "' has " + std::to_string(buffer->shape.size()) +
         " dimensions, the array " + std::to_string(array.shape.size()));
  }
  for (size_t d = 0; d < buffer->shape.size(); ++d) {
    Var dim = buffer->shape[d].cast<VarNode>();
    if (dim.defined() && !interp.is_bound(dim)) {
      interp.bind_var(dim, make_int(dim->dtype, array.shape[d]));
    }
  }
}

void check_buffer_shape(Interpreter& interp, const Buffer& buffer, const HostArray& array) {
  int64_t count = 1;
  for (size_t d = 0; d < buffer->shape.size(); ++d) {
    int64_t extent = interp.eval_int(buffer->shape[d]);
    if (extent != array.shape[d]) {
      fail("buffer '" + buffer->name + "' dimension " + std::to_string(d) + " is " +
           std::to_string(extent) + ", the array's " + std::to_string(array.shape[d]));
    }
    count *= extent;
  }
  if (count != array.size()) {
    fail("array for buffer '" + buffer->name + "' holds " + std::to_string(array.size()) +
         " elements, its shape " + std::to_string(count));
  }
}

}  // namespace

void interpret(const PrimFunc& func, std::vector<HostArray*> buffers,
               const std::map<std::string, int64_t>& scalars, int64_t max_steps) {
  Interpreter interp(max_steps);
  std::vector<std::pair<Buffer, HostArray*>> bound;
  size_t next_array = 0;
  for (const Var& param : func->params) {
    Buffer buffer = func->buffer_of(param);
    if (buffer.defined()) {
      if (next_array >= buffers.size() || buffers[next_array] == nullptr) {
        fail("no array for buffer parameter '" + buffer->name + "'");
      }
      bound.emplace_back(buffer, buffers[next_array++]);
      continue;
    }
    auto it = scalars.find(param->name);
    if (it == scalars.end()) fail("no value for scalar parameter '" + param->name + "'");
    interp.bind_var(param, make_int(param->dtype, it->second));
  }
  if (next_array != buffers.size()) {
    fail("the function takes " + std::to_string(next_array) + " buffers, given " +
         std::to_string(buffers.size()));
  }
  for (auto& [buffer, array] : bound) bind_buffer_shape(interp, buffer, *array);
  for (auto& [buffer, array] : bound) {
    check_buffer_shape(interp, buffer, *array);
    interp.bind_storage(buffer->data, &array->data);
  }
  interp.exec(func->body);
}

}  // namespace relaxc::tir
