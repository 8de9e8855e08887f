# Control flow: If with bindings in its branches, a nested If, and a recursive function
# (with the return annotation recursion requires).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def select(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        if c:
            lv: R.Tensor((n,), dtype="float32") = R.add(x, x)
            v: R.Tensor((n,), dtype="float32") = lv
        else:
            v: R.Tensor((n,), dtype="float32") = R.multiply(x, x)
        return v

    @R.function
    def classify(a: R.Tensor((), dtype="bool"), b: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        if a:
            if b:
                r: R.Tensor((4,), dtype="float32") = R.add(x, x)
            else:
                r: R.Tensor((4,), dtype="float32") = x
            out: R.Tensor((4,), dtype="float32") = r
        else:
            out: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
        return out

    @R.function
    def countdown(n: R.Tensor((), dtype="int64"), acc: R.Tensor((), dtype="int64")) -> R.Tensor((), dtype="int64"):
        cls = Module
        done: R.Tensor((), dtype="bool") = R.call_pure_packed("test.less_equal_zero", n, sinfo_args=(R.Tensor((), dtype="bool"),))
        if done:
            result: R.Tensor((), dtype="int64") = acc
        else:
            next_n: R.Tensor((), dtype="int64") = R.add(n, R.const(-1, "int64"))
            next_acc: R.Tensor((), dtype="int64") = R.add(acc, n)
            result: R.Tensor((), dtype="int64") = cls.countdown(next_n, next_acc)
        return result
