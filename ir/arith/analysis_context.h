// What one Analyzer query works with: the facts known about variables, the limits
// that keep its work bounded on hostile input, and the total order on expressions
// that makes canonical forms stable.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "ir/arith/analyzer.h"
#include "ir/tir/expr.h"

namespace relaxc::arith {

struct VarFacts {
  std::optional<ConstIntBound> bound;  // from bind / bind_bounds
  tir::PrimExpr value;                 // from bind_value; null if none
};
using FactMap = std::unordered_map<tir::Var, VarFacts, RefHash, RefEq>;

// Thrown when a query nests deeper or works longer than its budget allows; the public
// entry points catch it and give the conservative answer (the input unchanged, no
// bound, Unknown).
struct LimitReached {};

class WorkBudget {
 public:
  // Nesting of the recursive walks: far beyond real shape expressions, far below
  // what would exhaust the stack.
  static constexpr int kMaxDepth = 256;
  // Node visits and comparisons per query.
  static constexpr int64_t kMaxSteps = 4'000'000;

  void step() {
    ++steps_;
    if (steps_ > kMaxSteps) throw LimitReached{};
  }

  // Holds one level of nesting for its lifetime.
  class Nest {
   public:
    explicit Nest(WorkBudget& budget) : budget_(budget) {
      if (++budget_.depth_ > kMaxDepth) {
        --budget_.depth_;
        throw LimitReached{};
      }
      budget_.step();
    }
    ~Nest() { --budget_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    WorkBudget& budget_;
  };

 private:
  int64_t steps_ = 0;
  int depth_ = 0;
};

// A total order on expressions by structure (kind, type, values, then children in
// order; variables by name, then identity), so that sorted terms and operands print the
// same however the input was written.
class ExprOrder {
 public:
  explicit ExprOrder(WorkBudget& budget) : budget_(budget) {}
  // Negative, zero or positive as `a` sorts before, equal to or after `b`.
  int compare(const tir::PrimExpr& a, const tir::PrimExpr& b);
  bool equal(const tir::PrimExpr& a, const tir::PrimExpr& b) { return compare(a, b) == 0; }

 private:
  WorkBudget& budget_;
};

}  // namespace relaxc::arith
