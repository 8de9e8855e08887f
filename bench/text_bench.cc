// Benchmarks of the text format and the normalizer on large generated modules: a Relax
// function with a long dataflow block, and a PrimFunc with many deep loop nests.
// Reports items/s (bindings, or loops and blocks) and bytes/s of text.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "ir/module.h"
#include "ir/relax/block_builder.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"

namespace relaxc {
namespace {

// A Relax function whose dataflow block has `bindings` bindings over a symbolic batch,
// alternating add and multiply, each reading the previous two results.
std::string relax_chain_module(int64_t bindings) {
  std::string text =
      "@I.ir_module\n"
      "class Module:\n"
      "    @R.function\n"
      "    def chain(x: R.Tensor((\"n\", 16), dtype=\"float32\"), "
      "y: R.Tensor((16,), dtype=\"float32\")) -> R.Tensor((\"n\", 16), dtype=\"float32\"):\n"
      "        n = T.int64()\n"
      "        with R.dataflow():\n"
      "            lv0 = R.add(x, y)\n"
      "            lv1 = R.multiply(lv0, x)\n";
  for (int64_t i = 2; i < bindings; ++i) {
    text += "            lv" + std::to_string(i) +
            (i % 2 == 0 ? " = R.add(lv" : " = R.multiply(lv") + std::to_string(i - 1) + ", lv" +
            std::to_string(i - 2) + ")\n";
  }
  std::string last = "lv" + std::to_string(bindings - 1);
  text += "            R.output(" + last + ")\n        return " + last + "\n";
  return text;
}

// A PrimFunc with `nests` loop nests, each `depth` loops deep around one block.
std::string tir_nests_module(int64_t depth, int64_t nests) {
  std::string shape, indices, iter_vars, loop_vars, kinds;
  for (int64_t d = 0; d < depth; ++d) {
    std::string sep = d == 0 ? "" : ", ";
    shape += sep + "2";
    indices += sep + "v" + std::to_string(d);
    loop_vars += sep + "i" + std::to_string(d);
    kinds += "S";
  }
  std::string buffer = "T.Buffer((" + shape + (depth == 1 ? ",)" : ")") + ", \"float32\")";
  std::string text =
      "@I.ir_module\n"
      "class Module:\n"
      "    @T.prim_func\n"
      "    def nests(A: " +
      buffer + ", B: " + buffer + "):\n";
  for (int64_t k = 0; k < nests; ++k) {
    std::string indent = "        ";
    for (int64_t d = 0; d < depth; ++d) {
      text += indent + "for i" + std::to_string(d) + " in range(2):\n";
      indent += "    ";
    }
    text += indent + "with T.block(\"b" + std::to_string(k) + "\"):\n";
    indent += "    ";
    text += indent + indices + " = T.axis.remap(\"" + kinds + "\", [" + loop_vars + "])\n";
    text += indent + "T.reads(A[" + indices + "], B[" + indices + "])\n";
    text += indent + "T.writes(B[" + indices + "])\n";
    text += indent + "B[" + indices + "] = B[" + indices + "] + A[" + indices + "] * T.float32(" +
            std::to_string(k) + ")\n";
  }
  return text;
}

// Parses `text`; on a UserError marks the benchmark as failed and returns null.
IRModule parse_or_skip(benchmark::State& state, const std::string& text) {
  try {
    return text::parse_module(text, "bench.py");
  } catch (const UserError& e) {
    state.SkipWithError(e.what());
    return {};
  }
}

void report(benchmark::State& state, int64_t items, size_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * items);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

void BM_ParseRelax(benchmark::State& state) {
  std::string text = relax_chain_module(state.range(0));
  for (auto _ : state) {
    IRModule module = parse_or_skip(state, text);
    if (!module.defined()) return;
    benchmark::DoNotOptimize(module.get());
  }
  report(state, state.range(0), text.size());
}

void BM_PrintRelax(benchmark::State& state) {
  IRModule module = parse_or_skip(state, relax_chain_module(state.range(0)));
  if (!module.defined()) return;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string printed = text::print_module(module);
    bytes = printed.size();
    benchmark::DoNotOptimize(printed.data());
  }
  report(state, state.range(0), bytes);
}

void BM_NormalizeRelax(benchmark::State& state) {
  std::string text = relax_chain_module(state.range(0));
  IRModule module = parse_or_skip(state, text);
  if (!module.defined()) return;
  for (auto _ : state) {
    IRModule normalized = relax::normalize_module(module);
    benchmark::DoNotOptimize(normalized.get());
  }
  report(state, state.range(0), text.size());
}

// Items of the TensorIR benchmarks: every loop and every block.
int64_t tir_items(const benchmark::State& state) { return state.range(1) * (state.range(0) + 1); }

void BM_ParseTir(benchmark::State& state) {
  std::string text = tir_nests_module(state.range(0), state.range(1));
  for (auto _ : state) {
    IRModule module = parse_or_skip(state, text);
    if (!module.defined()) return;
    benchmark::DoNotOptimize(module.get());
  }
  report(state, tir_items(state), text.size());
}

void BM_PrintTir(benchmark::State& state) {
  IRModule module = parse_or_skip(state, tir_nests_module(state.range(0), state.range(1)));
  if (!module.defined()) return;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string printed = text::print_module(module);
    bytes = printed.size();
    benchmark::DoNotOptimize(printed.data());
  }
  report(state, tir_items(state), bytes);
}

BENCHMARK(BM_ParseRelax)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrintRelax)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_NormalizeRelax)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseTir)->Args({8, 50})->Args({8, 1000})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PrintTir)->Args({8, 50})->Args({8, 1000})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace relaxc

BENCHMARK_MAIN();
