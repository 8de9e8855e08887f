# TensorIR reductions with blocks: matmul with T.init, a batched float16 matmul over a
# symbolic batch (int64 shapes, as legalization writes them), and a row sum.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def matmul(A: T.Buffer((128, 64), "float32"), B: T.Buffer((64, 32), "float32"), C: T.Buffer((128, 32), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i, j, k in T.grid(128, 32, 64):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @T.prim_func(private=True)
    def batch_matmul(var_A: T.handle, B: T.Buffer((T.int64(64), T.int64(32)), "float16"), var_C: T.handle):
        T.func_attr({"tir.noalias": True})
        b = T.int64()
        A = T.match_buffer(var_A, (b, T.int64(128), T.int64(64)), "float16")
        C = T.match_buffer(var_C, (b, T.int64(128), T.int64(32)), "float16")
        # with T.block("root"):
        for i0, i1, i2, k in T.grid(b, T.int64(128), T.int64(32), T.int64(64)):
            with T.block("matmul"):
                v_i0, v_i1, v_i2, v_k = T.axis.remap("SSSR", [i0, i1, i2, k])
                T.reads(A[v_i0, v_i1, v_k], B[v_k, v_i2])
                T.writes(C[v_i0, v_i1, v_i2])
                with T.init():
                    C[v_i0, v_i1, v_i2] = T.float16(0)
                C[v_i0, v_i1, v_i2] = C[v_i0, v_i1, v_i2] + A[v_i0, v_i1, v_k] * B[v_k, v_i2]

    @T.prim_func
    def row_sum(var_A: T.handle, var_S: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64()
        A = T.match_buffer(var_A, (n, 16))
        S = T.match_buffer(var_S, (n,))
        # with T.block("root"):
        for i, k in T.grid(n, 16):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(S[vi])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
