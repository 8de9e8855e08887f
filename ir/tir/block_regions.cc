// Completion of the regions a TensorIR block reads and writes, for a block whose text
// leaves out T.reads or T.writes (TVM's parser completes them the same way) and for the
// blocks the compute builder makes.
//
// The block's init and body are walked: a buffer load is a read and a store a write, at
// its indices. A loop variable bound inside the block takes every value of its loop (a
// let variable every value of its value), so each index is bounded by interval
// arithmetic over those variables: + and -, * by a constant, // by a positive constant,
// % by a positive constant (0 .. c-1), min and max. An index it cannot bound covers the
// whole dimension. A nested block counts through its own regions, with its iteration
// variables replaced by their bindings. The accesses to one buffer are joined into one
// region, the hull of their intervals in each dimension. Buffers the block allocates are
// its own and are not listed; an access to a buffer the block matches (T.match_buffer)
// is an access to the whole matched region. A block with T.init() does not list among
// its reads the buffers it writes, as TVM writes reductions.
#include "ir/tir/block_regions.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/tir/functor.h"

namespace relaxc::tir {

namespace {

// [lo, hi], both included.
struct Interval {
  PrimExpr lo, hi;
};
// One interval per dimension; nullopt where the accesses cannot be bounded.
using Region = std::vector<std::optional<Interval>>;

struct Access {
  Buffer buffer;
  Region region;
};

class RegionCollector : public Visitor {
 public:
  explicit RegionCollector(const BlockNode& block) {
    for (const Buffer& b : block.alloc_buffers) local_.insert(b.get());
    for (const MatchBufferRegion& m : block.match_buffers) {
      matched_[m->buffer.get()] = m->source;
    }
  }

  std::vector<Access> reads, writes;

 protected:
  void visit_node(const ForNode* loop) override {
    visit(loop->min);
    visit(loop->extent);
    std::optional<Interval> lo = bound(loop->min);
    std::optional<Interval> hi = bound(loop->min + loop->extent - 1);
    if (lo && hi) {
      intervals_[loop->loop_var.get()] = Interval{lo->lo, hi->hi};
    } else {
      unbounded_.insert(loop->loop_var.get());
    }
    visit(loop->body);
  }

  void visit_node(const LetStmtNode* let) override {
    visit(let->value);
    if (std::optional<Interval> value = bound(let->value)) {
      intervals_[let->var.get()] = *value;
    } else {
      unbounded_.insert(let->var.get());
    }
    visit(let->body);
  }

  void visit_node(const AllocateNode* alloc) override {
    local_.insert(alloc->buffer.get());
    visit(alloc->body);
  }

  void visit_node(const BufferLoadNode* load) override {
    for (const PrimExpr& index : load->indices) visit(index);
    record(reads, load->buffer, points(load->indices));
  }

  void visit_node(const BufferStoreNode* store) override {
    visit(store->value);
    for (const PrimExpr& index : store->indices) visit(index);
    record(writes, store->buffer, points(store->indices));
  }

  // A nested block accesses what its regions say, in terms of this block's variables.
  void visit_node(const BlockRealizeNode* realize) override {
    for (const PrimExpr& value : realize->iter_values) visit(value);
    visit(realize->predicate);
    const BlockNode& inner = *realize->block;
    VarMap bindings;
    for (size_t i = 0; i < inner.iter_vars.size() && i < realize->iter_values.size(); ++i) {
      bindings[inner.iter_vars[i]->var] = realize->iter_values[i];
    }
    for (const auto* list : {&inner.reads, &inner.writes}) {
      for (const BufferRegion& region : *list) {
        Region bounded;
        for (const Range& r : region->region) {
          PrimExpr min = substitute(r->min, bindings);
          PrimExpr last = substitute(r->min + r->extent - 1, bindings);
          std::optional<Interval> lo = bound(min), hi = bound(last);
          bounded.push_back(lo && hi ? std::optional<Interval>(Interval{lo->lo, hi->hi})
                                     : std::nullopt);
        }
        record(list == &inner.reads ? reads : writes, region->buffer, std::move(bounded));
      }
    }
  }

 private:
  Region points(const std::vector<PrimExpr>& indices) {
    Region region;
    for (const PrimExpr& index : indices) region.push_back(bound(index));
    return region;
  }

  void record(std::vector<Access>& accesses, const Buffer& buffer, Region region) {
    if (local_.count(buffer.get()) != 0) return;
    auto matched = matched_.find(buffer.get());
    if (matched != matched_.end()) {
      const BufferRegion& source = matched->second;
      region.clear();
      for (const Range& r : source->region) {
        std::optional<Interval> lo = bound(r->min), hi = bound(r->min + r->extent - 1);
        region.push_back(lo && hi ? std::optional<Interval>(Interval{lo->lo, hi->hi})
                                  : std::nullopt);
      }
      return record(accesses, source->buffer, std::move(region));
    }
    for (Access& access : accesses) {
      if (!access.buffer.same_as(buffer)) continue;
      for (size_t i = 0; i < access.region.size() && i < region.size(); ++i) {
        access.region[i] = join(access.region[i], region[i]);
      }
      return;
    }
    accesses.push_back({buffer, std::move(region)});
  }

  std::optional<Interval> join(const std::optional<Interval>& a, const std::optional<Interval>& b) {
    if (!a || !b) return std::nullopt;
    auto pick = [&](const PrimExpr& x, const PrimExpr& y, bool lower) {
      if (structural_equal(x, y)) return x;
      if (analyzer_.can_prove(lower ? le(x, y) : ge(x, y))) return x;
      if (analyzer_.can_prove(lower ? le(y, x) : ge(y, x))) return y;
      return arith::simplify(lower ? min(x, y) : max(x, y));
    };
    return Interval{pick(a->lo, b->lo, true), pick(a->hi, b->hi, false)};
  }

