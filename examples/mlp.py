# An example module: a TensorIR kernel (a dense layer over a symbolic batch, with a
# reduction block) and two Relax functions. `main` flattens a batch of 8x8 images,
# calls `layer` (which runs the kernel with call_tir and a ReLU), and flattens the
# result, all in a dataflow block over the symbolic batch size n.
#
#   relaxc check examples/mlp.py
#   relaxc print examples/mlp.py
#
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def dense(var_x: T.handle, w: T.Buffer((T.int64(64), T.int64(32)), "float32"), var_y: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(64)))
        y = T.match_buffer(var_y, (n, T.int64(32)))
        # with T.block("root"):
        for i, j, k in T.grid(n, T.int64(32), T.int64(64)):
            with T.block("y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(x[vi, vk], w[vk, vj])
                T.writes(y[vi, vj])
                with T.init():
                    y[vi, vj] = T.float32(0)
                y[vi, vj] = y[vi, vj] + x[vi, vk] * w[vk, vj]

    @R.function
    def layer(x: R.Tensor(("n", 64), dtype="float32"), w: R.Tensor((64, 32), dtype="float32")) -> R.Tensor(("n", 32), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            y: R.Tensor((n, 32), dtype="float32") = R.call_tir(cls.dense, (x, w), out_sinfo=R.Tensor((n, 32), dtype="float32"))
            z: R.Tensor((n, 32), dtype="float32") = R.nn.relu(y)
            R.output(z)
        return z

    @R.function
    def main(images: R.Tensor(("n", 8, 8), dtype="float32"), w: R.Tensor((64, 32), dtype="float32")) -> R.Tensor(("n * 32",), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            flat: R.Tensor((n, 64), dtype="float32") = R.reshape(images, R.shape([n, 64]))
            hidden: R.Tensor((n, 32), dtype="float32") = cls.layer(flat, w)
            out: R.Tensor((n * 32,), dtype="float32") = R.reshape(hidden, R.shape([n * 32]))
            R.output(out)
        return out
