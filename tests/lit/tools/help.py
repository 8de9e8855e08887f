# The program's help, each command's help, and the usage shown without arguments.
#
# RUN: %relaxc --help | FileCheck %s --check-prefix=PROGRAM
# RUN: %relaxc -h | FileCheck %s --check-prefix=PROGRAM
# RUN: %relaxc help | FileCheck %s --check-prefix=PROGRAM
# PROGRAM: Usage: relaxc <command> [options] FILE
# PROGRAM: Commands:
# PROGRAM-NEXT: check parse and normalize FILE, then check that it is well formed
# PROGRAM-NEXT: print print FILE's normalized module, every binding with its StructInfo
# PROGRAM-NEXT: opt run passes on FILE and print the result
# PROGRAM: '-' reads standard input
# PROGRAM: Exit status: 0 on success, 1 if the module has errors or a file cannot be read or
# PROGRAM-NEXT: written (standard output included), 2 on a usage error
# PROGRAM: reported as such and exits 70.
#
# RUN: %relaxc check --help | FileCheck %s --check-prefix=CHECK-CMD
# RUN: %relaxc help check | FileCheck %s --check-prefix=CHECK-CMD
# CHECK-CMD: Usage: relaxc check [options] FILE
# CHECK-CMD: Prints nothing and exits 0 on a valid module
#
# RUN: %relaxc print -h | FileCheck %s --check-prefix=PRINT-CMD
# PRINT-CMD: Usage: relaxc print [options] FILE
# PRINT-CMD: -o OUTPUT
#
# RUN: %relaxc opt --help | FileCheck %s --check-prefix=OPT-CMD
# OPT-CMD: Usage: relaxc opt [options] FILE --passes=NAME[,NAME...]
# OPT-CMD: --passes=LIST
# OPT-CMD: Passes:
# OPT-CMD-DAG: {{^}}  normalize {{.+}}
# OPT-CMD-DAG: {{^}}  well-formed {{.+}}
#
# --help needs no FILE, and other options may come with it.
# RUN: %relaxc opt --passes=normalize --help | FileCheck %s --check-prefix=OPT-CMD
#
# Without arguments: the program's help on standard error, exit status 2.
# RUN: sh -c '%relaxc 2>&1 >/dev/null; echo "exit status $?"' | FileCheck %s --check-prefix=NO-ARGS
# NO-ARGS: Usage: relaxc <command> [options] FILE
# NO-ARGS: exit status 2
