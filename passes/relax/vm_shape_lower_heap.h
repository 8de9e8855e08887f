// The shape heap of vm-shape-lower (vm_shape_lower.cc): which slot holds each shape
// variable and computed dimension of a Relax function, and the host PrimFuncs that
// store computed dimensions into it.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/relax/expr.h"
#include "ir/tir/stmt.h"

namespace relaxc::relax {

// The heap slots of one function: its shape variables and the compound expressions
// (n * 4, n + 1) it must know at run time, numbered in order of first appearance (a
// compound's variables before the compound).
class HeapPlan {
 public:
  struct Compound {
    PrimExpr expr;
    int64_t slot = 0;
    std::vector<const tir::VarNode*> vars;  // the shape variables it reads
  };

  // Gives `e` (and the variables in it) a slot unless it is a constant or has one.
  void need(const PrimExpr& e);
  // need() for every dimension a parameter, match_cast or return value is matched on.
  void need_pattern(const StructInfo& sinfo);

  int64_t size() const { return size_; }
  // Whether some matched StructInfo has dimensions (or a PrimValue) to match.
  bool has_pattern_dims() const { return has_pattern_dims_; }
  int64_t var_slot(const tir::VarNode* var) const;
  int64_t compound_slot(const PrimExpr& e) const;
  const std::vector<Compound>& compounds() const { return compounds_; }

 private:
  int64_t size_ = 0;
  bool has_pattern_dims_ = false;
  std::unordered_map<const tir::VarNode*, int64_t> var_slots_;
  std::vector<tir::Var> vars_;  // keeps the keys of var_slots_ alive
  std::vector<Compound> compounds_;
};

// The plan of `func`: parameters, then bindings in order (match_cast patterns, and the
// ShapeExprs and PrimValues used as values), then the return StructInfo.
HeapPlan plan_shape_heap(const Function& func);

// The host function `<caller>_shape_func...`: one int64 buffer parameter H of
// `heap_size` elements (the heap) and, for each compound, H[slot] = the compound with
// each variable read from its slot; attribute tir.is_host_func. A compound that is not
// integer arithmetic (a float, a buffer load, an intrinsic call) is a UserError naming
// `caller`.
tir::PrimFunc make_host_func(const std::vector<const HeapPlan::Compound*>& compounds,
                             const HeapPlan& plan, const std::string& caller);

}  // namespace relaxc::relax
