# Rules 14, 15 and 16: shape variables in a tensor's shape (14), a shape's values (15)
# and a prim value (16) of an annotation are in scope. A binding's own annotation
# cannot show this (the normalizer asks for R.match_cast when the annotation is more
# specific than the value), so these use sinfo_args; m1, m2 and m3 are declared but
# never bound.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        m1 = T.int64()
        m2 = T.int64()
        m3 = T.int64()
        # CHECK: rule14_to_16_shape_var_in_sinfo_args.py:[[@LINE+1]]:57: error: [rule 14] shape variable 'm1' in the sinfo_args of the call in the binding of 't' is not bound here; a function signature or R.match_cast binds shape variables
        t = R.call_pure_packed("make_t", x, sinfo_args=(R.Tensor((m1,), dtype="float32"),))
        # CHECK: rule14_to_16_shape_var_in_sinfo_args.py:[[@LINE+1]]:57: error: [rule 15] shape variable 'm2' in the sinfo_args of the call in the binding of 's' is not bound here
        s = R.call_pure_packed("make_s", x, sinfo_args=(R.Shape([m2]),))
        # CHECK: rule14_to_16_shape_var_in_sinfo_args.py:[[@LINE+1]]:57: error: [rule 16] shape variable 'm3' in the sinfo_args of the call in the binding of 'p' is not bound here
        p = R.call_pure_packed("make_p", x, sinfo_args=(R.Prim(value=m3),))
        return x
