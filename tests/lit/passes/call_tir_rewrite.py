# call-tir-rewrite: each output of call_tir is allocated (storage of n * 32 * 4 bytes,
# then a tensor in it) and the PrimFunc is called with the inputs, the output and the
# tir_vars; call_dps_packed becomes call_packed with the inputs then the outputs.
#
# RUN: %relaxc opt %s --passes=to-non-dataflow,remove-purity-checking,call-tir-rewrite,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK: storage: R.Object = R.memory.alloc_storage(R.shape([n * 128]), R.prim_value(T.int64(0)), R.str("global"), R.dtype("uint8"))
# CHECK-NEXT: y: R.Tensor((n, 32), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(T.int64(0)), R.shape([n, 32]), R.dtype("float32"))
# CHECK-NEXT: _: R.Object = cls.dense(x, w, y, R.shape([3]))
# CHECK-NEXT: storage{{.*}}: R.Object = R.memory.alloc_storage(R.shape([n * 128]),
# CHECK-NEXT: z: R.Tensor((n, 32), dtype="float32") = R.memory.alloc_tensor(storage{{.*}}, R.prim_value(T.int64(0)), R.shape([n, 32]), R.dtype("float32"))
# CHECK-NEXT: _{{.*}}: R.Object = R.call_packed("custom_relu", y, z)
# CHECK-NEXT: return z

@I.ir_module
class Module:
    @T.prim_func
    def dense(x: T.handle, w: T.handle, y: T.handle, m: T.int64):
        n = T.int64()
        X = T.match_buffer(x, (n, 16), "float32")
        W = T.match_buffer(w, (16, 32), "float32")
        Y = T.match_buffer(y, (n, 32), "float32")
        for i, j in T.grid(n, 32):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, 0] * W[0, vj] + T.Cast("float32", m)

    @R.function
    def main(x: R.Tensor(("n", 16), "float32"), w: R.Tensor((16, 32), "float32")) -> R.Tensor(("n", 32), "float32"):
        n = T.int64()
        with R.dataflow():
            y = R.call_tir(Module.dense, (x, w), out_sinfo=R.Tensor((n, 32), "float32"), tir_vars=R.shape([3]))
            z = R.call_dps_packed("custom_relu", (y,), out_sinfo=R.Tensor((n, 32), "float32"))
            R.output(z)
        return z
