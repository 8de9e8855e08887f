# ceil_mode over symbolic sizes: the output extent keeps TVM's rule (a last window that
# would start in the right padding is dropped) as a T.Select in the shape, which the VM
# evaluates at run time; run on lavapipe against NumPy at sizes on both sides of it.
#
# RUN: %relaxc print %s | FileCheck %s
# CHECK: b: R.Tensor((n, 3, T.Select((h + 2) % 3 < 2, (h + 2) // 3, (h + 2) // 3 + 1), T.Select((w + 2) % 3 < 2, (w + 2) // 3, (w + 2) // 3 + 1)), dtype="float32") = R.nn.avg_pool2d(
#
# RUN: %op_check %s --work %t --input x:n,3,h,w:float32 --sizes n=1,h=6,w=7 --sizes n=2,h=9,w=10 --reference "(P := __import__('spatial_ref')) and (P.pool(x, 'max', [3, 3], [2, 2], [0, 0, 0, 0], ceil_mode=True), P.pool(x, 'avg', [2, 2], [3, 3], [1, 1, 1, 1], ceil_mode=True))" | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 4 output(s) match NumPy

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, "h", "w"), dtype="float32")):
        n = T.int64()
        h = T.int64()
        w = T.int64()
        with R.dataflow():
            a = R.nn.max_pool2d(x, pool_size=[3, 3], strides=[2, 2], ceil_mode=True)
            b = R.nn.avg_pool2d(x, pool_size=[2, 2], strides=[3, 3], padding=[1, 1], ceil_mode=True)
            R.output(a, b)
        return (a, b)
