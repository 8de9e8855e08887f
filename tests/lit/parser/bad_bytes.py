# An embedded NUL byte or invalid UTF-8 is a syntax error at its place, never a crash.
#
# RUN: printf '@I.ir_module\nclass Module:\n    x = "\000"\n' | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=NUL
# NUL: <stdin>:3:10: error: unexpected NUL character
#
# RUN: printf '# caf\351\n@I.ir_module\n' | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=UTF8
# UTF8: <stdin>:1:6: error: invalid UTF-8 byte 0xe9
#
# RUN: printf '@I.ir_module\nclass Module:\n    \303\251 = 1\n' | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=CHAR
# CHAR: <stdin>:3:5: error: unexpected character 'é'
