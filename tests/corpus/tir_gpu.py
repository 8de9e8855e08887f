# GPU-shaped TensorIR: thread-bound loops, a predicated block (T.where), shared and local
# buffers, explicit axis bindings, read regions with ranges, and a size variable.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add_gpu(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        T.func_attr({"tir.noalias": True})
        n = T.int64(is_size_var=True)
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        # with T.block("root"):
        for i_0 in T.thread_binding((n + T.int64(255)) // T.int64(256), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.block("C"):
                    vi = T.axis.spatial(n, i_0 * T.int64(256) + i_1)
                    T.where(i_0 * T.int64(256) + i_1 < n)
                    T.reads(A[vi], B[vi])
                    T.writes(C[vi])
                    C[vi] = A[vi] + B[vi]

    @T.prim_func
    def row_sum_shared(A: T.Buffer((64, 256), "float32"), S: T.Buffer((64,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        partial = T.alloc_buffer((64, 32), scope="shared")
        for b in T.thread_binding(64, thread="blockIdx.x"):
            for t in T.thread_binding(32, thread="threadIdx.x"):
                with T.block("partial"):
                    vb, vt = T.axis.remap("SS", [b, t])
                    T.reads(A[vb, vt * 8:vt * 8 + 8])
                    T.writes(partial[vb, vt])
                    acc = T.alloc_buffer((1,), scope="local")
                    acc[0] = T.float32(0)
                    for k in range(8):
                        acc[0] = acc[0] + A[vb, vt * 8 + k]
                    partial[vb, vt] = acc[0]
            for t in T.thread_binding(32, thread="threadIdx.x"):
                with T.block("S"):
                    vb = T.axis.spatial(64, b)
                    vt = T.axis.reduce(32, t)
                    T.reads(partial[vb, vt])
                    T.writes(S[vb])
                    with T.init():
                        S[vb] = T.float32(0)
                    S[vb] = S[vb] + partial[vb, vt]

    @T.prim_func(private=True)
    def transpose_tiled(A: T.Buffer((256, 256), "float16"), B: T.Buffer((256, 256), "float16")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        tile = T.alloc_buffer((256, 256), "float16", scope="shared")
        for by in T.thread_binding(8, thread="blockIdx.y"):
            for bx in T.thread_binding(8, thread="blockIdx.x"):
                for ty in T.thread_binding(32, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        with T.block("load"):
                            vy = T.axis.spatial(256, by * 32 + ty)
                            vx = T.axis.spatial(256, bx * 32 + tx)
                            T.reads(A[vy, vx])
                            T.writes(tile[vy, vx])
                            tile[vy, vx] = A[vy, vx]
                for ty in T.thread_binding(32, thread="threadIdx.y"):
                    for tx in T.thread_binding(32, thread="threadIdx.x"):
                        with T.block("store"):
                            vy = T.axis.spatial(256, by * 32 + ty)
                            vx = T.axis.spatial(256, bx * 32 + tx)
                            T.reads(tile[vy, vx])
                            T.writes(B[vx, vy])
                            B[vx, vy] = tile[vy, vx]
