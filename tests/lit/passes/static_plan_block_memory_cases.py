# static-plan-block-memory on If branches, symbolic sizes and escaping tensors.
#
# RUN: %relaxc opt %s --passes=to-non-dataflow,remove-purity-checking,call-tir-rewrite,static-plan-block-memory,well-formed | FileCheck %s
#
# Each branch is planned on its own; `a`, used in both branches, dies at the If. In the
# true branch b and d share a storage, c has its own, r (the branch's result) keeps its
# own. The peak is a (64) plus the true branch's 128.
# CHECK-LABEL: def branches(
# CHECK: "relaxc.memory_plan": ["storage 0: 64 bytes: a", "storage 1: 64 bytes: b d", "storage 2: 64 bytes: c", "peak: 192 bytes (live tensors at most 192, without planning 320)"]
# CHECK: if flag:
# CHECK: b: {{.*}} = R.memory.alloc_tensor(storage_1, R.prim_value(T.int64(0)), R.shape([16]),
# CHECK: d: {{.*}} = R.memory.alloc_tensor(storage_1, R.prim_value(T.int64(0)), R.shape([16]),
# CHECK: R.memory.kill_tensor(d)
# CHECK: else:
# CHECK-NOT: kill
# CHECK: R.memory.kill_tensor(a)
# CHECK-NEXT: R.memory.kill_storage(storage)
# CHECK-NEXT: storage_1: R.Object = R.memory.alloc_storage(
#
# Unbounded symbolic sizes: c reuses a's storage because n * 4 >= n * 4 is proved.
# CHECK-LABEL: def symbolic(
# At d's kernel c and d are live: the peak is n * 8; unplanned, all four are held.
# CHECK: "relaxc.memory_plan": ["storage 0: n * 4 bytes: a c", "storage 1: n * 4 bytes: b", "peak: n * 8 bytes (live tensors at most n * 8, without planning n * 16)"]
# CHECK: storage: R.Object = R.memory.alloc_storage(R.shape([n * 4]),
#
# tir_var_upper_bound {"n": 1024} (printed back as the dict TVM writes): the intermediates are
# planned at 4096 bytes; the result keeps its n * 4, at most 4096: the peak is 8192.
# CHECK-LABEL: def bounded(
# CHECK: "relaxc.memory_plan": ["storage 0: 4096 bytes: a c", "storage 1: 4096 bytes: b", "peak: 8192 bytes (live tensors at most n * 8, without planning n * 16)"]
# CHECK: "tir_var_upper_bound": {"n": 1024}
# CHECK: storage: R.Object = R.memory.alloc_storage(R.shape([4096]),
#
# Escaping tensors keep their own storages and are never killed: a goes to a packed
# function, c and e are returned in a tuple; b and d share one storage.
# CHECK-LABEL: def escapes(
# CHECK: "relaxc.memory_plan": ["storage 0: 64 bytes: b d", "peak: 256 bytes (live tensors at most 256, without planning 320)"]
# CHECK-NOT: kill_tensor(a)
# CHECK-NOT: kill_tensor(c)
# CHECK-NOT: kill_tensor(e)
# CHECK: R.memory.kill_tensor(b)
# CHECK-NEXT: R.memory.kill_tensor(d)
# CHECK-NEXT: R.memory.kill_storage(
# CHECK-NEXT: t: {{.*}} = (c, e)

@I.ir_module
class Module:
    @T.prim_func
    def add_one(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("y"):
                vi = T.axis.spatial(16, i)
                y[vi] = x[vi] + T.float32(1)

    @T.prim_func
    def add_one_n(x: T.handle, y: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n,), "float32")
        Y = T.match_buffer(y, (n,), "float32")
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                Y[vi] = X[vi] + T.float32(1)

    @R.function
    def branches(x: R.Tensor((16,), "float32"), flag: R.Tensor((), "bool")) -> R.Tensor((16,), "float32"):
        cls = Module
        a = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((16,), "float32"))
        if flag:
            b = R.call_tir(cls.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
            c = R.call_tir(cls.add_one, (b,), out_sinfo=R.Tensor((16,), "float32"))
            d = R.call_tir(cls.add_one, (c,), out_sinfo=R.Tensor((16,), "float32"))
            r = R.call_tir(cls.add_one, (d,), out_sinfo=R.Tensor((16,), "float32"))
        else:
            r = R.call_tir(cls.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
        e = R.call_tir(cls.add_one, (r,), out_sinfo=R.Tensor((16,), "float32"))
        return e

    @R.function
    def symbolic(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            a = R.call_tir(cls.add_one_n, (x,), out_sinfo=R.Tensor((n,), "float32"))
            b = R.call_tir(cls.add_one_n, (a,), out_sinfo=R.Tensor((n,), "float32"))
            c = R.call_tir(cls.add_one_n, (b,), out_sinfo=R.Tensor((n,), "float32"))
            d = R.call_tir(cls.add_one_n, (c,), out_sinfo=R.Tensor((n,), "float32"))
            R.output(d)
        return d

    @R.function
    def bounded(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        R.func_attr({"tir_var_upper_bound": {"n": 1024}})
        n = T.int64()
        cls = Module
        with R.dataflow():
            a = R.call_tir(cls.add_one_n, (x,), out_sinfo=R.Tensor((n,), "float32"))
            b = R.call_tir(cls.add_one_n, (a,), out_sinfo=R.Tensor((n,), "float32"))
            c = R.call_tir(cls.add_one_n, (b,), out_sinfo=R.Tensor((n,), "float32"))
            d = R.call_tir(cls.add_one_n, (c,), out_sinfo=R.Tensor((n,), "float32"))
            R.output(d)
        return d

    @R.function(pure=False)
    def escapes(x: R.Tensor((16,), "float32")) -> R.Tuple(R.Tensor((16,), "float32"), R.Tensor((16,), "float32")):
        cls = Module
        a = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((16,), "float32"))
        k = R.call_packed("keep", a, sinfo_args=(R.Object,))
        b = R.call_tir(cls.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
        c = R.call_tir(cls.add_one, (b,), out_sinfo=R.Tensor((16,), "float32"))
        d = R.call_tir(cls.add_one, (c,), out_sinfo=R.Tensor((16,), "float32"))
        e = R.call_tir(cls.add_one, (d,), out_sinfo=R.Tensor((16,), "float32"))
        t = (c, e)
        return t
