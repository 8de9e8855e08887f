# Input files and outputs of every command: what is not a regular file or is too large is
# refused naming the file, '-' reads standard input everywhere (an executable too),
# output that cannot be written fails with exit status 1, -o never overwrites the input,
# and every error line starts with "relaxc COMMAND: error:" or "file:line:col: error:".
#
# RUN: rm -rf %t && mkdir -p %t/dir
# RUN: %relaxc build %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/mlp.rxe
# RUN: python3 %S/../../../scripts/mlp_data.py inputs %t --batch 2
#
# A device (it would never end), a directory, a FIFO and a file over the 256 MiB limit
# (sparse: refused by its size, before a byte is read).
# RUN: sh -c '%relaxc check /dev/zero 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=ZERO
# ZERO: relaxc check: error: /dev/zero: is a character device; expected a regular file, or '-' for standard input
# ZERO-NEXT: exit status 1
# RUN: sh -c '%relaxc build %t/dir --target "vulkan -profile=mobile" 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=DIR
# DIR: relaxc build: error: {{.*}}dir: is a directory; expected a regular file, or '-' for standard input
# DIR-NEXT: exit status 1
# RUN: sh -c '%relaxc inspect %t/dir 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=INSPECT-DIR
# INSPECT-DIR: relaxc inspect: error: {{.*}}dir: is a directory; expected a regular file, or '-' for standard input
# INSPECT-DIR-NEXT: exit status 1
# RUN: mkfifo %t/fifo
# RUN: sh -c '%relaxc print %t/fifo 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=FIFO
# FIFO: relaxc print: error: {{.*}}fifo: is a pipe; expected a regular file, or '-' for standard input
# FIFO-NEXT: exit status 1
# RUN: truncate -s 300M %t/huge.py
# RUN: sh -c '%relaxc check %t/huge.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=HUGE
# HUGE: relaxc check: error: {{.*}}huge.py: larger than the limit of 268435456 bytes for an input file
# HUGE-NEXT: exit status 1
# RUN: sh -c '%relaxc run %t/mlp.rxe --device vulkan --input /dev/zero --input %t/w.npy --input %t/b.npy 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=RUN-INPUT
# RUN-INPUT: relaxc run: error: /dev/zero: is a character device; expected a regular file, or '-' for standard input
# RUN-INPUT-NEXT: exit status 1
#
# Standard input: a module to check, print, codegen and build, an executable to inspect.
# RUN: %relaxc check - < %s
# RUN: %relaxc print - < %s | FileCheck %s --check-prefix=PRINT
# PRINT: def main(
# RUN: %relaxc build - --target "vulkan -profile=mobile" -o %t/m.rxe < %s
# RUN: %relaxc inspect - < %t/m.rxe | FileCheck %s --check-prefix=INSPECT
# INSPECT: relaxc executable, version 5
# INSPECT: exports: main
# RUN: %relaxc run - --device vulkan --input %t/images.npy --input %t/w.npy --input %t/b.npy < %t/mlp.rxe | FileCheck %s --check-prefix=RUN-STDIN
# RUN: %relaxc run - --device vulkan --input %t/images.npy --input %t/w.npy --input %t/b.npy < %S/../../../examples/mlp.py | FileCheck %s --check-prefix=RUN-STDIN
# RUN: %relaxc run %t/mlp.rxe --device vulkan --input - --input %t/w.npy --input %t/b.npy < %t/images.npy | FileCheck %s --check-prefix=RUN-STDIN
# RUN-STDIN: main_0: float32 (64,)
# RUN: head -c 300 %t/mlp.rxe | sh -c '%relaxc run - 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=RUN-STDIN-TRUNCATED
# RUN-STDIN-TRUNCATED: relaxc run: error: executable file '<stdin>': truncated at byte 300
# RUN-STDIN-TRUNCATED-NEXT: exit status 1
#
# -o - writes to standard output: an executable, a kernel, a module; several kernels
# cannot go there (they are written one file each).
# RUN: %relaxc build %s --target "vulkan -profile=mobile" -o - | %relaxc inspect - | FileCheck %s --check-prefix=BUILD-STDOUT
# BUILD-STDOUT: relaxc executable, version 5
# RUN: %relaxc print %s -o - | FileCheck %s --check-prefix=PRINT
# RUN: sh -c '%relaxc codegen --target "vulkan -profile=mobile" %S/../../../examples/mlp.py --emit=binary -o - 2>&1 >/dev/null; echo "exit status $?"' | FileCheck %s --check-prefix=CODEGEN-STDOUT
# CODEGEN-STDOUT: relaxc codegen: error: standard output: not a regular file; the 3 kernels are written next to -o OUTPUT
# CODEGEN-STDOUT-NEXT: exit status 1
#
# Output that cannot be written: a full device, a closed standard output.
# RUN: sh -c '%relaxc print %s > /dev/full 2>%t/err; echo "exit status $?" >> %t/err'; FileCheck %s --check-prefix=FULL < %t/err
# FULL: relaxc print: error: standard output: cannot write: No space left on device
# FULL-NEXT: exit status 1
# RUN: sh -c '%relaxc inspect %t/m.rxe >&- 2>%t/err; echo "exit status $?" >> %t/err'; FileCheck %s --check-prefix=CLOSED < %t/err
# CLOSED: relaxc inspect: error: standard output: cannot write: Bad file descriptor
# CLOSED-NEXT: exit status 1
# RUN: sh -c '%relaxc --help > /dev/full 2>%t/err; echo "exit status $?" >> %t/err'; FileCheck %s --check-prefix=HELP-FULL < %t/err
# HELP-FULL: error: standard output: cannot write
# HELP-FULL-NEXT: exit status 1
# RUN: sh -c '%relaxc print %s -o /dev/full 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=O-FULL
# O-FULL: relaxc print: error: /dev/full: cannot write: No space left on device
# O-FULL-NEXT: exit status 1
# RUN: sh -c '%relaxc build %s --target "vulkan -profile=mobile" -o /dev/full 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BUILD-FULL
# BUILD-FULL: relaxc build: error: /dev/full: cannot write: No space left on device
# BUILD-FULL-NEXT: exit status 1
# RUN: sh -c '%relaxc build %s --target "vulkan -profile=mobile" -o %t/dir 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=BUILD-DIR
# BUILD-DIR: relaxc build: error: {{.*}}dir: cannot write: it is a directory
# BUILD-DIR-NEXT: exit status 1
#
# -o naming the input (by the same or another path) is refused; the input is unchanged.
# RUN: cp %s %t/in.py
# RUN: sh -c '%relaxc print %t/in.py -o %t/in.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=SAME
# SAME: relaxc print: error: -o '{{.*}}in.py' is the input file; it would be overwritten
# SAME: exit status 2
# RUN: sh -c 'cd %t && %relaxc opt in.py -o ./dir/../in.py 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=SAME-OTHER
# SAME-OTHER: relaxc opt: error: -o './dir/../in.py' is the input file; it would be overwritten
# SAME-OTHER: exit status 2
# RUN: cmp %s %t/in.py
# RUN: cp %s %t/text.rxe
# RUN: sh -c 'cd %t && %relaxc build text.rxe --target "vulkan -profile=mobile" 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=DEFAULT-SAME
# DEFAULT-SAME: relaxc build: error: text.rxe: the default output is the input file; give -o OUTPUT
# DEFAULT-SAME-NEXT: exit status 1
# RUN: cmp %s %t/text.rxe
#
# codegen with several kernels writes them next to -o OUTPUT: only when it names a file.
# RUN: sh -c '%relaxc codegen %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o %t/dir 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=CODEGEN-DIR
# CODEGEN-DIR: relaxc codegen: error: {{.*}}dir: not a regular file; the 3 kernels are written next to -o OUTPUT
# CODEGEN-DIR-NEXT: exit status 1
# RUN: sh -c '%relaxc codegen %S/../../../examples/mlp.py --target "vulkan -profile=mobile" -o /dev/null 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=CODEGEN-DEV
# CODEGEN-DEV: relaxc codegen: error: /dev/null: not a regular file
# CODEGEN-DEV-NEXT: exit status 1
# RUN: ls %t | FileCheck %s --check-prefix=NO-SIBLINGS
# NO-SIBLINGS-NOT: dir.
# RUN: sh -c 'ls /dev | grep -c "^null\." ; true' | FileCheck %s --check-prefix=NO-DEV-SIBLINGS
# NO-DEV-SIBLINGS: 0
#
# An error without a place in the source still names the command.
# RUN: sh -c '%relaxc build %s --target metal 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=METAL
# METAL: relaxc build: error: invalid target 'metal'
# METAL: exit status 1
# RUN: sh -c '%relaxc codegen %s --target "vulkan -profile=tiny" 2>&1; echo "exit status $?"' | FileCheck %s --check-prefix=PROFILE
# PROFILE: relaxc codegen: error:
# PROFILE: exit status 1
#
# inspect --verify: each kernel's verdict from spirv-val, or that the tool is missing.
# RUN: %relaxc inspect --verify %t/mlp.rxe | FileCheck %s --check-prefix=VERIFY
# VERIFY: verify:
# VERIFY-NEXT: backend 0 (vulkan -profile=mobile), kernel '{{.*}}': spirv-val: valid
# RUN: env PATH=%t/dir %relaxc inspect --verify %t/mlp.rxe | FileCheck %s --check-prefix=NO-TOOL
# NO-TOOL: verify:
# NO-TOOL-NEXT: backend 0 (vulkan -profile=mobile), kernel '{{.*}}': not verified: spirv-val is not installed

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x
