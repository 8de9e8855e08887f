# static-plan-block-memory: a chain of same-size kernels shares two storages (a tensor's
# storage is taken before the kernel that reads the previous one, so neighbours never
# share); the returned tensor keeps its own; each storage is killed after its last use.
#
# RUN: %relaxc opt %s --passes=to-non-dataflow,remove-purity-checking,call-tir-rewrite,static-plan-block-memory,well-formed | FileCheck %s
#
# The planned functions run on the Vulkan device (lavapipe in CI), their kills included:
# tuple_outputs(x) = (2 (p + q)) + p with p = x + 1 and q = 2 x, that is 7 x + 3.
# RUN: %python -c "import numpy as np; np.save('%t.npy', np.arange(16, dtype=np.float32))"
# RUN: %relaxc run %s --function tuple_outputs --input %t.npy | FileCheck %s --check-prefix=VALUES
# VALUES: tuple_outputs_0: float32 (16,) [3, 10, 17, 24, 31, 38, 45, 52, ...]
#
# Five intermediates of 64 bytes in 2 storages, the result in its own: 3 allocations in
# all (the lines below are the whole function). At e's kernel d and e are live, at f's e
# and f: the peak is 128 bytes; unplanned, all six are held (384).
# CHECK-LABEL: def chain(
# CHECK: "relaxc.memory_plan": ["storage 0: 64 bytes: a c e", "storage 1: 64 bytes: b d", "peak: 128 bytes (live tensors at most 128, without planning 384)"]
# CHECK: storage: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: a: {{.*}} = R.memory.alloc_tensor(storage,
# CHECK-NEXT: _: R.Object = cls.add_one(x, a)
# CHECK-NEXT: storage_1: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: b: {{.*}} = R.memory.alloc_tensor(storage_1,
# CHECK-NEXT: _: R.Object = cls.add_one(a, b)
# CHECK-NEXT: c: {{.*}} = R.memory.alloc_tensor(storage,
# CHECK-NEXT: _: R.Object = cls.add_one(b, c)
# CHECK-NEXT: d: {{.*}} = R.memory.alloc_tensor(storage_1,
# CHECK-NEXT: _: R.Object = cls.add_one(c, d)
# CHECK-NEXT: e: {{.*}} = R.memory.alloc_tensor(storage,
# CHECK-NEXT: _: R.Object = cls.add_one(d, e)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(b)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(d)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_storage(storage_1)
# CHECK-NEXT: storage_{{[0-9]+}}: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: f: {{.*}} = R.memory.alloc_tensor(
# CHECK-NEXT: _: R.Object = cls.add_one(e, f)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(a)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(c)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(e)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_storage(storage)
# CHECK-NEXT: return f
#
# A diamond: b and c both read a, d reads b and c. a dies at c's kernel, b at d's; d
# takes a's storage (free once c is computed), so three storages hold four tensors; at
# d's kernel b, c and d are live (192 bytes), which is the peak.
# CHECK-LABEL: def diamond(
# CHECK: "relaxc.memory_plan": ["storage 0: 64 bytes: a d", "storage 1: 64 bytes: b", "storage 2: 64 bytes: c", "peak: 192 bytes (live tensors at most 192, without planning 320)"]
#
# Tuple outputs: split2 writes p and q, the items of a tuple t over two storages. Each
# item dies with its own storage (s takes q's once r has read q; p's storage ends with
# u's kernel), and the tuple, which holds both, right after its last use, so that it
# keeps neither storage from the pool. The lines below are the whole function.
# CHECK-LABEL: def tuple_outputs(
# CHECK: "relaxc.memory_plan": ["storage 0: 64 bytes: t_0", "storage 1: 64 bytes: t_1 s", "storage 2: 64 bytes: r", "peak: 192 bytes (live tensors at most 192, without planning 320)"]
# CHECK-NEXT: cls = Module
# CHECK-NEXT: storage: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: t_0: {{.*}} = R.memory.alloc_tensor(storage,
# CHECK-NEXT: storage_1: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: t_1: {{.*}} = R.memory.alloc_tensor(storage_1,
# CHECK-NEXT: _: R.Object = cls.split2(x, t_0, t_1)
# CHECK-NEXT: t: R.Tuple({{.*}}) = (t_0, t_1)
# CHECK-NEXT: p: {{.*}} = t[0]
# CHECK-NEXT: q: {{.*}} = t[1]
# CHECK-NEXT: _: R.Tuple = R.vm.kill_object(t)
# CHECK-NEXT: storage_2: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: r: {{.*}} = R.memory.alloc_tensor(storage_2,
# CHECK-NEXT: _: R.Object = cls.add(p, q, r)
# CHECK-NEXT: s: {{.*}} = R.memory.alloc_tensor(storage_1,
# CHECK-NEXT: _: R.Object = cls.add(r, r, s)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(r)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_storage(storage_2)
# CHECK-NEXT: storage_{{[0-9]+}}: R.Object = R.memory.alloc_storage(R.shape([64]),
# CHECK-NEXT: u: {{.*}} = R.memory.alloc_tensor(
# CHECK-NEXT: _: R.Object = cls.add(s, p, u)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(t_0)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(p)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_storage(storage)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(t_1)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(q)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_tensor(s)
# CHECK-NEXT: _: R.Tuple = R.memory.kill_storage(storage_1)
# CHECK-NEXT: return u

