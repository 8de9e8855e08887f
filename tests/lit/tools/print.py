# relaxc print writes the normalized module in TVM 0.23's form: every binding with its
# StructInfo, shape variables declared, other functions referred to through cls. The
# output is stable (printing it again gives the same text), and -o writes it to a file.
#
# RUN: %relaxc print %s | FileCheck %s
# RUN: %relaxc print - < %s | FileCheck %s
# RUN: %relaxc print %s > %t.py
# RUN: %relaxc print %t.py | diff %t.py -
# RUN: %relaxc print %s -o %t.out.py
# RUN: diff %t.py %t.out.py
#
# CHECK: # from tvm.script import ir as I
# CHECK: @I.ir_module
# CHECK-NEXT: class Module:
# CHECK-NEXT: @T.prim_func(private=True)
# CHECK-NEXT: def exp(var_x: T.handle, var_y: T.handle):
# CHECK-NEXT: n = T.int64()
# CHECK: with T.block("y"):
# CHECK-NEXT: vi, vj = T.axis.remap("SS", [i, j])
# CHECK-NEXT: T.reads(x[vi, vj])
# CHECK-NEXT: T.writes(y[vi, vj])
# CHECK-NEXT: y[vi, vj] = T.exp(x[vi, vj])
# CHECK: @R.function
# CHECK-NEXT: def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
# CHECK-NEXT: n = T.int64()
# CHECK-NEXT: cls = Module
# CHECK-NEXT: with R.dataflow():
# CHECK-NEXT: lv0: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK-NEXT: lv1: R.Tensor((n * 4,), dtype="float32") = R.reshape(lv0, R.shape([n * 4]))
# CHECK-NEXT: R.output(lv1)
# CHECK-NEXT: return lv1
# CHECK: @R.function(private=True)
# CHECK-NEXT: def helper(a: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
# CHECK-NEXT: b: R.Tensor((2, 3), dtype="float32") = R.add(a, a)
# CHECK-NEXT: return b

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 4))
        y = T.match_buffer(var_y, (n, 4))
        for i, j in T.grid(n, 4):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.exp(x[vi, vj])

    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n * 4",), "float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.call_tir(Module.exp, (x,), out_sinfo=R.Tensor((n, 4), "float32"))
            lv1 = R.reshape(lv0, R.shape([n * 4]))
            R.output(lv1)
        return lv1

    @R.function(private=True)
    def helper(a: R.Tensor((2, 3), "float32")) -> R.Tensor((2, 3), "float32"):
        b = R.add(a, a)
        return b
