// The GPU kernel suite: each kernel's TensorIR, schedule, arguments and CPU reference.
#include "tests/support/kernel_suite.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ir/module.h"
#include "ir/text/parser.h"
#include "passes/tir/default_gpu_schedule.h"

namespace relaxc::testing {
namespace {

const DataType kF32 = DataType::Float(32);

constexpr const char* kVectorAdd = R"(
@I.ir_module
class Module:
    @T.prim_func
    def vector_add(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        C = T.match_buffer(c, (n,), "float32")
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = A[vi] + B[vi]
)";

constexpr const char* kTranspose = R"(
@I.ir_module
class Module:
    @T.prim_func
    def transpose(a: T.handle, b: T.handle):
        m = T.int64()
        n = T.int64()
        A = T.match_buffer(a, (m, n), "float32")
        B = T.match_buffer(b, (n, m), "float32")
        for i, j in T.grid(m, n):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vj, vi])
                B[vj, vi] = A[vi, vj]
)";

constexpr const char* kExpTanh = R"(
@I.ir_module
class Module:
    @T.prim_func
    def exp_tanh(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        E = T.alloc_buffer((n,), "float32")
        for i in range(n):
            with T.block("E"):
                vi = T.axis.spatial(n, i)
                T.reads(A[vi])
                T.writes(E[vi])
                E[vi] = T.exp(A[vi])
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                T.reads(E[vi], A[vi])
                T.writes(B[vi])
                B[vi] = T.tanh(E[vi] * T.float32(0.5) - T.float32(1)) + A[vi]
)";

constexpr const char* kRowSum = R"(
@I.ir_module
class Module:
    @T.prim_func
    def row_sum(a: T.handle, s: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(300)), "float32")
        S = T.match_buffer(s, (n,), "float32")
        for i, k in T.grid(n, T.int64(300)):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(S[vi])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
)";

constexpr const char* kSoftmax = R"(
@I.ir_module
class Module:
    @T.prim_func
    def softmax(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(300)), "float32")
        B = T.match_buffer(b, (n, T.int64(300)), "float32")
        row_max = T.alloc_buffer((n,), "float32")
        row_sum = T.alloc_buffer((n,), "float32")
        for i, k in T.grid(n, T.int64(300)):
            with T.block("row_max"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(row_max[vi])
                with T.init():
                    row_max[vi] = T.float32(-3.4028234663852886e+38)
                row_max[vi] = T.max(row_max[vi], A[vi, vk])
        for i, k in T.grid(n, T.int64(300)):
            with T.block("row_sum"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk], row_max[vi])
                T.writes(row_sum[vi])
                with T.init():
                    row_sum[vi] = T.float32(0)
                row_sum[vi] = row_sum[vi] + T.exp(A[vi, vk] - row_max[vi])
        for i, j in T.grid(n, T.int64(300)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj], row_max[vi], row_sum[vi])
                T.writes(B[vi, vj])
                B[vi, vj] = T.exp(A[vi, vj] - row_max[vi]) / row_sum[vi]
)";

constexpr const char* kMatmul = R"(
@I.ir_module
class Module:
    @T.prim_func
    def matmul(a: T.handle, b: T.handle, c: T.handle):
        m = T.int64()
        n = T.int64()
        k = T.int64()
        A = T.match_buffer(a, (m, k), "float32")
        B = T.match_buffer(b, (k, n), "float32")
        C = T.match_buffer(c, (m, n), "float32")
        for i, j, r in T.grid(m, n, k):
            with T.block("C"):
                vi, vj, vr = T.axis.remap("SSR", [i, j, r])
                T.reads(A[vi, vr], B[vr, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vr] * B[vr, vj]
)";

constexpr const char* kScaleAddI32 = R"(
@I.ir_module
class Module:
    @T.prim_func
    def scale_add_i32(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "int32")
        B = T.match_buffer(b, (n,), "int32")
        C = T.match_buffer(c, (n,), "int32")
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = A[vi] * B[vi] + A[vi] // 7 - B[vi] % 5 + T.max(A[vi], B[vi])
)";

