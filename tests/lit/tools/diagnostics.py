# Errors are rendered as file:line:col: error: message, then the source line and a caret
# under the column, on standard error, with exit status 1.
#
# An unknown operator: the location is the start of the callee.
# RUN: sh -c '%relaxc check %S/Inputs/unknown_operator.py 2>&1; echo "exit status $?"' | FileCheck %s --strict-whitespace --check-prefix=UNKNOWN-OP
# UNKNOWN-OP: {{^}}{{.*}}Inputs/unknown_operator.py:9:19: error: {{.*}}R.ad
# UNKNOWN-OP-NEXT: {{^}}            lv0 = R.ad(x, y){{$}}
# UNKNOWN-OP-NEXT: {{^}}                  ^{{$}}
# UNKNOWN-OP: exit status 1
#
# The same from standard input, named <stdin>; print and opt report it the same way.
# RUN: not %relaxc check - < %S/Inputs/unknown_operator.py 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STDIN
# RUN: not %relaxc print - < %S/Inputs/unknown_operator.py 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STDIN
# RUN: not %relaxc opt --passes=normalize - < %S/Inputs/unknown_operator.py 2>&1 | FileCheck %s --strict-whitespace --check-prefix=STDIN
# STDIN: {{^}}<stdin>:9:19: error: {{.*}}R.ad
# STDIN-NEXT: {{^}}            lv0 = R.ad(x, y){{$}}
# STDIN-NEXT: {{^}}                  ^{{$}}
#
# Nothing is printed to standard output when the module has errors.
# RUN: not %relaxc print %S/Inputs/unknown_operator.py 2>/dev/null | count 0
#
# A shape mismatch the normalizer finds names the operator, at the call.
# RUN: sh -c '%relaxc check %S/Inputs/shape_mismatch.py 2>&1; echo "exit status $?"' | FileCheck %s --strict-whitespace --check-prefix=SHAPE
# SHAPE: {{^}}{{.*}}Inputs/shape_mismatch.py:9:19: error: {{.*}}add
# SHAPE-NEXT: {{^}}            lv0 = R.add(x, y){{$}}
# SHAPE-NEXT: {{^}}                  ^{{$}}
# SHAPE: exit status 1
#
# A syntax error (an unclosed parenthesis) is located somewhere in the file, with a caret.
# RUN: sh -c '%relaxc check %S/Inputs/syntax_error.py 2>&1; echo "exit status $?"' | FileCheck %s --strict-whitespace --check-prefix=SYNTAX
# SYNTAX: {{^}}{{.*}}Inputs/syntax_error.py:{{[0-9]+}}:{{[0-9]+}}: error: {{.+}}
# SYNTAX-NEXT: {{.+}}
# SYNTAX-NEXT: {{^ *\^$}}
# SYNTAX: exit status 1
#
# An undefined name is reported by name, at its use.
# RUN: not %relaxc check %S/Inputs/undefined_name.py 2>&1 | FileCheck %s --strict-whitespace --check-prefix=UNDEFINED
# UNDEFINED: {{^}}{{.*}}Inputs/undefined_name.py:9:27: error: {{.*}}undefined_name
# UNDEFINED-NEXT: {{^}}        y = R.multiply(x, undefined_name){{$}}
# UNDEFINED-NEXT: {{^}}                          ^{{$}}
