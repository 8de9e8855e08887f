# A well-formed module that uses every construct the checker scopes: a PrimFunc with
# blocks, call_tir, match_cast binding shape variables inside a dataflow block (visible
# after it, in the same SeqExpr), recursion outside dataflow blocks, If, a local
# function, impure calls in an impure function and in a force_pure one. No diagnostics.
#
# Rules 8 and 12 are not enforced (see ir/relax/well_formed.cc): `fact` is recursive,
# and the module would pass without any public function too (private_only.py).
# Rule 17 and the normal form cannot be broken in the text format (R.Callable always
# has params; the parser normalizes), nor can rule 1's first half (the parser picks
# DataflowVar or Var from R.output) or rule 2's double binding (an assignment to a
# used name binds a new Var): tests/unit/well_formed_test.cc covers them on IR built
# in C++.
#
# RUN: %relaxc check %s 2>&1 | count 0

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n,))
        y = T.match_buffer(var_y, (n,))
        for i in range(n):
            with T.block("y"):
                vi = T.axis.spatial(n, i)
                T.reads(x[vi])
                T.writes(y[vi])
                y[vi] = T.exp(x[vi])

    @R.function(private=True)
    def fact(k: R.Prim("int64"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        cls = Module
        c = R.call_pure_packed("is_zero", k, sinfo_args=(R.Prim("bool"),))
        if c:
            r = x
        else:
            lv = R.add(x, x)
            r = cls.fact(k, lv)
        return r

    @R.function(pure=False)
    def log(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.print(x, format="{}")
        return x

    @R.function
    def forced(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        R.print(x, format="{}")
        return x

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32"), y: R.Tensor(ndim=2, dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        a = T.int64()
        b = T.int64()
        cls = Module
        with R.dataflow():
            lv0 = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n,), dtype="float32"))
            z = R.match_cast(y, R.Tensor((a, b), dtype="float32"))
            s = R.shape([a * b])
            gv = R.add(lv0, x)
            R.output(gv, s)
        @R.function
        def twice(t: R.Tensor(dtype="float32", ndim=1)) -> R.Tensor(dtype="float32", ndim=1):
            u = R.add(t, t)
            return u
        out = twice(gv)
        return out