  bool uses_bound_vars(const PrimExpr& e) const {
    bool found = false;
    post_order_visit(e, [&](const Ref<Object>& node) {
      const auto* v = node.as<VarNode>();
      if (v != nullptr && (intervals_.count(v) != 0 || unbounded_.count(v) != 0)) found = true;
    });
    return found;
  }

  // The values `e` takes as the variables bound inside the block vary, or nullopt.
  std::optional<Interval> bound(const PrimExpr& e) {
    if (!uses_bound_vars(e)) return Interval{e, e};
    std::optional<Interval> result = bound_uses(e);
    if (!result) return std::nullopt;
    return Interval{arith::simplify(result->lo), arith::simplify(result->hi)};
  }

  std::optional<Interval> bound_uses(const PrimExpr& e) {
    if (!uses_bound_vars(e)) return Interval{e, e};
    if (const auto* v = e.as<VarNode>()) {
      auto it = intervals_.find(v);
      if (it == intervals_.end()) return std::nullopt;
      return it->second;
    }
    auto both = [&](const PrimExpr& a,
                    const PrimExpr& b) -> std::optional<std::pair<Interval, Interval>> {
      std::optional<Interval> x = bound_uses(a), y = bound_uses(b);
      if (!x || !y) return std::nullopt;
      return std::make_pair(*x, *y);
    };
    if (const auto* add = e.as<AddNode>()) {
      auto xy = both(add->a, add->b);
      if (!xy) return std::nullopt;
      return Interval{xy->first.lo + xy->second.lo, xy->first.hi + xy->second.hi};
    }
    if (const auto* sub = e.as<SubNode>()) {
      auto xy = both(sub->a, sub->b);
      if (!xy) return std::nullopt;
      return Interval{xy->first.lo - xy->second.hi, xy->first.hi - xy->second.lo};
    }
    if (const auto* mul = e.as<MulNode>()) {
      const int64_t* c = as_const_int(mul->b);
      const PrimExpr* x = &mul->a;
      if (c == nullptr) {
        c = as_const_int(mul->a);
        x = &mul->b;
      }
      if (c == nullptr) return std::nullopt;
      std::optional<Interval> r = bound_uses(*x);
      if (!r) return std::nullopt;
      PrimExpr k = int_imm(e->dtype, *c);
      return *c >= 0 ? Interval{r->lo * k, r->hi * k} : Interval{r->hi * k, r->lo * k};
    }
    if (const auto* div = e.as<FloorDivNode>()) {
      const int64_t* c = as_const_int(div->b);
      std::optional<Interval> r = c != nullptr && *c > 0 ? bound_uses(div->a) : std::nullopt;
      if (!r) return std::nullopt;
      return Interval{floordiv(r->lo, div->b), floordiv(r->hi, div->b)};
    }
    if (const auto* mod = e.as<FloorModNode>()) {
      const int64_t* c = as_const_int(mod->b);
      if (c == nullptr || *c <= 0) return std::nullopt;
      return Interval{int_imm(e->dtype, 0), int_imm(e->dtype, *c - 1)};
    }
    if (const auto* mn = e.as<MinNode>()) {
      auto xy = both(mn->a, mn->b);
      if (!xy) return std::nullopt;
      return Interval{min(xy->first.lo, xy->second.lo), min(xy->first.hi, xy->second.hi)};
    }
    if (const auto* mx = e.as<MaxNode>()) {
      auto xy = both(mx->a, mx->b);
      if (!xy) return std::nullopt;
      return Interval{max(xy->first.lo, xy->second.lo), max(xy->first.hi, xy->second.hi)};
    }
    return std::nullopt;
  }

  std::unordered_set<const BufferNode*> local_;
  std::unordered_map<const BufferNode*, BufferRegion> matched_;
  std::unordered_map<const VarNode*, Interval> intervals_;
  std::unordered_set<const VarNode*> unbounded_;
  arith::Analyzer analyzer_;
};

std::vector<BufferRegion> to_regions(const std::vector<Access>& accesses) {
  std::vector<BufferRegion> out;
  for (const Access& access : accesses) {
    auto* node = make_node<BufferRegionNode>();
    BufferRegion region(node);
    node->buffer = access.buffer;
    const std::vector<PrimExpr>& shape = access.buffer->shape;
    for (size_t i = 0; i < shape.size(); ++i) {
      const std::optional<Interval>& dim =
          i < access.region.size() ? access.region[i] : std::nullopt;
      if (!dim) {
        node->region.push_back(range(make_const(shape[i]->dtype, 0), shape[i]));
      } else if (structural_equal(dim->lo, dim->hi)) {
        node->region.push_back(range(dim->lo, make_const(dim->lo->dtype, 1)));
      } else {
        node->region.push_back(range(dim->lo, arith::simplify(dim->hi - dim->lo + 1)));
      }
    }
    out.push_back(std::move(region));
  }
  return out;
}

}  // namespace

void complete_block_regions(BlockNode* block, bool reads, bool writes) {
  if (!reads && !writes) return;
  RegionCollector collector(*block);
  collector.visit(block->init);
  collector.visit(block->body);
  if (writes) block->writes = to_regions(collector.writes);
  if (reads) {
    std::vector<Access> read_accesses;
    for (Access& access : collector.reads) {
      bool written = std::any_of(collector.writes.begin(), collector.writes.end(),
                                 [&](const Access& w) { return w.buffer.same_as(access.buffer); });
      if (!(block->init.defined() && written)) read_accesses.push_back(std::move(access));
    }
    block->reads = to_regions(read_accesses);
  }
}

}  // namespace relaxc::tir
