# default-gpu-schedule binds every unscheduled block to GPU blocks and threads: a spatial
# block over 256 threads with a tail guard for its symbolic extent, a row reduction with
# its reduction loop over threadIdx.x (a cross-thread reduction), and an already bound
# function left as it is. The printed result parses back to the same module.
#
# RUN: %relaxc opt %s --passes=default-gpu-schedule | FileCheck %s
# RUN: %relaxc opt %s --passes=default-gpu-schedule > %t.py
# RUN: %relaxc print %t.py | diff %t.py -
#
# CHECK-LABEL: def add(
# CHECK: for i_0 in T.thread_binding((n + T.int64(255)) // T.int64(256), thread="blockIdx.x"):
# CHECK-NEXT: for i_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
# CHECK-NEXT: with T.block("C"):
# CHECK-NEXT: vi = T.axis.spatial(n, i_0 * T.int64(256) + i_1)
# CHECK-NEXT: T.where(i_0 * T.int64(256) + i_1 < n)
#
# CHECK-LABEL: def row_sum(
# CHECK: for i in T.thread_binding(m, thread="blockIdx.x"):
# CHECK-NEXT: for k_0 in range(1):
# CHECK-NEXT: for k_1 in T.thread_binding(128, thread="threadIdx.x"):
# CHECK-NEXT: with T.block("S"):
# CHECK-NEXT: vi = T.axis.spatial(m, i)
# CHECK-NEXT: vk = T.axis.reduce(100, k_0 * 128 + k_1)
# CHECK-NEXT: T.where(k_0 * 128 + k_1 < 100)
#
# CHECK-LABEL: def bound(
# CHECK: for b in T.thread_binding(4, thread="blockIdx.x"):
# CHECK-NEXT: for t in T.thread_binding(8, thread="threadIdx.x"):

# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]

    @T.prim_func
    def row_sum(var_A: T.handle, var_S: T.handle):
        m = T.int32()
        A = T.match_buffer(var_A, (m, 100))
        S = T.match_buffer(var_S, (m,))
        for i, k in T.grid(m, 100):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]

    @T.prim_func
    def bound(A: T.Buffer((32,), "float32")):
        for b in T.thread_binding(4, thread="blockIdx.x"):
            for t in T.thread_binding(8, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(32, b * 8 + t)
                    A[vi] = T.float32(0)
