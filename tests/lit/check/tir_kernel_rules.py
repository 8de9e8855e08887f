# TensorIR that no back end can run is refused at check, each with its location (every
# violation reported at once): a thread-bound loop of no threads or blocks, T.parallel
# inside a kernel, an allocation in a scope relaxc does not allocate in (or in "global"
# inside a kernel), a dimension below 0 (or 0 in an allocation), a barrier of another
# scope than "shared", and a constant index outside a constant dimension. Before,
# codegen aborted on the first six and the out-of-bounds store was silently dropped.
#
# RUN: not %relaxc check %s 2>&1 | FileCheck %s --implicit-check-not=error:
# RUN: not %relaxc build %s --target vulkan -o %t.rxe 2>&1 | FileCheck %s --implicit-check-not=error:

@I.ir_module
class Module:
    @T.prim_func
    def no_threads(A: T.Buffer((4,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            # CHECK: tir_kernel_rules.py:[[@LINE+1]]:13: error: [tir] loop 't' bound to threadIdx.x has extent 0; a thread-bound loop needs at least one thread or block
            for t in T.thread_binding(0, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(4, t)
                    A[vi] = T.float32(1)

    @T.prim_func
    def no_blocks(A: T.Buffer((4,), "float32")):
        # CHECK: tir_kernel_rules.py:[[@LINE+1]]:9: error: [tir] loop 'b' bound to blockIdx.x has extent -3; a thread-bound loop needs at least one thread or block
        for b in T.thread_binding(-3, thread="blockIdx.x"):
            for t in T.thread_binding(4, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(4, t)
                    A[vi] = T.float32(1)

    @T.prim_func
    def parallel_in_kernel(A: T.Buffer((16,), "float32")):
        for t in T.thread_binding(4, thread="threadIdx.x"):
            # CHECK: tir_kernel_rules.py:[[@LINE+1]]:13: error: [tir] loop 'j' is T.parallel inside loop 't' bound to threadIdx.x; a kernel's parallel work is its threads (bind the loop to a thread axis, or make it serial)
            for j in T.parallel(4):
                A[t * 4 + j] = T.float32(1)

    @T.prim_func
    def scopes(A: T.Buffer((4,), "float32")):
        for b in T.thread_binding(1, thread="blockIdx.x"):
            for t in T.thread_binding(4, thread="threadIdx.x"):
                with T.block("A"):
                    vi = T.axis.spatial(4, t)
                    # CHECK: tir_kernel_rules.py:[[@LINE+1]]:21: error: [tir] buffer 'G' is allocated in scope 'global' inside loop 't' bound to threadIdx.x; a kernel allocates in 'shared' or 'local' (allocate a global buffer outside the thread-bound loops)
                    G = T.alloc_buffer((4,), "float32", scope="global")
                    # CHECK: tir_kernel_rules.py:[[@LINE+1]]:21: error: [tir] buffer 'W' is allocated in scope 'warp'; relaxc allocates in 'global', 'shared' or 'local'
                    W = T.alloc_buffer((4,), "float32", scope="warp")
                    # CHECK: tir_kernel_rules.py:[[@LINE+1]]:21: error: [tir] dimension 0 of allocated buffer 'Z' is 0; an allocation holds at least one element
                    Z = T.alloc_buffer((0,), "float32", scope="local")
                    # CHECK: tir_kernel_rules.py:[[@LINE+1]]:21: error: [tir] dimension 0 of buffer 'N' is -2; a dimension is at least 0
                    N = T.alloc_buffer((-2,), "float32", scope="local")
                    # CHECK: tir_kernel_rules.py:[[@LINE+1]]:21: error: [tir] T.tvm_storage_sync of scope 'shared.dyn' in PrimFunc 'scopes'; relaxc synchronizes the threads of a block with T.tvm_storage_sync("shared")
                    T.evaluate(T.tvm_storage_sync("shared.dyn"))
                    A[vi] = G[vi] + W[vi]

    @T.prim_func
    def out_of_bounds(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("y"):
                vi = T.axis.spatial(4, i)
                # CHECK: tir_kernel_rules.py:[[@LINE+1]]:17: error: [tir] index 100000000 of dimension 0 of buffer 'y' is outside its extent 4 (indices run from 0 to 3)
                y[100000000] = x[vi]
                # CHECK: tir_kernel_rules.py:[[@LINE+1]]:33: error: [tir] index -1 of dimension 0 of buffer 'x' is outside its extent 4 (indices run from 0 to 3)
                y[vi] = y[vi] + x[-1]
