# TVM idiom: an if on a tensor condition, as TVM's VM tests write it. `countdown` branches
# on a (1,)-shaped int32 tensor a kernel computes and recurses (it runs: relaxc run with
# n = [5] gives [32]); `recursion` is the VM recursion test's form, whose condition and
# results are R.Object values of packed functions, joined with a constant.
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def is_zero(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "int32")):
        for i in range(1):
            with T.block("B"):
                vi = T.axis.spatial(1, i)
                B[vi] = T.Cast("int32", A[vi] == T.float32(0))

    @T.prim_func(private=True)
    def sub_one(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
        for i in range(1):
            with T.block("B"):
                vi = T.axis.spatial(1, i)
                B[vi] = A[vi] - T.float32(1)

    @T.prim_func(private=True)
    def double(A: T.Buffer((1,), "float32"), B: T.Buffer((1,), "float32")):
        for i in range(1):
            with T.block("B"):
                vi = T.axis.spatial(1, i)
                B[vi] = A[vi] + A[vi]

    @R.function
    def countdown(n: R.Tensor((1,), "float32")) -> R.Tensor((1,), "float32"):
        cls = Module
        cond = R.call_tir(cls.is_zero, n, R.Tensor((1,), "int32"))
        if cond:
            res = R.const([1.0], "float32")
        else:
            m = R.call_tir(cls.sub_one, n, R.Tensor((1,), "float32"))
            tmp = cls.countdown(m)
            res = R.call_tir(cls.double, tmp, R.Tensor((1,), "float32"))
        return res

    @R.function
    def recursion(n: R.Tensor((1,), "float32")) -> R.Tensor:
        cond = R.call_pure_packed("test.vm.equal_zero", n, sinfo_args=(R.Tensor(ndim=1, dtype="float32")))
        if cond:
            res = R.const(1.0)
        else:
            gv0 = R.call_pure_packed("test.vm.subtract_one", n, sinfo_args=(R.Tensor(ndim=1, dtype="float32")))
            tmp = Module.recursion(gv0)
            res = R.call_pure_packed("test.vm.add", tmp, tmp)
        return res
