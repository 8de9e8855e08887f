# An 'if' whose branches end in a call statement (tests/corpus/idiom_if_branch_ends_in_call.py,
# as TVM's parser tests write it) runs each branch's calls on the device (lavapipe in CI).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 -c "import struct,sys; h=lambda d: (\"{'descr': '%%s', 'fortran_order': False, 'shape': (), }\" %% d).ljust(117) + chr(10); w=lambda p,d,b: open(p,'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', 118) + h(d).encode() + b); w(sys.argv[1]+'/x.npy','<i4',struct.pack('<i',21)); w(sys.argv[1]+'/t.npy','|b1',b'\x01'); w(sys.argv[1]+'/f.npy','|b1',b'\x00')" %t
# RUN: %relaxc run %S/../../corpus/idiom_if_branch_ends_in_call.py --function conditional --input %t/x.npy --input %t/t.npy | FileCheck %s --check-prefix=TRUE
# TRUE: True condition: 21
# TRUE-NEXT: conditional_0: int32 () [21]
# RUN: %relaxc run %S/../../corpus/idiom_if_branch_ends_in_call.py --function conditional --input %t/x.npy --input %t/f.npy | FileCheck %s --check-prefix=FALSE
# FALSE: False condition:
# FALSE-NEXT: 21
# FALSE-NEXT: conditional_0: int32 () [21]
