# Nesting is bounded: 300 nested parentheses are an error at the 201st level of
# expression, not a stack overflow.
#
# RUN: python3 -c "print('@I.ir_module\nclass Module:\n    @R.function\n    def f(x: R.Object):\n        y = ' + '(' * 300 + 'x' + ')' * 300 + '\n        return y')" | not %relaxc check - 2>&1 | FileCheck %s
# CHECK: <stdin>:5:213: error: nesting too deep
