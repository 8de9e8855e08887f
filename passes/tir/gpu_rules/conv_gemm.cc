// The convolution rule: a convolution with its elementwise epilogue as one implicit GEMM
// kernel, tiled as the matmul rule tiles a matmul.
//
// conv_as_matmul (conv_gemm.h) recognizes the convolution by its blocks and builds an
// equivalent function in the matmul's iteration space (n, oc, p, k): a block that
// defines A[oc, k] from the weights, one that defines B[n, k, p] from the input (the
// padded input patch of pixel p, TVM's im2col), the matmul C'[n, oc, p] += A * B, and the
// epilogue blocks over (n, oc, p) with the pixel indices recovered by division, the last
// one storing to the output at (n, oc, p / W, p % W). schedule_matmul tiles it (blocks of
// output channels by pixels, staged through shared memory, a register tile per thread,
// the epilogue on the registers) and compute_inline then folds A's and B's definitions
// into the copies of their tiles: the kernel reads the input and the weights directly
// while copying a tile, and neither matrix is ever stored.
#include "passes/tir/gpu_rules/conv_gemm.h"

#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/tir/block_regions.h"
#include "ir/tir/compute.h"
#include "ir/tir/functor.h"
#include "passes/tir/gpu_rules/block_patterns.h"
#include "passes/tir/gpu_rules/gpu_rule.h"
#include "passes/tir/schedule/schedule.h"
#include "passes/tir/schedule/schedule_internal.h"

