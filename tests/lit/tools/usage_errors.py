# Usage errors exit with status 2 and say what was wrong and where to look; a file that
# cannot be read exits with status 1. The module is never read in the usage cases.
#
# RUN: sh -c '%relaxc frobnicate %s 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNKNOWN-COMMAND
# UNKNOWN-COMMAND: relaxc: error: unknown command 'frobnicate' (commands: check, print, opt, codegen, build, run, bench, inspect, import)
# UNKNOWN-COMMAND-NEXT: Run 'relaxc --help' for usage.
# UNKNOWN-COMMAND-NEXT: exit status 2
#
# RUN: sh -c '%relaxc --frobnicate 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNKNOWN-PROGRAM-OPTION
# UNKNOWN-PROGRAM-OPTION: relaxc: error: unknown option '--frobnicate'
# UNKNOWN-PROGRAM-OPTION-NEXT: Run 'relaxc --help' for usage.
# UNKNOWN-PROGRAM-OPTION-NEXT: exit status 2
#
# RUN: sh -c '%relaxc print --frobnicate %s 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNKNOWN-OPTION
# UNKNOWN-OPTION: relaxc print: error: unknown option '--frobnicate'
# UNKNOWN-OPTION-NEXT: Run 'relaxc print --help' for usage.
# UNKNOWN-OPTION-NEXT: exit status 2
#
# check takes no -o, and only opt takes --passes.
# RUN: sh -c '%relaxc check -o out.py %s 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=CHECK-NO-OUTPUT
# CHECK-NO-OUTPUT: relaxc check: error: unknown option '-o'
# CHECK-NO-OUTPUT: exit status 2
# RUN: sh -c '%relaxc print --passes=normalize %s 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=PRINT-NO-PASSES
# PRINT-NO-PASSES: relaxc print: error: unknown option '--passes=normalize'
# PRINT-NO-PASSES: exit status 2
#
# RUN: sh -c '%relaxc check 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=MISSING-FILE
# MISSING-FILE: relaxc check: error: missing FILE (use '-' for standard input)
# MISSING-FILE-NEXT: Run 'relaxc check --help' for usage.
# MISSING-FILE-NEXT: exit status 2
#
# RUN: sh -c '%relaxc print a.py b.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=TWO-FILES
# TWO-FILES: relaxc print: error: expected one FILE, got 'a.py' and 'b.py'
# TWO-FILES: exit status 2
#
# RUN: sh -c '%relaxc print %s -o 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-OUTPUT-VALUE
# NO-OUTPUT-VALUE: relaxc print: error: option '-o' needs a value
# NO-OUTPUT-VALUE: exit status 2
#
# RUN: sh -c '%relaxc opt %s --passes=normalize,frobnicate 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNKNOWN-PASS
# UNKNOWN-PASS: relaxc opt: error: unknown pass 'frobnicate'; known passes: {{.*}}normalize
# UNKNOWN-PASS-SAME: well-formed
# UNKNOWN-PASS-NEXT: Run 'relaxc opt --help' for usage.
# UNKNOWN-PASS-NEXT: exit status 2
#
# RUN: sh -c '%relaxc opt %s --passes= 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=EMPTY-PASSES
# EMPTY-PASSES: relaxc opt: error: --passes expects comma-separated pass names, got ''
# EMPTY-PASSES: exit status 2
# RUN: sh -c '%relaxc opt %s --passes=normalize,,well-formed 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=EMPTY-PASS-NAME
# EMPTY-PASS-NAME: relaxc opt: error: --passes expects comma-separated pass names, got 'normalize,,well-formed'
# EMPTY-PASS-NAME: exit status 2
# RUN: sh -c '%relaxc opt %s --passes 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-PASSES-VALUE
# NO-PASSES-VALUE: relaxc opt: error: option '--passes' needs a value
# NO-PASSES-VALUE: exit status 2
#
# A file that does not exist, or a directory: exit status 1 with the reason.
# RUN: sh -c '%relaxc check %S/Inputs/does_not_exist.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=NO-SUCH-FILE
# NO-SUCH-FILE: relaxc check: error: {{.*}}does_not_exist.py: cannot open: No such file or directory
# NO-SUCH-FILE-NEXT: exit status 1
# RUN: sh -c '%relaxc print %S 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=DIRECTORY
# DIRECTORY: relaxc print: error: {{.*}}tools: is a directory; expected a regular file, or '-' for standard input
# DIRECTORY-NEXT: exit status 1
# RUN: sh -c '%relaxc print %s -o %S/Inputs/no_such_dir/out.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=UNWRITABLE
# UNWRITABLE: relaxc print: error: {{.*}}no_such_dir/out.py: cannot write: No such file or directory
# UNWRITABLE-NEXT: exit status 1

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        return x
