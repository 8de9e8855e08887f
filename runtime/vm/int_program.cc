// IntProgram: validation, evaluation (with overflow and division checks) and infix text
// of the host's postfix integer programs.
#include "runtime/vm/int_program.h"

#include <array>
#include <limits>

#include "runtime/device.h"

namespace relaxc::runtime::vm {
namespace {

struct OpInfo {
  const char* name;  // in validation messages
  int arity;         // operands popped
};

constexpr std::array<OpInfo, kNumIntOps> kOpInfo = {{
    {"Const", 0},    {"Load", 0},     {"Add", 2},      {"Sub", 2}, {"Mul", 2}, {"FloorDiv", 2},
    {"FloorMod", 2}, {"TruncDiv", 2}, {"TruncMod", 2}, {"Min", 2}, {"Max", 2}, {"EQ", 2},
    {"NE", 2},       {"LT", 2},       {"LE", 2},       {"GT", 2},  {"GE", 2},  {"And", 2},
    {"Or", 2},       {"Not", 1},      {"Select", 3},
}};

bool known_op(IntOp op) { return static_cast<int>(op) < kNumIntOps; }
const OpInfo& info(IntOp op) { return kOpInfo[static_cast<int>(op)]; }

std::string instr_text(size_t i, IntOp op) {
  return "instruction " + std::to_string(i) + " (" + info(op).name + ")";
}

[[noreturn]] void fail(std::string_view what, const std::string& message) {
  runtime_error() << what << ": " << message;
}

[[noreturn]] void overflow(std::string_view what, const char* op, int64_t a, int64_t b) {
  fail(what, "int64 overflow in " + std::string(op) + "(" + std::to_string(a) + ", " +
                 std::to_string(b) + ")");
}

// Floor and trunc division of operands already checked: b != 0 and not INT64_MIN / -1.
int64_t floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floor_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

int64_t apply_binary(IntOp op, int64_t a, int64_t b, std::string_view what) {
  int64_t r = 0;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  switch (op) {
    case IntOp::Add:
      if (__builtin_add_overflow(a, b, &r)) overflow(what, "add", a, b);
      return r;
    case IntOp::Sub:
      if (__builtin_sub_overflow(a, b, &r)) overflow(what, "sub", a, b);
      return r;
    case IntOp::Mul:
      if (__builtin_mul_overflow(a, b, &r)) overflow(what, "mul", a, b);
      return r;
    case IntOp::FloorDiv:
    case IntOp::TruncDiv:
      if (b == 0) fail(what, "division by zero");
      if (a == kMin && b == -1)
        overflow(what, op == IntOp::FloorDiv ? "floordiv" : "truncdiv", a, b);
      return op == IntOp::FloorDiv ? floor_div(a, b) : a / b;
    case IntOp::FloorMod:
    case IntOp::TruncMod:
      if (b == 0) fail(what, "modulo by zero");
      if (b == -1) return 0;  // INT64_MIN % -1 is undefined in C++; the result is 0
      return op == IntOp::FloorMod ? floor_mod(a, b) : a % b;
    case IntOp::Min:
      return a < b ? a : b;
    case IntOp::Max:
      return a > b ? a : b;
    case IntOp::EQ:
      return a == b;
    case IntOp::NE:
      return a != b;
    case IntOp::LT:
      return a < b;
    case IntOp::LE:
      return a <= b;
    case IntOp::GT:
      return a > b;
    case IntOp::GE:
      return a >= b;
    case IntOp::And:
      return a != 0 && b != 0;
    case IntOp::Or:
      return a != 0 || b != 0;
    default:
      break;
  }
  fail(what, "not a binary op");
}

// Infix text: each node's text and its precedence (higher binds tighter).
struct Text {
  std::string s;
  int prec;
};
constexpr int kPrecAtom = 10;

int binary_prec(IntOp op) {
  switch (op) {
    case IntOp::Mul:
      return 5;
    case IntOp::Add:
    case IntOp::Sub:
      return 4;
    case IntOp::EQ:
    case IntOp::NE:
    case IntOp::LT:
    case IntOp::LE:
    case IntOp::GT:
    case IntOp::GE:
      return 3;
    case IntOp::And:
      return 2;
    case IntOp::Or:
      return 1;
    default:
      return -1;  // written as a call
  }
}

const char* binary_symbol(IntOp op) {
  switch (op) {
    case IntOp::Add:
      return " + ";
    case IntOp::Sub:
      return " - ";
    case IntOp::Mul:
      return " * ";
    case IntOp::EQ:
      return " == ";
    case IntOp::NE:
      return " != ";
    case IntOp::LT:
      return " < ";
    case IntOp::LE:
      return " <= ";
    case IntOp::GT:
      return " > ";
    case IntOp::GE:
      return " >= ";
    case IntOp::And:
      return " && ";
    case IntOp::Or:
      return " || ";
    default:
      return "";
  }
}

const char* call_name(IntOp op) {
  switch (op) {
    case IntOp::FloorDiv:
      return "floordiv";
    case IntOp::FloorMod:
      return "floormod";
    case IntOp::TruncDiv:
      return "truncdiv";
    case IntOp::TruncMod:
      return "truncmod";
    case IntOp::Min:
      return "min";
    case IntOp::Max:
      return "max";
    default:
      return "";
  }
}

std::string wrap(const Text& t, bool parens) { return parens ? "(" + t.s + ")" : t.s; }

}  // namespace

IntProgram int_constant(int64_t value) { return IntProgram{{{IntOp::Const, value}}}; }

IntProgram int_load(int64_t slot) { return IntProgram{{{IntOp::Load, slot}}}; }

std::string validate_int_program(const IntProgram& program, int64_t* max_slot) {
  int64_t largest = -1;
  int64_t depth = 0;
  for (size_t i = 0; i < program.code.size(); ++i) {
    const IntInstr& in = program.code[i];
    if (!known_op(in.op)) {
      return "instruction " + std::to_string(i) + " has an unknown op (" +
             std::to_string(static_cast<int>(in.op)) + ")";
    }
    const OpInfo& op = info(in.op);
    if (in.op == IntOp::Load) {
      if (in.operand < 0) {
        return instr_text(i, in.op) + " loads slot " + std::to_string(in.operand) +
               ", slots are >= 0";
      }
      if (in.operand > largest) largest = in.operand;
    } else if (in.op != IntOp::Const && in.operand != 0) {
      return instr_text(i, in.op) + " has operand " + std::to_string(in.operand) + ", expected 0";
    }
    if (depth < op.arity) {
      return instr_text(i, in.op) + " needs " + std::to_string(op.arity) + " operand" +
             (op.arity == 1 ? "" : "s") + ", the stack has " + std::to_string(depth);
    }
    depth += 1 - op.arity;
    if (depth > kMaxIntProgramDepth) {
      return instr_text(i, in.op) + " makes the stack " + std::to_string(depth) +
             " deep, the most is " + std::to_string(kMaxIntProgramDepth);
    }
  }
  if (depth != 1) {
    return "the program ends with " + std::to_string(depth) + " values on the stack, expected 1";
  }
  if (max_slot != nullptr) *max_slot = largest;
  return "";
}

int64_t evaluate_int_program(const IntProgram& program, std::span<const int64_t> slots,
                             std::string_view what) {
  // The stack is checked on every step as well as by validation, so that a program that
  // skipped validation can only throw.
  std::array<int64_t, kMaxIntProgramDepth> stack{};
  size_t depth = 0;
  for (size_t i = 0; i < program.code.size(); ++i) {
    const IntInstr& in = program.code[i];
    if (!known_op(in.op)) fail(what, "invalid int program: " + validate_int_program(program));
    const int arity = info(in.op).arity;
    if (depth < static_cast<size_t>(arity) || (arity == 0 && depth == stack.size())) {
      fail(what, "invalid int program: " + validate_int_program(program));
    }
    switch (in.op) {
      case IntOp::Const:
        stack[depth++] = in.operand;
        break;
      case IntOp::Load:
        if (in.operand < 0 || static_cast<uint64_t>(in.operand) >= slots.size()) {
          fail(what, "load of slot " + std::to_string(in.operand) + ", there are " +
                         std::to_string(slots.size()) + " slots");
        }
        stack[depth++] = slots[static_cast<size_t>(in.operand)];
        break;
      case IntOp::Not:
        stack[depth - 1] = stack[depth - 1] == 0;
        break;
      case IntOp::Select: {
        const int64_t b = stack[--depth];
        const int64_t a = stack[--depth];
        const int64_t cond = stack[depth - 1];
        stack[depth - 1] = cond != 0 ? a : b;
        break;
      }
      default: {
        const int64_t b = stack[--depth];
        stack[depth - 1] = apply_binary(in.op, stack[depth - 1], b, what);
        break;
      }
    }
  }
  if (depth != 1) fail(what, "invalid int program: " + validate_int_program(program));
  return stack[0];
}

std::string int_program_to_string(const IntProgram& program, std::string_view slot_prefix) {
  if (std::string error = validate_int_program(program); !error.empty()) {
    return "<invalid int program: " + error + ">";
  }
  std::vector<Text> stack;
  for (const IntInstr& in : program.code) {
    switch (in.op) {
      case IntOp::Const:
        stack.push_back({std::to_string(in.operand), kPrecAtom});
        break;
      case IntOp::Load:
        stack.push_back({std::string(slot_prefix) + std::to_string(in.operand), kPrecAtom});
        break;
      case IntOp::Not: {
        Text a = std::move(stack.back());
        stack.back() = {"!" + wrap(a, a.prec < kPrecAtom), kPrecAtom - 1};
        break;
      }
      case IntOp::Select: {
        Text b = std::move(stack.back());
        stack.pop_back();
        Text a = std::move(stack.back());
        stack.pop_back();
        stack.back() = {"select(" + stack.back().s + ", " + a.s + ", " + b.s + ")", kPrecAtom};
        break;
      }
      default: {
        Text b = std::move(stack.back());
        stack.pop_back();
        Text& a = stack.back();
        const int prec = binary_prec(in.op);
        if (prec < 0) {
          a = {std::string(call_name(in.op)) + "(" + a.s + ", " + b.s + ")", kPrecAtom};
        } else {
          // Left-associative; comparisons do not chain, so an inner one is parenthesized.
          const bool compare = prec == 3;
          const bool left_parens = a.prec < prec || (compare && a.prec == prec);
          const bool right_parens = b.prec <= prec;
          a = {wrap(a, left_parens) + binary_symbol(in.op) + wrap(b, right_parens), prec};
        }
        break;
      }
    }
  }
  return stack.back().s;
}

}  // namespace relaxc::runtime::vm
