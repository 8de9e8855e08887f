# The weights side file of a text module: `relaxc print -o model.py` writes the constant
# of 80 elements to model.safetensors and refers to it as metadata; the pair builds and
# runs as the original does; a missing or damaged side file is an error naming it.
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %relaxc print %s -o %t/model.py
# RUN: FileCheck %s --check-prefix=TEXT < %t/model.py
# TEXT: R.add(x, metadata["relax.expr.Constant"][0])
# TEXT-NOT: metadata["relax.expr.Constant"][1]
# TEXT: R.const([0.5, 0.25, 0.5, 0.25, 0.5, 0.25, 0.5, 0.25], "float32")
# RUN: python3 -c "import sys; d=open(sys.argv[1],'rb').read(); print(d[8:90])" %t/model.safetensors | FileCheck %s --check-prefix=SIDE
# SIDE: b'{"relax.expr.Constant.0":{"dtype":"F32","shape":[10, 8],"data_offsets":[0,320]}
#
# The same outputs from the module and from model.py (which reads model.safetensors).
# RUN: python3 -c "import struct,sys; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', 118) + (\"{'descr': '<f4', 'fortran_order': False, 'shape': (10, 8), }\".ljust(117) + '\n').encode() + struct.pack('<80f', *range(80)))" %t/x.npy
# RUN: %relaxc run %s --input %t/x.npy | FileCheck %s --check-prefix=OUT
# RUN: %relaxc run %t/model.py --input %t/x.npy | FileCheck %s --check-prefix=OUT
# RUN: %relaxc build %t/model.py --target "vulkan -profile=mobile" -o %t/model.rxe
# RUN: %relaxc run %t/model.rxe --input %t/x.npy | FileCheck %s --check-prefix=OUT
# OUT: main_0: float32 (10, 8) [-3, -1.75, -0.5, 0.75, 2, 3.25, 4.5, 5.75, ...]
#
# Printing model.py again gives the same text.
# RUN: %relaxc print %t/model.py -o %t/again.py
# RUN: diff %t/model.py %t/again.py
# RUN: cmp %t/model.safetensors %t/again.safetensors
#
# A damaged side file (truncated), then a missing one.
# RUN: head -c 200 %t/model.safetensors > %t/cut.safetensors && cp %t/model.py %t/cut.py
# RUN: not %relaxc check %t/cut.py 2>&1 | FileCheck %s --check-prefix=CUT
# CUT: relaxc check: error: {{.*}}cut.safetensors: tensor 'relax.expr.Constant.0': data_offsets [0, 320] lie outside the 112 bytes of data (truncated?)
# RUN: cp %t/model.py %t/alone.py
# RUN: not %relaxc build %t/alone.py --target vulkan -o %t/alone.rxe 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: relaxc build: error: {{.*}}alone.safetensors: cannot open: No such file or directory (the weights side file of a module that refers to metadata)
#
# Standard output has no side file: every constant is printed inline.
# RUN: %relaxc print %s | FileCheck %s --check-prefix=INLINE
# INLINE-NOT: metadata
# INLINE: R.const({{\[\[}}-3.0, -2.75,

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((10, 8), dtype="float32")) -> R.Tensor((10, 8), dtype="float32"):
        a: R.Tensor((10, 8), dtype="float32") = R.add(x, R.const([[-3.0, -2.75, -2.5, -2.25, -2.0, -1.75, -1.5, -1.25],
                  [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75],
                  [1.0, 1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75],
                  [3.0, 3.25, 3.5, 3.75, 4.0, 4.25, 4.5, 4.75],
                  [5.0, 5.25, 5.5, 5.75, 6.0, 6.25, 6.5, 6.75],
                  [7.0, 7.25, 7.5, 7.75, 8.0, 8.25, 8.5, 8.75],
                  [9.0, 9.25, 9.5, 9.75, 10.0, 10.25, 10.5, 10.75],
                  [11.0, 11.25, 11.5, 11.75, 12.0, 12.25, 12.5, 12.75],
                  [13.0, 13.25, 13.5, 13.75, 14.0, 14.25, 14.5, 14.75],
                  [15.0, 15.25, 15.5, 15.75, 16.0, 16.25, 16.5, 16.75]], "float32"))
        b: R.Tensor((10, 8), dtype="float32") = R.multiply(a, R.const([0.5, 0.25, 0.5, 0.25, 0.5, 0.25, 0.5, 0.25], "float32"))
        return a
