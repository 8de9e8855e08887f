# TVM idiom: the branches of an 'if' end in a call statement with no value (R.print), as
# TVM's parser tests write it; the call is bound to '_' and so is the If, as TVM's
# parser binds them (printed as the assignment '_ = ...').
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def conditional(x: R.Tensor((), dtype="int32"), condition: R.Tensor((), dtype="bool")) -> R.Tensor((), dtype="int32"):
        if condition:
            R.print(x, format="True condition: {}")
        else:
            R.print(format="False condition:")
            R.print(x, format="{}")
        return x