// The bit operators (as TVM's TensorIR tests write them) and T.likely; a logical shift
// of the uint32 view and arithmetic shifts of negative values.
constexpr const char* kBitOpsI32 = R"(
@I.ir_module
class Module:
    @T.prim_func
    def bit_ops_i32(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "int32")
        B = T.match_buffer(b, (n,), "int32")
        C = T.match_buffer(c, (n,), "int32")
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = T.if_then_else(T.likely((A[vi] < 0) & ~(B[vi] < 0) | ((A[vi] ^ B[vi]) & 1 == 0)), (A[vi] & B[vi]) | A[vi] << 3, (A[vi] ^ ~B[vi]) >> (B[vi] & 7)) + T.Cast("int32", T.Cast("uint32", A[vi]) >> T.uint32(28))
)";

constexpr const char* kScaleAddF16 = R"(
@I.ir_module
class Module:
    @T.prim_func
    def scale_add_f16(a: T.handle, b: T.handle, c: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n,), "float16")
        B = T.match_buffer(b, (n,), "float16")
        C = T.match_buffer(c, (n,), "float16")
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                T.reads(A[vi], B[vi])
                T.writes(C[vi])
                C[vi] = A[vi] * B[vi] + T.float16(1.5)
)";

constexpr const char* kScaleRows4 = R"(
@I.ir_module
class Module:
    @T.prim_func
    def scale_rows4(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, T.int64(4)), "float32")
        B = T.match_buffer(b, (n, T.int64(4)), "float32")
        for i, j in T.grid(n, T.int64(4)):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes(B[vi, vj])
                B[vi, vj] = A[vi, vj] * T.float32(2) + T.float32(1)
)";

int64_t threads_for(const Target& target, int64_t wanted) {
  return std::min(wanted, target.max_threads_per_block);
}

// Row reductions: the row over blockIdx.x, the reduction split over threadIdx.x.
void bind_row_reduction(tir::Schedule& s, const tir::BlockRef& block, const Target& target) {
  std::vector<tir::LoopRef> loops = s.get_loops(block);
  std::vector<tir::LoopRef> parts = s.split(
      loops.back(), {tir::PrimExpr(), tir::int_imm(DataType::Int(64), threads_for(target, 128))});
  s.bind(parts[1], "threadIdx.x");
}

void schedule_row_sum(tir::Schedule& s, const Target& target) {
  tir::BlockRef block = s.get_block("S");
  s.bind(s.get_loops(block)[0], "blockIdx.x");
  bind_row_reduction(s, block, target);
}

void schedule_softmax(tir::Schedule& s, const Target& target) {
  tir::BlockRef out = s.get_block("B");
  std::vector<tir::LoopRef> loops = s.get_loops(out);
  std::vector<tir::LoopRef> cols = s.split(
      loops[1], {tir::PrimExpr(), tir::int_imm(DataType::Int(64), threads_for(target, 128))});
  s.bind(loops[0], "blockIdx.x");
  s.bind(cols[1], "threadIdx.x");
  tir::BlockRef sum = s.get_block("row_sum");
  tir::BlockRef max = s.get_block("row_max");
  s.compute_at(sum, loops[0]);
  s.compute_at(max, loops[0]);
  bind_row_reduction(s, max, target);
  bind_row_reduction(s, sum, target);
}

void schedule_transpose(tir::Schedule& s, const Target&) {
  tir::BlockRef block = s.get_block("B");
  std::vector<tir::LoopRef> loops = s.get_loops(block);
  tir::PrimExpr tile = tir::int_imm(DataType::Int(64), 8);
  std::vector<tir::LoopRef> is = s.split(loops[0], {tir::PrimExpr(), tile});
  std::vector<tir::LoopRef> js = s.split(loops[1], {tir::PrimExpr(), tile});
  s.reorder({is[0], js[0], is[1], js[1]});
  s.bind(is[0], "blockIdx.y");
  s.bind(js[0], "blockIdx.x");
  s.bind(is[1], "threadIdx.y");
  s.bind(js[1], "threadIdx.x");
}

