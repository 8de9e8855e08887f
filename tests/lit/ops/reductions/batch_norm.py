# batch_norm on NCHW with a symbolic batch: at inference (training=False) the moving
# statistics normalize and come back unchanged; in training the batch's statistics
# normalize and the moving ones move by 'momentum'. Run on lavapipe against NumPy.
#
# RUN: %op_check %s --work %t --input y:n,6,5,5:float32 --input g:6:float32 --input b:6:float32 --input mu:6:float32 --input var:6:float32:0.5,2 --sizes n=1 --sizes n=300 --reference "(lambda c, m, v: ((y - mu[c]) / np.sqrt(var[c] + 1e-5) * g[c] + b[c], mu, var, (y - m[c]) / np.sqrt(v[c] + 1e-5) * g[c] + b[c], 0.9 * mu + 0.1 * m, 0.9 * var + 0.1 * v))((slice(None), None, None), y.mean((0, 2, 3)), y.var((0, 2, 3)))" --atol 1e-4 | FileCheck %s --check-prefix=OUT
# OUT: ok: 2 size(s), 12 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(y: R.Tensor(("n", 6, 5, 5), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32"), mu: R.Tensor((6,), dtype="float32"), var: R.Tensor((6,), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            inf = R.nn.batch_norm(y, g, b, mu, var, axis=1, epsilon=1e-05, center=True, scale=True, momentum=0.1, training=False)
            train = R.nn.batch_norm(y, g, b, mu, var, axis=-3, epsilon=1e-05, center=True, scale=True, momentum=0.1, training=True)
            gv = (inf[0], inf[1], inf[2], train[0], train[1], train[2])
            R.output(gv)
        return gv
