// IntProgram: the host's integer arithmetic in an executable. Shape computations
// (vm_shape_lower's host functions), kernel grid sizes, kernel scalar arguments and the
// expected dimensions of kernel buffers are tiny expressions over int64 slots (the
// shape heap, or a kernel function's bound shape variables). They are stored as
// postfix code for a stack machine and evaluated by the VM, so the runtime needs no
// host code generator.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace relaxc::runtime::vm {

// Each op pops its operands (left operand pushed first) and pushes its result.
// Comparisons and logic give 0 or 1; And/Or/Not/Select treat non-zero as true.
enum class IntOp : uint8_t {
  Const,     // push operand
  Load,      // push slots[operand]
  Add, Sub, Mul,
  FloorDiv, FloorMod,  // rounding toward -infinity (TIR's floordiv / floormod)
  TruncDiv, TruncMod,  // rounding toward zero (TIR's Div / Mod on integers)
  Min, Max,
  EQ, NE, LT, LE, GT, GE,
  And, Or, Not,
  Select,    // pops cond, a, b: cond ? a : b
};
inline constexpr int kNumIntOps = static_cast<int>(IntOp::Select) + 1;

struct IntInstr {
  IntOp op = IntOp::Const;
  int64_t operand = 0;  // the constant of Const, the slot of Load; 0 otherwise
  bool operator==(const IntInstr&) const = default;
};

struct IntProgram {
  std::vector<IntInstr> code;
  bool operator==(const IntProgram&) const = default;
};

// The deepest stack an executable may ask for (checked at load).
inline constexpr int kMaxIntProgramDepth = 64;

// A program that pushes one constant.
IntProgram int_constant(int64_t value);
// A program that loads one slot.
IntProgram int_load(int64_t slot);

// Checks that `program` is well formed: a known op everywhere, every op finds its
// operands on the stack, the stack never exceeds kMaxIntProgramDepth, it ends with
// exactly one value, Load slots are >= 0. Returns "" when it is, else what is wrong
// ("instruction 3 (Add) needs 2 operands, the stack has 1"). `max_slot` (optional)
// receives the largest slot loaded, -1 if none.
std::string validate_int_program(const IntProgram& program, int64_t* max_slot = nullptr);

// Evaluates a validated program. A Load outside `slots`, a division or modulo by zero,
// or an overflow of int64 throws a RuntimeError whose message starts with `what`
// ("the grid size of kernel 'dense_kernel': division by zero").
int64_t evaluate_int_program(const IntProgram& program, std::span<const int64_t> slots,
                             std::string_view what);

// Infix text for `relaxc inspect`: "floordiv(s0 + 3, 4)", each slot written as
// `slot_prefix` and its number.
std::string int_program_to_string(const IntProgram& program, std::string_view slot_prefix = "s");

}  // namespace relaxc::runtime::vm
