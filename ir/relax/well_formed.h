// The well-formedness checker: the rules of docs/language.md
// (well-formedness rules 1-22 and the normal form).
#pragma once

#include "ir/module.h"
#include "ir/support/diagnostics.h"

namespace relaxc::relax {

// Checks every Relax function of `module`. Each violation is one error diagnostic that
// names the rule ("[rule 3]"), the variable or binding, and carries its location.
// Returns an empty list for a well-formed module.
DiagnosticList check_well_formed(const IRModule& module);

}  // namespace relaxc::relax