namespace relaxc::tir {
namespace {

using namespace schedule_internal;  // NOLINT(google-build-using-namespace)

// The row-major indices over `extents` of the linear position `flat`.
std::vector<PrimExpr> unflatten(const PrimExpr& flat, const std::vector<PrimExpr>& extents) {
  std::vector<PrimExpr> indices(extents.size());
  PrimExpr rest = flat;
  for (size_t d = extents.size(); d-- > 1;) {
    indices[d] = floormod(rest, extents[d]);
    rest = floordiv(rest, extents[d]);
  }
  indices[0] = rest;
  return indices;
}

PrimExpr product(const std::vector<PrimExpr>& extents) {
  PrimExpr p = extents.front();
  for (size_t d = 1; d < extents.size(); ++d) p = p * extents[d];
  return arith::Analyzer().simplify(p);
}

void bind_all(VarMap& map, const std::vector<Var>& vars, const std::vector<PrimExpr>& values) {
  for (size_t n = 0; n < vars.size(); ++n) map[vars[n]] = values[n];
}

bool indices_are(const std::vector<PrimExpr>& indices, const std::vector<Var>& vars) {
  if (indices.size() != vars.size()) return false;
  for (size_t n = 0; n < vars.size(); ++n) {
    if (!indices[n].same_as(vars[n])) return false;
  }
  return true;
}

// `e` with the variables of `vars` replaced, then each load replaced by `load`'s answer.
PrimExpr rebuild(const PrimExpr& e, const VarMap& vars,
                 const std::function<PrimExpr(const BufferLoadNode&)>& load) {
  return transform(substitute(e, vars), [&](const PrimExpr& x) -> PrimExpr {
    const auto* node = x.as<BufferLoadNode>();
    return node != nullptr ? load(*node) : PrimExpr();
  });
}

// The convolution's parts, as conv_as_matmul recognizes them.
struct ConvParts {
  Block block;
  Buffer output;             // C
  std::vector<Var> spatial;  // n, oc, then the pixels
  std::vector<PrimExpr> spatial_extents;
  std::vector<Var> reduce;
  std::vector<PrimExpr> reduce_extents;
  PrimExpr weights, input;  // W's load (perhaps cast) and X
  std::vector<Buffer> operands;
};

std::optional<ConvParts> match_conv(const PrimFunc& func, const Block& block) {
  std::optional<SumOfProducts> update = match_sum_of_products(*block);
  if (!update || update->spatial.size() < 3) return std::nullopt;
  ConvParts conv{block, update->c, update->spatial, {}, {}, {}, {}, {}, {}};
  for (const IterVar& iv : block->iter_vars) {
    if (iv->kind == IterKind::Reduce) {
      conv.reduce.push_back(iv->var);
      conv.reduce_extents.push_back(iv->dom->extent);
    } else {
      conv.spatial_extents.push_back(iv->dom->extent);
    }
  }
  if (conv.reduce.empty()) return std::nullopt;
  std::vector<Var> weight_indices = {conv.spatial[1]};
  weight_indices.insert(weight_indices.end(), conv.reduce.begin(), conv.reduce.end());
  for (const auto& [w, x] :
       {std::pair(update->lhs, update->rhs), std::pair(update->rhs, update->lhs)}) {
    const BufferLoadNode* load = operand_load(w);
    if (load != nullptr && indices_are(load->indices, weight_indices) &&
        is_param(func, load->buffer)) {
      conv.weights = w;
      conv.input = x;
      conv.operands.push_back(load->buffer);
      break;
    }
  }
  const DataType acc = conv.output->dtype;
  if (!conv.weights.defined() || conv.weights->dtype != acc || conv.input->dtype != acc ||
      uses_var(conv.input, conv.spatial[1])) {
    return std::nullopt;
  }
  bool loads_params = true;
  post_order_visit(conv.input, [&](const Ref<Object>& node) {
    const auto* load = node.as<BufferLoadNode>();
    if (load == nullptr) return;
    loads_params = loads_params && is_param(func, load->buffer) &&
                   !load->buffer.same_as(conv.operands.front());
    conv.operands.push_back(load->buffer);
  });
  if (!loads_params) return std::nullopt;
  return conv;
}

// The builder's function with the attributes `attrs` and its last stage (over
// [n, oc, p]) storing to the original output `output` at [n, oc, p0, .., pm] instead.
PrimFunc store_to_output(const PrimFunc& built, const Attrs& attrs, const Buffer& output,
                         const std::string& stage, ComputeBuilder& b,
                         const std::vector<PrimExpr>& pixel_extents) {
  auto* func = copy_node(*built);
  func->attrs = attrs;
  Buffer unflattened = buffer(output->name, output->dtype, b.import(output->shape));
  func->buffer_map.back().second = unflattened;
  StmtPath path = find_block_path(func->body, stage);
  const auto* realize = path.back().as<BlockRealizeNode>();
  auto* block = copy_node(*realize->block);
  const auto* store = block->body.as<BufferStoreNode>();
  std::vector<PrimExpr> indices = {store->indices[0], store->indices[1]};
  for (const PrimExpr& index : unflatten(store->indices[2], b.import(pixel_extents))) {
    indices.push_back(index);
  }
  block->body = buffer_store(unflattened, store->value, indices);
  complete_block_regions(block, false, true);
  auto* new_realize = copy_node(*realize);
  new_realize->block = Block(block);
  func->body = replace_in_path(path, BlockRealize(new_realize));
  return PrimFunc(func);
}

}  // namespace

std::optional<ConvGemm> conv_as_matmul(const PrimFunc& func) {
  if (func->params.size() != func->buffer_map.size()) return std::nullopt;
  std::optional<std::vector<BlockRealize>> top = top_level_nests(func);
  if (!top) return std::nullopt;
  std::optional<ConvParts> conv = match_conv(func, top->front()->block);
  if (!conv) return std::nullopt;
  std::optional<std::vector<std::string>> epilogue =
      match_epilogue(func, *top, conv->output, conv->operands);
  const Buffer& output = func->buffer_map.back().second;
  Buffer last =
      top->size() == 1 ? conv->output : top->back()->block->body.as<BufferStoreNode>()->buffer;
  if (!epilogue || !last.same_as(output)) return std::nullopt;

  ComputeBuilder b;
  std::unordered_map<const BufferNode*, Tensor> params;
  for (size_t n = 0; n + 1 < func->buffer_map.size(); ++n) {
    const Buffer& p = func->buffer_map[n].second;
    params.emplace(p.get(), b.input(p->name, p->shape, p->dtype));
  }
  auto param_load = [&](const BufferLoadNode& load) {
    return buffer_load(params.at(load.buffer.get()).buffer, load.indices);
  };
  const std::vector<Var>& s = conv->spatial;
  std::vector<Var> pixel_vars(s.begin() + 2, s.end());
  std::vector<PrimExpr> pixel_extents(conv->spatial_extents.begin() + 2,
                                      conv->spatial_extents.end());
  PrimExpr batch = conv->spatial_extents[0], channels = conv->spatial_extents[1];
  PrimExpr pixels = product(pixel_extents), depth = product(conv->reduce_extents);
  const std::string& name = conv->block->name;

  Tensor a = b.compute(name + "_weight_matrix", {channels, depth}, conv->weights->dtype,
                       [&](const std::vector<Var>& i) {
                         VarMap vars = {{s[1], i[0]}};
                         bind_all(vars, conv->reduce, unflatten(i[1], conv->reduce_extents));
                         return rebuild(conv->weights, vars, param_load);
                       });
  Tensor x = b.compute(name + "_input_matrix", {batch, depth, pixels}, conv->input->dtype,
                       [&](const std::vector<Var>& i) {
                         VarMap vars = {{s[0], i[0]}};
                         bind_all(vars, conv->reduce, unflatten(i[1], conv->reduce_extents));
                         bind_all(vars, pixel_vars, unflatten(i[2], pixel_extents));
                         return rebuild(conv->input, vars, param_load);
                       });
  Tensor gemm =
      b.reduce(name + "_gemm", {batch, channels, pixels}, conv->output->dtype, ReduceKind::Sum,
               {depth}, [&](const std::vector<Var>& i, const std::vector<Var>& k) {
                 return a({i[1], k[0]}) * x({i[0], k[0], i[2]});
               });

  // The epilogue over (n, oc, p): what the blocks before produced is read at [n, oc, p].
  std::unordered_map<const BufferNode*, Tensor> produced = {{conv->output.get(), gemm}};
  std::vector<Tensor> stages;
  for (size_t n = 1; n < top->size(); ++n) {
    const Block& block = (*top)[n]->block;
    const auto* store = block->body.as<BufferStoreNode>();
    Tensor stage = b.compute(store->buffer->name, {batch, channels, pixels}, store->buffer->dtype,
                             [&](const std::vector<Var>& i) {
                               std::vector<Var> iters;
                               for (const IterVar& iv : block->iter_vars) iters.push_back(iv->var);
                               VarMap vars = {{iters[0], i[0]}, {iters[1], i[1]}};
                               bind_all(vars, std::vector<Var>(iters.begin() + 2, iters.end()),
                                        unflatten(i[2], pixel_extents));
                               std::vector<PrimExpr> at = {i[0], i[1], i[2]};
                               return rebuild(store->value, vars, [&](const BufferLoadNode& load) {
                                 auto it = produced.find(load.buffer.get());
                                 return it != produced.end() ? buffer_load(it->second.buffer, at)
                                                             : param_load(load);
                               });
                             });
    produced.emplace(store->buffer.get(), stage);
    stages.push_back(stage);
  }
  if (stages.empty()) {
    stages.push_back(b.compute(output->name, {batch, channels, pixels}, output->dtype,
                               [&](const std::vector<Var>& i) {
                                 return gemm({i[0], i[1], i[2]});
                               }));
  }
  ComputeBuilder::Result built = b.build({stages.back()}, OpPattern::OutEWiseFusable);
  if (!built.scalar_params.empty()) return std::nullopt;
  PrimFunc rewritten = store_to_output(built.func, func->attrs, output, stages.back().buffer->name,
                                       b, pixel_extents);

  ConvGemm result;
  result.func = rewritten;
  result.weight_matrix = a.buffer->name;
  result.input_matrix = x.buffer->name;
  MatmulMatch& m = result.match;
  m.block = gemm.buffer->name;
  m.a = a.buffer;
  m.b = x.buffer;
  m.c = gemm.buffer;
  m.batch = {0};
  m.i = 1;
  m.j = 2;
  m.k = 3;
  m.rows = gemm.shape()[1];
  m.cols = gemm.shape()[2];
  m.depth = a.shape()[1];
  m.b_along_k = false;
  for (const Tensor& stage : stages) m.epilogue.push_back(stage.buffer->name);
  return result;
}

PrimFunc schedule_conv_gemm(const ConvGemm& conv, const MatmulTiles& tiles) {
  Schedule s(schedule_matmul(conv.func, conv.match, tiles));
  s.compute_inline(s.get_block(conv.weight_matrix));
  s.compute_inline(s.get_block(conv.input_matrix));
  return s.func();
}

namespace {

std::optional<PrimFunc> apply_conv(const PrimFunc& func, const Target& target) {
  std::optional<ConvGemm> conv = conv_as_matmul(func);
  if (!conv) return std::nullopt;
  std::optional<MatmulTiles> tiles = choose_matmul_tiles(conv->match, target);
  if (!tiles) return std::nullopt;
  return schedule_conv_gemm(*conv, *tiles);
}

}  // namespace

GpuScheduleRule conv_gemm_rule() { return {"conv gemm", &apply_conv}; }

}  // namespace relaxc::tir
