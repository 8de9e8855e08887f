# Sliding-window attention (window_size) is accepted by the operator but has no
# legalization yet: an error at the call naming the operator and the attribute.
#
# RUN: not %relaxc opt %s --passes=legalize-ops 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @R.function
    def main(q: R.Tensor((1, 4, 2, 8), dtype="float32")):
        with R.dataflow():
            # CHECK: legalize_errors_attention.py:[[@LINE+1]]:13: error: R.nn.attention (binding 'a'): attribute 'window_size' (sliding-window attention) has no legalization yet
            a = R.nn.attention(q, q, q, causal_mask="TopLeft", window_size=2)
            R.output(a)
        return a
