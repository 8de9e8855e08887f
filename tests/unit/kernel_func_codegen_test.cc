// Tests of kernel and host function codegen: for every kernel of the suite (and
// functions with scalar parameters and workspaces), the KernelFunc binds, checks and
// computes grids, scalar arguments and workspace sizes exactly as substituting the
// bound values into the lowered function's expressions and simplifying with arith does
// (an independent reference: neither kernel_func_codegen nor the launcher); a host
// PrimFunc becomes stores evaluated against hand-checked values.
#include "codegen/vm/kernel_func_codegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "driver/compile.h"
#include "driver/prim_func_launcher.h"
#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/tir/functor.h"
#include "tests/support/kernel_suite.h"
#include "tests/unit/lower_to_kernels_inputs.h"

namespace relaxc::codegen {
namespace {

using driver::compile_module;
using driver::compile_prim_func;
using runtime::vm::evaluate_int_program;
using runtime::vm::KernelFunc;

// What the host computes for one call.
struct Binding {
  std::vector<std::array<int64_t, 3>> grids;
  std::vector<std::vector<int64_t>> scalars;
  std::vector<int64_t> workspace_bytes;
  bool operator==(const Binding&) const = default;
};

// The VM's side: slots defined by dims, then the scalar params, then every dim checked;
// a mismatch is reported as a string.
Binding bind_kernel_func(const KernelFunc& kf, const std::vector<std::vector<int64_t>>& shapes,
                         const std::vector<int64_t>& scalars, std::string* mismatch) {
  std::vector<int64_t> slots(static_cast<size_t>(kf.num_slots), 0);
  for (size_t i = 0; i < kf.params.size(); ++i) {
    for (size_t d = 0; d < kf.params[i].shape.size(); ++d) {
      int32_t slot = kf.params[i].shape[d].defines_slot;
      if (slot >= 0) slots.at(static_cast<size_t>(slot)) = shapes[i][d];
    }
  }
  for (size_t k = 0; k < scalars.size(); ++k) {
    slots.at(static_cast<size_t>(kf.scalar_param_slots.at(k))) = scalars[k];
  }
  for (size_t i = 0; i < kf.params.size(); ++i) {
    for (size_t d = 0; d < kf.params[i].shape.size(); ++d) {
      int64_t expected = evaluate_int_program(kf.params[i].shape[d].extent, slots, "dim");
      if (expected != shapes[i][d] && mismatch->empty()) {
        *mismatch = kf.params[i].name + " dim " + std::to_string(d) + ": expected " +
                    std::to_string(expected);
      }
    }
  }
  Binding out;
  for (const auto& w : kf.workspaces) {
    out.workspace_bytes.push_back(evaluate_int_program(w.bytes, slots, "workspace"));
  }
  for (const auto& launch : kf.launches) {
    std::array<int64_t, 3> grid{};
    for (int axis = 0; axis < 3; ++axis) {
      grid[static_cast<size_t>(axis)] =
          evaluate_int_program(launch.grid[static_cast<size_t>(axis)], slots, "grid");
    }
    out.grids.push_back(grid);
    std::vector<int64_t> s;
    for (const auto& p : launch.scalar_args) s.push_back(evaluate_int_program(p, slots, "scalar"));
    out.scalars.push_back(s);
  }
  return out;
}

int64_t fold(const tir::PrimExpr& e, const tir::VarMap& values) {
  tir::PrimExpr folded = arith::simplify(tir::substitute(e, values));
  const int64_t* v = tir::as_const_int(folded);
  EXPECT_NE(v, nullptr);
  return v == nullptr ? -1 : *v;
}

// The reference: scalar params by name, plain-variable dims, then arith over the
// substituted expressions.
Binding bind_by_substitution(const tir::LoweredFunc& lowered,
                            const std::vector<std::vector<int64_t>>& shapes,
                            const std::map<std::string, int64_t>& scalars) {
  tir::VarMap values;
  for (const tir::Var& param : lowered.source->params) {
    if (lowered.source->buffer_of(param).defined()) continue;
    values[param] = tir::int_imm(param->dtype, scalars.at(param->name));
  }
  for (size_t i = 0; i < lowered.params.size(); ++i) {
    for (size_t d = 0; d < lowered.params[i]->shape.size(); ++d) {
      if (const auto* v = lowered.params[i]->shape[d].as<tir::VarNode>()) {
        tir::Var var = lowered.params[i]->shape[d].cast<tir::VarNode>();
        if (values.count(var) == 0) values[var] = tir::int_imm(v->dtype, shapes[i][d]);
      }
    }
  }
  Binding out;
  for (const tir::Buffer& ws : lowered.workspaces) {
    int64_t n = 1;
    for (const tir::PrimExpr& dim : ws->shape) n *= fold(dim, values);
    out.workspace_bytes.push_back(std::max<int64_t>(n, 1) * ws->dtype.bytes());
  }
  for (const tir::KernelLaunch& launch : lowered.launches) {
    std::array<int64_t, 3> grid{};
    for (int axis = 0; axis < 3; ++axis) {
      grid[static_cast<size_t>(axis)] = fold(launch.grid_size[static_cast<size_t>(axis)], values);
    }
    out.grids.push_back(grid);
    std::vector<int64_t> s;
    for (const tir::PrimExpr& e : launch.scalar_args) s.push_back(fold(e, values));
    out.scalars.push_back(s);
  }
  return out;
}

Target desktop_vulkan() { return parse_target("vulkan -profile=desktop"); }

std::vector<int64_t> kernel_indices(const tir::LoweredFunc& lowered, int64_t first) {
  std::vector<int64_t> indices(lowered.launches.size());
  std::iota(indices.begin(), indices.end(), first);
  return indices;
}

TEST(KernelFuncCodegen, SuiteKernelsBindLikeSubstitution) {
  Target target = desktop_vulkan();
  for (const testing::SuiteKernel& kernel : testing::kernel_suite()) {
    if (!target.supports(kernel.element_type)) continue;
    SCOPED_TRACE(kernel.name);
    CompiledPrimFunc compiled =
        compile_prim_func(testing::scheduled_kernel(kernel, target), kernel.name, target);
    KernelFunc kf = kernel_func_codegen(compiled.lowered, kernel_indices(compiled.lowered, 5));
    EXPECT_EQ(kf.name, kernel.name);
    ASSERT_EQ(kf.params.size(), compiled.lowered.params.size());
    ASSERT_EQ(kf.launches.size(), compiled.lowered.launches.size());
    for (size_t k = 0; k < kf.launches.size(); ++k) {
      EXPECT_EQ(kf.launches[k].kernel, 5 + static_cast<int64_t>(k));
      EXPECT_EQ(kf.launches[k].buffer_args.size(), compiled.lowered.launches[k].buffer_args.size());
    }
    for (size_t i = 0; i < kf.params.size(); ++i) {
      EXPECT_EQ(kf.params[i].name, compiled.lowered.params[i]->name);
      EXPECT_EQ(kf.params[i].dtype.bits, compiled.lowered.params[i]->dtype.bits());
    }
    for (const testing::Sizes& sizes : kernel.sizes) {
      std::vector<testing::HostArray> args = kernel.make_args(sizes, 1);
      std::vector<std::vector<int64_t>> shapes;
      for (const testing::HostArray& a : args) shapes.push_back(a.shape);
      std::string mismatch;
      Binding vm = bind_kernel_func(kf, shapes, {}, &mismatch);
      EXPECT_EQ(mismatch, "");
      EXPECT_EQ(vm, bind_by_substitution(compiled.lowered, shapes, {}));
    }
  }
}

// B[k + i] = A[i]: a scalar parameter that a buffer dimension also uses.
constexpr const char* kShift = R"(@I.ir_module
class Module:
    @T.prim_func
    def shift(var_A: T.handle, var_B: T.handle, k: T.int64):
        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n + k,))
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                B[vi + k] = A[vi]
)";

