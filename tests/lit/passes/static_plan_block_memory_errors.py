# static-plan-block-memory refuses a tir_var_upper_bound that is not a dict from names to
# non-negative integers, naming the function; the parser refuses a repeated key.
#
# RUN: not %relaxc opt %s --passes=static-plan-block-memory 2>&1 | FileCheck %s --check-prefix=NEGATIVE
# NEGATIVE: static_plan_block_memory_errors.py:{{[0-9]+}}:{{[0-9]+}}: error: function 'main': attribute tir_var_upper_bound must be a dict from shape variable names to non-negative integers, e.g. {"n": 1024}
# RUN: sed -e 's/{"n": -1}/8/' %s | not %relaxc opt - --passes=static-plan-block-memory 2>&1 | FileCheck %s --check-prefix=NOT-DICT
# NOT-DICT: error: function 'main': attribute tir_var_upper_bound must be a dict
# RUN: sed -e 's/{"n": -1}/{"n": "big"}/' %s | not %relaxc opt - --passes=static-plan-block-memory 2>&1 | FileCheck %s --check-prefix=NOT-INT
# NOT-INT: error: function 'main': attribute tir_var_upper_bound must be a dict
# RUN: sed -e 's/{"n": -1}/{"n": 4, "n": 8}/' %s | not %relaxc opt - --passes=static-plan-block-memory 2>&1 | FileCheck %s --check-prefix=REPEATED
# REPEATED: error: key 'n' repeated
# RUN: sed -e 's/{"n": -1}/{3: 8}/' %s | not %relaxc opt - --passes=static-plan-block-memory 2>&1 | FileCheck %s --check-prefix=KEY
# KEY: error: {{.*}}a dictionary key of an attribute

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n",), "float32")) -> R.Tensor(("n",), "float32"):
        R.func_attr({"tir_var_upper_bound": {"n": -1}})
        return x
