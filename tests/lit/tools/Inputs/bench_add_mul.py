# A module for relaxc bench: out = (x + y) * x over (n, 8, 8) float32 tensors. The
# build fuses the two TensorIR functions into one kernel, fused_add_mul_kernel, so for
# n = 16 three tensors of 16 * 8 * 8 * 4 = 4096 bytes are live during a call (x, y,
# out): 12288 bytes at the peak.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8), T.int64(8)))
        y = T.match_buffer(var_y, (n, T.int64(8), T.int64(8)))
        z = T.match_buffer(var_z, (n, T.int64(8), T.int64(8)))
        for i, j, k in T.grid(n, T.int64(8), T.int64(8)):
            with T.block("z"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                T.reads(x[vi, vj, vk], y[vi, vj, vk])
                T.writes(z[vi, vj, vk])
                z[vi, vj, vk] = x[vi, vj, vk] + y[vi, vj, vk]

    @T.prim_func(private=True)
    def mul(var_x: T.handle, var_y: T.handle, var_z: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(8), T.int64(8)))
        y = T.match_buffer(var_y, (n, T.int64(8), T.int64(8)))
        z = T.match_buffer(var_z, (n, T.int64(8), T.int64(8)))
        for i, j, k in T.grid(n, T.int64(8), T.int64(8)):
            with T.block("z"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                T.reads(x[vi, vj, vk], y[vi, vj, vk])
                T.writes(z[vi, vj, vk])
                z[vi, vj, vk] = x[vi, vj, vk] * y[vi, vj, vk]

    @R.function
    def main(x: R.Tensor(("n", 8, 8), dtype="float32"), y: R.Tensor(("n", 8, 8), dtype="float32")) -> R.Tensor(("n", 8, 8), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            s = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((n, 8, 8), dtype="float32"))
            out = R.call_tir(cls.mul, (s, x), out_sinfo=R.Tensor((n, 8, 8), dtype="float32"))
            R.output(out)
        return out