// Rows over threads, each thread's row of 4 as one vector access.
void schedule_scale_rows4(tir::Schedule& s, const Target& target) {
  tir::BlockRef block = s.get_block("B");
  std::vector<tir::LoopRef> loops = s.get_loops(block);
  std::vector<tir::LoopRef> rows = s.split(
      loops[0], {tir::PrimExpr(), tir::int_imm(DataType::Int(64), threads_for(target, 64))});
  s.bind(rows[0], "blockIdx.x");
  s.bind(rows[1], "threadIdx.x");
  s.vectorize(loops[1]);
}

std::vector<HostArray> random_inputs(const std::vector<std::vector<int64_t>>& shapes,
                                     DataType dtype, uint64_t seed, double lo, double hi) {
  std::vector<HostArray> out;
  for (size_t i = 0; i < shapes.size(); ++i) {
    out.push_back(random_array(dtype, shapes[i], seed * 31 + i, lo, hi));
  }
  return out;
}

std::vector<SuiteKernel> make_suite() {
  std::vector<SuiteKernel> suite;
  {
    SuiteKernel k;
    k.name = "vector_add";
    k.source = kVectorAdd;
    k.sizes = {{{"n", 1}}, {{"n", 7}}, {{"n", 256}}, {{"n", 1000}}, {{"n", 65537}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n}, {n}}, kF32, seed, -1, 1);
      args.push_back(zeros(kF32, {n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      for (int64_t i = 0; i < a[2].size(); ++i) {
        a[2].data[i] =
            static_cast<float>(static_cast<float>(a[0].data[i]) + static_cast<float>(a[1].data[i]));
      }
    };
    k.outputs = {2};
    k.atol = 0;
    k.rtol = 1e-7;
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "transpose";
    k.source = kTranspose;
    k.schedule = schedule_transpose;
    k.sizes = {{{"m", 1}, {"n", 1}},
               {{"m", 16}, {"n", 16}},
               {{"m", 37}, {"n", 50}},
               {{"m", 128}, {"n", 300}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t m = s.at("m"), n = s.at("n");
      std::vector<HostArray> args = random_inputs({{m, n}}, kF32, seed, -1, 1);
      args.push_back(zeros(kF32, {n, m}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      int64_t m = a[0].shape[0], n = a[0].shape[1];
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) a[1].data[j * m + i] = a[0].data[i * n + j];
      }
    };
    k.outputs = {1};
    k.atol = 0;
    k.rtol = 0;
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "exp_tanh";
    k.source = kExpTanh;
    k.sizes = {{{"n", 1}}, {{"n", 255}}, {{"n", 4097}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n}}, kF32, seed, -3, 3);
      args.push_back(zeros(kF32, {n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      for (int64_t i = 0; i < a[1].size(); ++i) {
        double x = a[0].data[i];
        a[1].data[i] = std::tanh(std::exp(x) * 0.5 - 1.0) + x;
      }
    };
    k.outputs = {1};
    k.atol = 1e-5;
    k.rtol = 1e-5;
    suite.push_back(k);
  }
  auto row_sum_kernel = [](std::string name,
                           std::function<void(tir::Schedule&, const Target&)> schedule) {
    SuiteKernel k;
    k.name = name;
    k.source = kRowSum;
    k.source.replace(k.source.find("def row_sum"), 11, "def " + name);
    k.schedule = std::move(schedule);
    k.sizes = {{{"n", 1}}, {{"n", 7}}, {{"n", 64}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n, 300}}, kF32, seed, -1, 1);
      args.push_back(zeros(kF32, {n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      for (int64_t i = 0; i < a[1].size(); ++i) {
        double sum = 0;
        for (int64_t j = 0; j < 300; ++j) sum += a[0].data[i * 300 + j];
        a[1].data[i] = sum;
      }
    };
    k.outputs = {1};
    k.atol = 1e-4;
    k.rtol = 1e-5;
    return k;
  };
  suite.push_back(row_sum_kernel("row_sum", schedule_row_sum));
  suite.push_back(row_sum_kernel("row_sum_default", nullptr));
  {
    SuiteKernel k;
    k.name = "softmax";
    k.source = kSoftmax;
    k.schedule = schedule_softmax;
    k.sizes = {{{"n", 1}}, {{"n", 7}}, {{"n", 64}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n, 300}}, kF32, seed, -4, 4);
      args.push_back(zeros(kF32, {n, 300}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      int64_t n = a[0].shape[0];
      for (int64_t i = 0; i < n; ++i) {
        const double* row = &a[0].data[i * 300];
        double mx = *std::max_element(row, row + 300);
        double sum = 0;
        for (int64_t j = 0; j < 300; ++j) sum += std::exp(row[j] - mx);
        for (int64_t j = 0; j < 300; ++j) a[1].data[i * 300 + j] = std::exp(row[j] - mx) / sum;
      }
    };
    k.outputs = {1};
    k.atol = 1e-6;
    k.rtol = 1e-4;
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "matmul";
    k.source = kMatmul;
    k.schedule = schedule_tiled_matmul;
    k.sizes = {{{"m", 64}, {"n", 64}, {"k", 64}},
               {{"m", 37}, {"n", 50}, {"k", 23}},
               {{"m", 1}, {"n", 1}, {"k", 1}},
               {{"m", 128}, {"n", 96}, {"k", 200}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t m = s.at("m"), n = s.at("n"), r = s.at("k");
      std::vector<HostArray> args = random_inputs({{m, r}, {r, n}}, kF32, seed, -1, 1);
      args.push_back(zeros(kF32, {m, n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      int64_t m = a[0].shape[0], r = a[0].shape[1], n = a[1].shape[1];
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double sum = 0;
          for (int64_t x = 0; x < r; ++x) sum += a[0].data[i * r + x] * a[1].data[x * n + j];
          a[2].data[i * n + j] = sum;
        }
      }
    };
    k.outputs = {2};
    k.atol = 1e-4;
    k.rtol = 1e-4;
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "scale_rows4";
    k.source = kScaleRows4;
    k.schedule = schedule_scale_rows4;
    k.sizes = {{{"n", 1}}, {{"n", 63}}, {{"n", 1000}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n, 4}}, kF32, seed, -1, 1);
      args.push_back(zeros(kF32, {n, 4}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      for (int64_t i = 0; i < a[1].size(); ++i) {
        a[1].data[i] = static_cast<float>(static_cast<float>(a[0].data[i]) * 2.0f + 1.0f);
      }
    };
    k.outputs = {1};
    k.atol = 1e-6;
    k.rtol = 1e-6;
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "scale_add_i32";
    k.source = kScaleAddI32;
    k.sizes = {{{"n", 1}}, {{"n", 100}}, {{"n", 1000}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n}, {n}}, DataType::Int(32), seed, -100, 100);
      args.push_back(zeros(DataType::Int(32), {n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      auto floordiv = [](int64_t x, int64_t y) {
        return x / y - ((x % y != 0) && ((x < 0) != (y < 0)));
      };
      for (int64_t i = 0; i < a[2].size(); ++i) {
        auto x = static_cast<int64_t>(a[0].data[i]);
        auto y = static_cast<int64_t>(a[1].data[i]);
        int64_t floormod = y - floordiv(y, 5) * 5;
        a[2].data[i] = static_cast<double>(x * y + floordiv(x, 7) - floormod + std::max(x, y));
      }
    };
    k.outputs = {2};
    k.atol = 0;
    k.rtol = 0;
    k.element_type = DataType::Int(32);
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "bit_ops_i32";
    k.source = kBitOpsI32;
    k.sizes = {{{"n", 1}}, {{"n", 100}}, {{"n", 1000}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args =
          random_inputs({{n}, {n}}, DataType::Int(32), seed, -100000, 100000);
      args.push_back(zeros(DataType::Int(32), {n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      for (int64_t i = 0; i < a[2].size(); ++i) {
        auto x = static_cast<int32_t>(a[0].data[i]);
        auto y = static_cast<int32_t>(a[1].data[i]);
        bool take_first = (x < 0 && y >= 0) || ((x ^ y) & 1) == 0;
        int32_t chosen = take_first ? (x & y) | static_cast<int32_t>(static_cast<uint32_t>(x) << 3)
                                    : (x ^ ~y) >> (y & 7);
        a[2].data[i] = chosen + static_cast<int32_t>(static_cast<uint32_t>(x) >> 28);
      }
    };
    k.outputs = {2};
    k.atol = 0;
    k.rtol = 0;
    k.element_type = DataType::Int(32);
    suite.push_back(k);
  }
  {
    SuiteKernel k;
    k.name = "scale_add_f16";
    k.source = kScaleAddF16;
    k.sizes = {{{"n", 1}}, {{"n", 100}}, {{"n", 1000}}};
    k.make_args = [](const Sizes& s, uint64_t seed) {
      int64_t n = s.at("n");
      std::vector<HostArray> args = random_inputs({{n}, {n}}, DataType::Float(16), seed, -2, 2);
      args.push_back(zeros(DataType::Float(16), {n}));
      return args;
    };
    k.reference = [](std::vector<HostArray>& a) {
      for (int64_t i = 0; i < a[2].size(); ++i) {
        a[2].data[i] = round_to_fp16(round_to_fp16(a[0].data[i] * a[1].data[i]) + 1.5);
      }
    };
    k.outputs = {2};
    // One fp16 rounding of difference allowed (a fused multiply-add rounds once).
    k.atol = 2e-3;
    k.rtol = 1e-3;
    k.element_type = DataType::Float(16);
    suite.push_back(k);
  }
  return suite;
}

}  // namespace

void schedule_tiled_matmul(tir::Schedule& s, const Target& target) {
  // 32x32 tiles of C per block; threads (ty, tx) with tx over 32 columns and each
  // thread computing 32 / ty consecutive rows; k in steps of 16 through shared memory.
  int64_t ty = target.max_threads_per_block >= 256 ? 8 : 4;
  auto c64 = [](int64_t v) { return tir::int_imm(DataType::Int(64), v); };
  tir::BlockRef c = s.get_block("C");
  std::vector<tir::LoopRef> loops = s.get_loops(c);
  std::vector<tir::LoopRef> is = s.split(loops[0], {tir::PrimExpr(), c64(ty), c64(32 / ty)});
  std::vector<tir::LoopRef> js = s.split(loops[1], {tir::PrimExpr(), c64(32)});
  std::vector<tir::LoopRef> ks = s.split(loops[2], {tir::PrimExpr(), c64(16)});
  s.reorder({is[0], js[0], is[1], js[1], ks[0], ks[1], is[2]});
  s.bind(is[0], "blockIdx.y");
  s.bind(js[0], "blockIdx.x");
  s.bind(is[1], "threadIdx.y");
  s.bind(js[1], "threadIdx.x");
  tir::BlockRef c_local = s.cache_write(c, 0, "local");
  s.reverse_compute_at(c_local, js[1]);
  tir::BlockRef a_shared = s.cache_read(c, 0, "shared");
  tir::BlockRef b_shared = s.cache_read(c, 1, "shared");
  s.compute_at(a_shared, ks[0]);
  s.compute_at(b_shared, ks[0]);
  for (const tir::BlockRef& copy : {a_shared, b_shared}) {
    std::vector<tir::LoopRef> copy_loops = s.get_loops(copy);
    size_t count = copy_loops.size();
    tir::LoopRef fused = s.fuse({copy_loops[count - 2], copy_loops[count - 1]});
    std::vector<tir::LoopRef> parts = s.split(fused, {tir::PrimExpr(), c64(ty), c64(32)});
    s.bind(parts[1], "threadIdx.y");
    s.bind(parts[2], "threadIdx.x");
  }
}

const std::vector<SuiteKernel>& kernel_suite() {
  static const std::vector<SuiteKernel> suite = make_suite();
  return suite;
}

const SuiteKernel& suite_kernel(const std::string& name) {
  for (const SuiteKernel& k : kernel_suite()) {
    if (k.name == name) return k;
  }
  throw std::runtime_error("no kernel '" + name + "' in the suite");
}

tir::PrimFunc scheduled_kernel(const SuiteKernel& kernel, const Target& target) {
  IRModule mod = text::parse_module(kernel.source, kernel.name + ".py");
  tir::PrimFunc func = mod->prim_func(kernel.name);
  if (!kernel.schedule) return tir::default_gpu_schedule(func, target);
  tir::Schedule s(func);
  kernel.schedule(s, target);
  return s.func();
}

}  // namespace relaxc::testing
