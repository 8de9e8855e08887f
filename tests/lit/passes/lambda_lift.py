# lambda-lift: a local function that captures x becomes the private function
# main_add_x taking x first, made into a closure; its call invokes the closure.
#
# RUN: %relaxc opt %s --passes=lambda-lift,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK: add_x: R.Callable({{.*}}) = R.make_closure(cls.main_add_x, (x,))
# CHECK-NEXT: r: R.Tensor((4,), dtype="float32") = R.invoke_pure_closure(add_x, (x,), sinfo_args=
# CHECK-NEXT: return r
# CHECK: @R.function(private=True)
# CHECK-NEXT: def main_add_x(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
# CHECK-NEXT: z: R.Tensor((4,), dtype="float32") = R.add(y, x)

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def add_x(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            z = R.add(y, x)
            return z

        r = add_x(x)
        return r
