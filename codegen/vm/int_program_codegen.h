// PrimExpr -> runtime::vm::IntProgram: the host integer arithmetic of an executable
// (shape functions, kernel grid sizes, scalar arguments, expected buffer dims).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>

#include "ir/tir/stmt.h"
#include "runtime/dtype.h"
#include "runtime/vm/int_program.h"

namespace relaxc::codegen {

// Where the values an expression reads live at run time.
struct IntSlots {
  // A variable is read from its slot.
  std::unordered_map<const tir::VarNode*, int64_t> vars;
  // `heap[c]` (a load of this buffer at a constant index c) is read from slot c: the
  // shape heap of a host function. Null: no buffer may be loaded.
  const tir::BufferNode* heap = nullptr;
};

// The postfix program computing integer (or boolean) expression `e`. An expression the
// stack machine cannot compute (floats, a variable without a slot, a load of another
// buffer or at a non-constant index, an intrinsic other than if_then_else, vectors) is a
// UserError at its span that names `what` ("the grid size of kernel 'add_kernel'").
runtime::vm::IntProgram int_program_codegen(const tir::PrimExpr& e, const IntSlots& slots,
                                            const std::string& what);

// The runtime's spelling of a compiler data type (Relax's unknown dtype: DType::Void()).
// A handle type has none: a UserError naming `what`.
runtime::DType runtime_dtype(DataType dtype, const std::string& what);

}  // namespace relaxc::codegen
