# Bad data types and wrong annotation forms; a StructInfo mismatch that the normalizer
# finds is reported at the binding.
#
# RUN: sed 's/dtype="float32")) ->/dtype="flaot32")) ->/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=DTYPE
# DTYPE: <stdin>:24:40: error: unknown data type 'flaot32'
#
# RUN: sed 's/def main(x: R.Tensor(/def main(x: R.Tensr(/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=FORM
# FORM: <stdin>:24:17: error: expected a StructInfo annotation such as R.Tensor((n, 4), dtype="float32")
#
# RUN: sed 's/y: R.Tensor((2, 3)/y: R.Tensor((3, 2)/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=MISMATCH
# MISMATCH: <stdin>:25:9: error: variable 'y': annotation
#
# RUN: sed 's/T.Buffer((4,), "int32")/T.Buffer((4,), "int33")/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=TIR-DTYPE
# TIR-DTYPE: <stdin>:29:32: error: unknown data type 'int33'
#
# RUN: sed 's/A: T.Buffer((4,), "int32")/A/' %s | not %relaxc check - 2>&1 | FileCheck %s --check-prefix=PARAM
# PARAM: <stdin>:29:14: error: parameter 'A' needs a type: T.handle, T.Buffer(shape, dtype) or a scalar type such as T.int32
#
# RUN: %relaxc check %s

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        y: R.Tensor((2, 3), dtype="float32") = R.add(x, x)
        return y

    @T.prim_func
    def fill(A: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = 0
