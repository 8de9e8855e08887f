// Relax functions in VM form -> bytecode, and the executable's tables they refer to
// (functions by name, packed functions, the constant pool).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/relax/expr.h"
#include "runtime/vm/executable.h"

namespace relaxc::codegen {

// The function table and constant pool of an executable being built. Module functions
// are added first (their indices are fixed); a packed function gets an entry the first
// time bytecode calls it, once per name; equal constants share one pool entry.
class ExecutableTables {
 public:
  explicit ExecutableTables(runtime::vm::Executable& exe) : exe_(exe) {}

  // Appends a module function's entry; returns its index.
  int64_t add_function(runtime::vm::FunctionEntry entry);
  // The index of module function `name`, or -1.
  int64_t function(const std::string& name) const;
  // The index of packed function `name`, added when new.
  int64_t packed(const std::string& name);
  // The pool index of `constant`, added when no equal constant is there.
  int64_t constant(runtime::vm::Constant constant);

 private:
  runtime::vm::Executable& exe_;
  std::unordered_map<std::string, int64_t> functions_;
  std::unordered_map<std::string, int64_t> packed_;
  // Pool indices by constant_key (an encoding of the constant, its bytes hashed).
  std::map<std::string, std::vector<int64_t>> constants_;
};

// The bytecode of Relax function `func` (in VM form: see vm_contract's "VM form") named
// `name`: parameters in registers 0 .. n-1, then one register per binding that computes
// a value; aliases and constants take none. A construct outside the VM form is a
// UserError at its span that says which pass should have removed it.
runtime::vm::FunctionEntry bytecode_codegen(const relax::Function& func, const std::string& name,
                                            ExecutableTables& tables);

}  // namespace relaxc::codegen
