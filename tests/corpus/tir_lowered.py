# Lowered TensorIR, as kernel lowering leaves it: thread-bound loops outermost, flat
# buffers, shared and local allocations, barriers, scoped allocations and lets.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def row_sum_kernel(A: T.handle, S: T.handle, n: T.int32):
        A_1 = T.match_buffer(A, (n * 300,))
        S_1 = T.match_buffer(S, (n,))
        for bx in T.thread_binding(n, thread="blockIdx.x"):
            for tx in T.thread_binding(128, thread="threadIdx.x"):
                red = T.alloc_buffer((128,), scope="shared")
                with T.decl_buffer((1,), scope="local") as partial:
                    partial[0] = T.float32(0)
                    for k in range(3):
                        if k * 128 + tx < 300:
                            partial[0] = partial[0] + A_1[bx * 300 + k * 128 + tx]
                    red[tx] = partial[0]
                T.tvm_storage_sync("shared")
                with T.LetStmt(64) as s:
                    if tx < s:
                        red[tx] = red[tx] + red[tx + s]
                T.tvm_storage_sync("shared")
                if tx == 0:
                    S_1[bx] = red[0]
