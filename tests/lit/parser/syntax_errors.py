# Syntax errors name the token where the parse stopped, as file:line:col, with the
# source line and a caret. Each RUN feeds one broken variant of the module below
# (made with sed) to relaxc check.
#
# RUN: sed 's/R.add(x, x)/R.add(x x)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=ARGS --strict-whitespace
# ARGS: <stdin>:29:21: error: expected ')' after arguments
# ARGS-NEXT: {{^}}        y = R.add(x x){{$}}
# ARGS-NEXT: {{^}}                    ^{{$}}
#
# RUN: sed 's/^        return y/            return y/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=INDENT
# INDENT: <stdin>:30:13: error: unexpected indent
#
# RUN: sed 's/^        return y/      return y/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=DEDENT
# DEDENT: <stdin>:30:7: error: unindent does not match any outer indentation level
#
# RUN: sed 's/R.add(x, x)/R.add(x, x/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=OPEN
# OPEN: <stdin>:29:18: error: '(' was never closed
#
# RUN: sed 's/-> R.Tensor((2, 3), dtype="float32"):/-> R.Tensor((2, 3), dtype="float32")/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=COLON
# COLON: <stdin>:28:88: error: expected ':' after function signature
#
# RUN: sed 's/"float32"):$/"float32):/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=STRING
# STRING: <stdin>:28:78: error: unterminated string literal

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        y = R.add(x, x)
        return y