@I.ir_module
class Module:
    @T.prim_func
    def split2(x: T.Buffer((16,), "float32"), p: T.Buffer((16,), "float32"), q: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("pq"):
                vi = T.axis.spatial(16, i)
                p[vi] = x[vi] + T.float32(1)
                q[vi] = x[vi] * T.float32(2)

    @T.prim_func
    def add_one(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("y"):
                vi = T.axis.spatial(16, i)
                y[vi] = x[vi] + T.float32(1)

    @T.prim_func
    def add(x: T.Buffer((16,), "float32"), y: T.Buffer((16,), "float32"), z: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("z"):
                vi = T.axis.spatial(16, i)
                z[vi] = x[vi] + y[vi]

    @R.function
    def chain(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        with R.dataflow():
            a = R.call_tir(Module.add_one, (x,), out_sinfo=R.Tensor((16,), "float32"))
            b = R.call_tir(Module.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
            c = R.call_tir(Module.add_one, (b,), out_sinfo=R.Tensor((16,), "float32"))
            d = R.call_tir(Module.add_one, (c,), out_sinfo=R.Tensor((16,), "float32"))
            e = R.call_tir(Module.add_one, (d,), out_sinfo=R.Tensor((16,), "float32"))
            f = R.call_tir(Module.add_one, (e,), out_sinfo=R.Tensor((16,), "float32"))
            R.output(f)
        return f

    @R.function
    def diamond(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        with R.dataflow():
            a = R.call_tir(Module.add_one, (x,), out_sinfo=R.Tensor((16,), "float32"))
            b = R.call_tir(Module.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
            c = R.call_tir(Module.add_one, (a,), out_sinfo=R.Tensor((16,), "float32"))
            d = R.call_tir(Module.add, (b, c), out_sinfo=R.Tensor((16,), "float32"))
            e = R.call_tir(Module.add_one, (d,), out_sinfo=R.Tensor((16,), "float32"))
            R.output(e)
        return e

    @R.function
    def tuple_outputs(x: R.Tensor((16,), "float32")) -> R.Tensor((16,), "float32"):
        with R.dataflow():
            t = R.call_tir(Module.split2, (x,), out_sinfo=[R.Tensor((16,), "float32"), R.Tensor((16,), "float32")])
            p = t[0]
            q = t[1]
            r = R.call_tir(Module.add, (p, q), out_sinfo=R.Tensor((16,), "float32"))
            s = R.call_tir(Module.add, (r, r), out_sinfo=R.Tensor((16,), "float32"))
            u = R.call_tir(Module.add, (s, p), out_sinfo=R.Tensor((16,), "float32"))
            R.output(u)
        return u
