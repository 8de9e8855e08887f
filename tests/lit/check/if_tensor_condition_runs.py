# An If on a tensor condition, as TVM's VM tests write it, runs on the device (lavapipe
# in CI): the VM reads the condition's one element. `countdown` (tests/corpus) recurses on
# a (1,)-shaped int32 condition a kernel computes; `pick` branches on a condition whose
# length is known only at run time, which the VM checks (vm-shape-lower asserts its
# dimensions before the If, so the message names the If's place).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: python3 -c "import struct,sys; h=lambda d,s: (\"{'descr': '%%s', 'fortran_order': False, 'shape': (%%s), }\" %% (d, s)).ljust(117) + chr(10); w=lambda p,d,s,b: open(p,'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', 118) + h(d,s).encode() + b); w(sys.argv[1]+'/n.npy','<f4','1,',struct.pack('<f',5)); w(sys.argv[1]+'/one.npy','<i4','1,',struct.pack('<i',1)); w(sys.argv[1]+'/zero.npy','<i4','1,',struct.pack('<i',0)); w(sys.argv[1]+'/two.npy','<i4','2,',struct.pack('<2i',1,1)); w(sys.argv[1]+'/x.npy','<f4','4,',struct.pack('<4f',1,2,3,4))" %t
# RUN: %relaxc run %S/../../corpus/idiom_if_tensor_condition.py --function countdown --input %t/n.npy | FileCheck %s --check-prefix=COUNTDOWN
# COUNTDOWN: countdown_0: float32 (1,) [32]
# RUN: %relaxc run %s --function pick --input %t/one.npy --input %t/x.npy | FileCheck %s --check-prefix=TRUE
# TRUE: pick_0: float32 (4,) [1, 2, 3, 4]
# RUN: %relaxc run %s --function pick --input %t/zero.npy --input %t/x.npy | FileCheck %s --check-prefix=FALSE
# FALSE: pick_0: float32 (4,) [2, 4, 6, 8]
# RUN: not %relaxc run %s --function pick --input %t/two.npy --input %t/x.npy 2>&1 | FileCheck %s --check-prefix=TWO
# TWO: relaxc run: error: in pick, instruction {{[0-9]+}} ({{.*}}if_tensor_condition_runs.py:[[@LINE+12]]:9): pick: the condition of If ({{.*}}if_tensor_condition_runs.py:[[@LINE+14]]:9), expected a tensor of one element: dimension 0 is 2, expected 1

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi] + A[vi]

    @R.function
    def pick(c: R.Tensor(("n",), dtype="int32"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        if c:
            y = x
        else:
            y = R.call_tir(cls.double, x, R.Tensor((4,), dtype="float32"))
        return y
