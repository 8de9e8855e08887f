# An example module: one dense layer with a bias and a ReLU over a batch of 8x8 images
# whose size n is symbolic. Every computation is a TensorIR kernel reached with
# call_tir: `dense` (a reduction block) and `bias_relu`. `main` flattens the images
# with R.reshape (a view in the VM, no copy), calls the Relax function `layer`, and
# flattens the result, whose size n * 32 the VM computes from the shape heap.
#
#   relaxc check examples/mlp.py
#   relaxc build examples/mlp.py --target vulkan -o mlp.rxe
#   relaxc run mlp.rxe --input images.npy --input w.npy --input b.npy --output-dir out/
#
# scripts/run.sh builds and runs it on the best device present and checks the result.
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

    @T.prim_func(private=True)
    def bias_relu(var_x: T.handle, b: T.Buffer((T.int64(32),), "float32"), var_y: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(32)))
        y = T.match_buffer(var_y, (n, T.int64(32)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(32)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj], b[vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.max(x[vi, vj] + b[vj], T.float32(0))

    @R.function
    def layer(x: R.Tensor(("n", 64), dtype="float32"), w: R.Tensor((64, 32), dtype="float32"), b: R.Tensor((32,), dtype="float32")) -> R.Tensor(("n", 32), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            y: R.Tensor((n, 32), dtype="float32") = R.call_tir(cls.dense, (x, w), out_sinfo=R.Tensor((n, 32), dtype="float32"))
            z: R.Tensor((n, 32), dtype="float32") = R.call_tir(cls.bias_relu, (y, b), out_sinfo=R.Tensor((n, 32), dtype="float32"))
            R.output(z)
        return z

    @R.function
    def main(images: R.Tensor(("n", 8, 8), dtype="float32"), w: R.Tensor((64, 32), dtype="float32"), b: R.Tensor((32,), dtype="float32")) -> R.Tensor(("n * 32",), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            flat: R.Tensor((n, 64), dtype="float32") = R.reshape(images, R.shape([n, 64]))
            hidden: R.Tensor((n, 32), dtype="float32") = cls.layer(flat, w, b)
            out: R.Tensor((n * 32,), dtype="float32") = R.reshape(hidden, R.shape([n * 32]))
            R.output(out)
        return out