TEST(KernelFuncCodegen, ScalarParamsAndChecks) {
  IRModule mod = text::parse_module(kShift);
  Target target = desktop_vulkan();
  CompiledPrimFunc compiled = compile_module(mod, target).at(0).second;
  KernelFunc kf = kernel_func_codegen(compiled.lowered, kernel_indices(compiled.lowered, 0));
  // k: slot 0 (scalar params first); n: slot 1, defined by A's dimension; B's
  // dimension only checked.
  EXPECT_EQ(kf.scalar_param_slots, (std::vector<int32_t>{0}));
  EXPECT_EQ(kf.num_slots, 2);
  EXPECT_EQ(kf.params.at(0).shape.at(0).defines_slot, 1);
  EXPECT_EQ(kf.params.at(1).shape.at(0).defines_slot, -1);
  for (auto [n, k] : {std::pair<int64_t, int64_t>{1, 0}, {7, 3}, {1000, 24}}) {
    std::vector<std::vector<int64_t>> shapes = {{n}, {n + k}};
    std::string mismatch;
    Binding vm = bind_kernel_func(kf, shapes, {k}, &mismatch);
    EXPECT_EQ(mismatch, "");
    EXPECT_EQ(vm, bind_by_substitution(compiled.lowered, shapes, {{"k", k}}));
    // A tensor of the wrong shape fails the check of its dimension.
    shapes[1][0] += 1;
    bind_kernel_func(kf, shapes, {k}, &mismatch);
    EXPECT_EQ(mismatch, "B dim 0: expected " + std::to_string(n + k));
  }
}

