# TensorIR statements and expressions beyond blocks: loop kinds, if/else, while, let,
# allocation outside blocks, evaluate, vectors, casts, selects, integer division forms,
# logic, extern calls, scalar parameters, and blocks with T.block_attr / T.match_buffer.
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def statements(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "int32"), n: T.int32):
        for i in T.serial(2, n):
            A[i] = A[i - 1] + A[i - 2]
        for i in T.parallel(16):
            A[i] = T.Cast("float32", i)
        for i in T.vectorized(4):
            A[i + 16] = T.float32(1)
        for i in T.unroll(4):
            A[i + 20] = T.Select(i < 2, T.float32(0), T.float32(1))
        for i in range(2, 10):
            if i % 2 == 0 and i > 2:
                A[i] = T.exp(A[i])
            else:
                A[i] = T.if_then_else(i < 5, T.sqrt(A[i]), T.float32(0))
        A[T.Ramp(24, 1, 4)] = T.Broadcast(T.float32(0), 4)
        B[0] = T.truncdiv(n, 3) + T.truncmod(n, 3) + n // 4 + n % 4
        B[1] = T.min(n, 8) * T.max(n, 2) - 1
        B[2] = T.Select(not (n > 3) or n != 4, 1, 0)
        B[3] = T.Cast("int32", T.pow(A[0], T.float32(2)))
        k: T.int32 = n * 2
        counter = T.alloc_buffer((1,), "int32", scope="local")
        counter[0] = 0
        while counter[0] < k:
            counter[0] = counter[0] + 1
        B[4] = counter[0]
        T.evaluate(T.call_extern("int32", "debug_print", B[4]))

    @T.prim_func
    def scaled_rows(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
        # with T.block("root"):
        for i in range(16):
            with T.block("row"):
                vi = T.axis.spatial(16, i)
                T.reads(A[vi, 0:16])
                T.writes(B[vi, 0:16])
                T.block_attr({"meta_schedule.unroll_explicit": 16})
                A_row = T.match_buffer(A[vi, 0:16], (16,))
                B_row = T.match_buffer(B[vi, 0:16], (16,))
                for j in range(16):
                    B_row[j] = A_row[j] * T.float32(2)
