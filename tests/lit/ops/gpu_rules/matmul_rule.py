# The matmul rule (passes/tir/gpu_rules/matmul.cc) on R.matmul's legalization: symbolic
# rows (1, 7, 1000: tails of every tile), a batched matmul, float16 inputs accumulated in
# float32, and a 7 x 4097 @ 4097 x 5 product that the rule leaves to the generic
# reduction schedule; run on lavapipe against NumPy, the PTX checked with ptxas.
#
# RUN: %op_check %s --work %t --input a:m,64:float32 --input w:64,300:float32 --input p:2,m,24:float32 --input q:2,24,70:float32 --input h:m,64:float16 --input g:64,96:float16 --input s:7,4097:float32 --input t:4097,5:float32 --sizes m=1 --sizes m=7 --sizes m=1000 --reference "(a @ w, p @ q, h.astype(np.float32) @ g.astype(np.float32), s @ t)" --rtol 1e-3 --atol 1e-3 | FileCheck %s --check-prefix=OUT
# OUT: ok: 3 size(s), 12 output(s) match NumPy
#
# The scheduled matmuls: shared-memory tiles of A and B (300 columns padded to 3 tiles
# of 128, the symbolic rows to whole tiles; A's tile k-major: [k][row]), a register tile
# per thread on a two-dimensional thread block, and the k loop asking the lowering to
# prefetch its tiles; the 7 x 5 output is one thread block per element.
# RUN: %relaxc opt %s --passes=legalize-ops,default-gpu-schedule | FileCheck %s
# CHECK-LABEL: def matmul(
# CHECK: T_matmul_pad = T.alloc_buffer(((m + T.int64(127)) // T.int64(128) * T.int64(128), T.int64(384)), scope="local")
# CHECK: x1_pad_shared = T.alloc_buffer((T.int64(64), (m + T.int64(127)) // T.int64(128) * T.int64(128)), scope="shared")
# CHECK: thread="blockIdx.y"
# CHECK: T.thread_binding(T.int64(16), thread="threadIdx.y")
# CHECK: T.thread_binding(T.int64(16), thread="threadIdx.x")
# CHECK: annotations={"prefetch_tile_copies": 1}
# CHECK-LABEL: def matmul1(
# CHECK: thread="blockIdx.z"
# CHECK-LABEL: def matmul3(
# CHECK-NOT: scope="shared"
# CHECK: T.thread_binding(T.int64(35), thread="blockIdx.x")

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor(("m", 64), dtype="float32"), w: R.Tensor((64, 300), dtype="float32"), p: R.Tensor((2, "m", 24), dtype="float32"), q: R.Tensor((2, 24, 70), dtype="float32"), h: R.Tensor(("m", 64), dtype="float16"), g: R.Tensor((64, 96), dtype="float16"), s: R.Tensor((7, 4097), dtype="float32"), t: R.Tensor((4097, 5), dtype="float32")):
        m = T.int64()
        with R.dataflow():
            aw = R.matmul(a, w)
            pq = R.matmul(p, q)
            hg = R.matmul(h, g, out_dtype="float32")
            st = R.matmul(s, t)
            gv = (aw, pq, hg, st)
            R.output(gv)
        return gv