TEST(KernelFuncCodegen, UnboundShapeVariable) {
  IRModule mod = text::parse_module(R"(@I.ir_module
class Module:
    @T.prim_func
    def fill(var_B: T.handle):
        n = T.int64()
        B = T.match_buffer(var_B, (n * 2,))
        for i in range(n * 2):
            with T.block("B"):
                vi = T.axis.spatial(n * 2, i)
                B[vi] = T.float32(1)
)");
  CompiledPrimFunc compiled = compile_module(mod, desktop_vulkan()).at(0).second;
  try {
    kernel_func_codegen(compiled.lowered, kernel_indices(compiled.lowered, 0));
    ADD_FAILURE() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "function 'fill': dimension 0 of buffer 'B' uses shape variable 'n', which no "
                  "buffer dimension or scalar parameter binds"),
              std::string::npos)
        << e.what();
  }
}

TEST(KernelFuncCodegen, WorkspaceSizes) {
  IRModule mod = text::parse_module(tir_inputs::kTwoKernels);
  Target target = desktop_vulkan();
  CompiledPrimFunc compiled =
      compile_prim_func(mod->functions[0].second.cast<tir::PrimFuncNode>(), "two_kernels", target);
  KernelFunc kf = kernel_func_codegen(compiled.lowered, kernel_indices(compiled.lowered, 0));
  ASSERT_EQ(kf.workspaces.size(), 1u);
  ASSERT_EQ(kf.launches.size(), 2u);
  for (int64_t n : {1, 63, 64, 1000}) {
    std::vector<std::vector<int64_t>> shapes = {{n}, {n}};
    std::string mismatch;
    Binding vm = bind_kernel_func(kf, shapes, {}, &mismatch);
    EXPECT_EQ(mismatch, "");
    // Hand-checked: n float32 elements; 64 threads per block.
    EXPECT_EQ(vm.workspace_bytes, std::vector<int64_t>{n * 4});
    EXPECT_EQ(vm.grids[0][0], (n + 63) / 64);
    EXPECT_EQ(vm, bind_by_substitution(compiled.lowered, shapes, {}));
  }
}

constexpr const char* kShapeFunc = R"(@I.ir_module
class Module:
    @T.prim_func
    def main_shape_func(H: T.Buffer((T.int64(5),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[2] = H[0] * H[1]
        H[3] = (H[2] + T.int64(3)) // T.int64(4)
        H[4] = T.max(H[0] - H[1], H[3]) % T.int64(7)
)";

TEST(HostFuncCodegen, StoresEvaluateInOrder) {
  IRModule mod = text::parse_module(kShapeFunc);
  runtime::vm::HostFunc hf =
      host_func_codegen(mod->functions[0].second.cast<tir::PrimFuncNode>(), "main_shape_func");
  EXPECT_EQ(hf.name, "main_shape_func");
  ASSERT_EQ(hf.stores.size(), 3u);
  for (auto [a, b] : {std::pair<int64_t, int64_t>{3, 5}, {-6, 4}, {100, 1}}) {
    std::vector<int64_t> heap = {a, b, 0, 0, 0};
    for (const auto& [slot, program] : hf.stores) {
      heap.at(static_cast<size_t>(slot)) = evaluate_int_program(program, heap, "test");
    }
    // Hand-computed: TVMScript's // and % on integers are floordiv and floormod.
    int64_t h2 = a * b;
    int64_t h3 = h2 + 3 >= 0 ? (h2 + 3) / 4 : -((-(h2 + 3) + 3) / 4);
    int64_t h4 = ((std::max(a - b, h3) % 7) + 7) % 7;
    EXPECT_EQ(heap, (std::vector<int64_t>{a, b, h2, h3, h4})) << "a=" << a << " b=" << b;
  }
}

std::string host_func_error(const char* text) {
  try {
    IRModule mod = text::parse_module(text);
    host_func_codegen(mod->functions[0].second.cast<tir::PrimFuncNode>(), "f");
  } catch (const UserError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(HostFuncCodegen, RefusesOtherForms) {
  EXPECT_NE(host_func_error(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(H: T.Buffer((T.int64(2),), "int32")):
        H[0] = H[1]
)")
                .find("host function 'f' must take one parameter, the shape heap: a 1-D int64"),
            std::string::npos);
  EXPECT_NE(host_func_error(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(H: T.Buffer((T.int64(2),), "int64")):
        H[2] = H[1]
)")
                .find("heap slot 2 is outside the heap 'H'"),
            std::string::npos);
  EXPECT_NE(host_func_error(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(H: T.Buffer((T.int64(2),), "int64")):
        for i in range(2):
            H[i] = H[1]
)")
                .find("statement 0 must store into the shape heap 'H' at a constant index"),
            std::string::npos);
}

}  // namespace
}  // namespace relaxc::codegen
