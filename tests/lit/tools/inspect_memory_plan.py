# relaxc inspect prints each function's memory plan (static-plan-block-memory): its
# storages, their sizes and tensors, and the peak next to the liveness lower bound and
# the peak without planning. Built without the pass, the executable has no plan, and both
# executables compute the same result on the device (x + 4).
#
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(16, dtype=np.float32))"
# RUN: %relaxc build %s --target vulkan -o %t/planned.rxe
# RUN: %relaxc inspect %t/planned.rxe | FileCheck %s
# RUN: %relaxc build %s --target vulkan -o %t/unplanned.rxe --disable-pass=static-plan-block-memory
# RUN: %relaxc inspect %t/unplanned.rxe | FileCheck %s --check-prefix=OFF
# RUN: %relaxc run %t/planned.rxe --function chain --input %t/x.npy | FileCheck %s --check-prefix=RESULT
# RUN: %relaxc run %t/unplanned.rxe --function chain --input %t/x.npy | FileCheck %s --check-prefix=RESULT
#
# a and c (64 bytes each) share a storage, b has its own, the result d too: at most two
# of the four are live at once (128 bytes); unplanned, all four are held (256).
# CHECK: function {{[0-9]+}} 'chain': bytecode
# CHECK: call vm.builtin.null_value()
# CHECK: memory plan:
# CHECK-NEXT: storage 0: 64 bytes: a c
# CHECK-NEXT: storage 1: 64 bytes: b
# CHECK-NEXT: peak: 128 bytes (live tensors at most 128, without planning 256)
# OFF-NOT: memory plan:
# OFF-NOT: vm.builtin.null_value
# RESULT: chain_0: float32 (16,) [4, 5, 6, 7, 8,

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("y"):
                vi = T.axis.spatial(16, i)
                y[vi] = x[vi] + T.float32(1)

    @R.function
    def chain(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        cls = Module
        a = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((16,), "float32"))
        b = R.call_tir(cls.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
        c = R.call_tir(cls.add_one, (b,), out_sinfo=R.Tensor((16,), "float32"))
        d = R.call_tir(cls.add_one, (c,), out_sinfo=R.Tensor((16,), "float32"))
        return d
