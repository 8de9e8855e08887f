# Rule 12 («later»: some function is externally linked) is not enforced: a module of
# private functions only is well formed.
#
# RUN: %relaxc check %s 2>&1 | count 0

@I.ir_module
class Module:
    @R.function(private=True)
    def helper(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        y = R.add(x, x)
        return y

    @T.prim_func(private=True)
    def zero(A: T.Buffer((4,), "float32")):
        for i in range(4):
            A[i] = T.float32(0)
